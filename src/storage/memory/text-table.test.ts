import { MAX_TEXT_UNITS } from './text-bytes';
import { TextTable } from './text-table';

describe('text table', () => {
  it('gives each new text the next id and a known text its id', () => {
    const table = new TextTable();
    expect([table.intern('a'), table.intern('b'), table.intern('a'), table.intern('c'), table.intern('b')]).toEqual([0, 1, 0, 2, 1]);
    expect(table.size).toBe(3);
  });

  it('tells apart texts that differ in one byte, by length or only by case', () => {
    const table = new TextTable();
    const texts = ['', 'x', 'xx', 'X', 'xy', 'yx', 'x\u0000', 'é', 'e\u0301', '😀', '\uFFFD'];
    texts.forEach((text) => table.intern(text));
    expect(texts.map((text) => table.intern(text))).toEqual(texts.map((_text, index) => index));
    expect(table.size).toBe(texts.length);
  });

  it('keeps every id through growth of its hash table and of its byte arena', () => {
    const table = new TextTable();
    const count = 25_000;
    for (let index = 0; index < count; index += 1) table.intern(`4c1b1f0e-call-${index}-${'z'.repeat(index % 60)}`);
    expect(table.size).toBe(count);
    for (let index = 0; index < count; index += 997) {
      expect(table.intern(`4c1b1f0e-call-${index}-${'z'.repeat(index % 60)}`)).toBe(index);
    }
    expect(table.size).toBe(count);
    expect(table.intern('4c1b1f0e-call-1-')).toBe(count);
  });

  it('holds texts of the longest length across the end of an arena chunk', () => {
    const table = new TextTable();
    const longest = (index: number): string => String(index).padEnd(MAX_TEXT_UNITS, 'é');
    for (let index = 0; index < 40; index += 1) table.intern(longest(index));
    expect(table.intern(longest(21))).toBe(21);
    expect(table.intern(longest(39))).toBe(39);
    expect(table.size).toBe(40);
  });

  it('refuses a text longer than it can store', () => {
    expect(() => new TextTable().intern('a'.repeat(MAX_TEXT_UNITS + 1))).toThrow(RangeError);
  });
});
