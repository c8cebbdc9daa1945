import { VarintColumn } from './varint-column';

describe('varint column', () => {
  it('reads back values of every width from where they were written, across chunks', () => {
    const column = new VarintColumn();
    const values = [0, 1, 127, 128, 16_383, 16_384, 1_000_000_000, 2 ** 31, 2 ** 32 - 1];
    for (let round = 0; round < 5_000; round += 1) for (const value of values) column.push(value);
    const secondRound = column.length / 5_000;
    expect(column.length).toBeGreaterThan(65_536);
    const reader = column.readerAt(secondRound * 4_321);
    expect(values.map(() => reader.next())).toEqual(values);
    expect(reader.next()).toBe(0);
  });

  it('takes one byte for a value below 128', () => {
    const column = new VarintColumn();
    [0, 5, 127].forEach((value) => column.push(value));
    column.push(128);
    expect(column.length).toBe(5);
  });
});
