import { InvalidArgumentError } from 'commander';
import { TOOLS, type Tool } from '../../accounts/account';

/** commander argument parser for TOOL, so a typo is refused before anything is sent. */
export function parseTool(value: string): Tool {
  const tool = TOOLS.find((known) => known === value);
  if (tool === undefined) throw new InvalidArgumentError(`must be one of ${TOOLS.join(', ')}`);
  return tool;
}
