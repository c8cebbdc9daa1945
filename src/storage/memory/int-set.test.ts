import { IntSet } from './int-set';

function valuesOf(set: IntSet): number[] {
  const values: number[] = [];
  set.forEach((value) => values.push(value));
  return values.sort((a, b) => a - b);
}

describe('integer set', () => {
  it('counts a value added twice once', () => {
    const set = new IntSet();
    [5, 0, 5, 7, 0].forEach((value) => set.add(value));
    expect(valuesOf(set)).toEqual([0, 5, 7]);
  });

  it('keeps every value through growth, including values that share low bits', () => {
    const set = new IntSet();
    const values = Array.from({ length: 5_000 }, (_value, index) => index * 1024);
    for (const value of [...values, ...values]) set.add(value);
    expect(valuesOf(set)).toEqual(values);
  });

  it('holds the largest value that leaves room for its marker', () => {
    const set = new IntSet();
    set.add(0xfffffffe);
    expect(valuesOf(set)).toEqual([0xfffffffe]);
  });
});
