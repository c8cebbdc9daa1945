import { Uint32Column } from './uint32-column';

describe('uint32 column', () => {
  it('reads back what was pushed, across chunks', () => {
    const column = new Uint32Column();
    const indexes = Array.from({ length: 50_000 }, (_value, index) => column.push(index * 3));
    expect(indexes.every((pushedAt, index) => pushedAt === index)).toBe(true);
    column.push(0xffffffff);
    expect(column.length).toBe(50_001);
    expect([column.get(0), column.get(16_383), column.get(16_384), column.get(49_999), column.get(50_000)]).toEqual([
      0, 49_149, 49_152, 149_997, 0xffffffff,
    ]);
  });
});
