import { InvalidArgumentError } from 'commander';

/** commander option parser for a whole number within bounds. */
export function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}
