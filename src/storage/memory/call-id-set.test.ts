import { CallIdSet } from './call-id-set';
import { MAX_TEXT_UNITS } from './text-bytes';

/** Adds each id in order; what add answered for each. */
const addAll = (set: CallIdSet, ids: readonly string[]): boolean[] => ids.map((id) => set.add(id));

describe('call id set', () => {
  it('keeps a new id and refuses it the second time', () => {
    const set = new CallIdSet();
    expect(addAll(set, ['a', 'b', 'a', 'c', 'b'])).toEqual([true, true, false, true, false]);
    expect(set.size).toBe(3);
  });

  it('tells apart ids that differ in one byte, by length or only by case', () => {
    const set = new CallIdSet();
    const ids = ['', 'x', 'xx', 'X', 'xy', 'yx', 'x\u0000', 'é', 'e\u0301', '😀', '\uFFFD'];
    expect(addAll(set, ids)).toEqual(ids.map(() => true));
    expect(addAll(set, ids)).toEqual(ids.map(() => false));
    expect(set.size).toBe(ids.length);
  });

  it('tells apart ids coded against the one before them: extensions, prefixes and the same opening', () => {
    const set = new CallIdSet();
    const ids = ['call-1', 'call-10', 'call-1', 'call-100', 'call-', 'call-2', 'call-20', 'call-1000', 'call-10', 'call-2'];
    expect(addAll(set, ids)).toEqual([true, true, false, true, true, true, true, true, false, false]);
    expect(set.size).toBe(7);
  });

  it('keeps every id through growth of its hash table, across groups and arena chunks', () => {
    const set = new CallIdSet();
    const id = (index: number): string => `demo-1800555${String(index % 97).padStart(4, '0')}-2025${index}-${'z'.repeat(index % 300)}`;
    const ids = Array.from({ length: 60_000 }, (_, index) => id(index));
    expect(addAll(set, ids).every(Boolean)).toBe(true);
    expect(set.size).toBe(ids.length);
    expect(addAll(set, ids).some(Boolean)).toBe(false);
    expect(set.add(`${id(ids.length - 1)}z`)).toBe(true);
    expect(set.add(id(7).slice(0, -1))).toBe(true);
    expect(set.size).toBe(ids.length + 2);
  });

  it('keeps ids without a common opening, as random as UUIDs', () => {
    const set = new CallIdSet();
    const ids = Array.from({ length: 20_000 }, (_, index) => `${((index * 2_654_435_761) >>> 0).toString(16)}-${index}`);
    expect(addAll(set, ids).every(Boolean)).toBe(true);
    expect(addAll(set, ids.slice().reverse()).some(Boolean)).toBe(false);
    expect(set.size).toBe(ids.length);
  });

  it('holds ids of the longest length across the end of an arena chunk', () => {
    const set = new CallIdSet();
    const longest = (index: number): string => String(index).padEnd(MAX_TEXT_UNITS, 'é');
    for (let index = 0; index < 40; index += 1) expect(set.add(longest(index))).toBe(true);
    expect(set.add(longest(21))).toBe(false);
    expect(set.add(longest(39))).toBe(false);
    expect(set.add(`${longest(5).slice(0, -1)}e`)).toBe(true);
    expect(set.size).toBe(41);
  });

  it('refuses an id longer than it can store', () => {
    expect(() => new CallIdSet().add('a'.repeat(MAX_TEXT_UNITS + 1))).toThrow(RangeError);
  });
});
