import { boundedStateJson, overBytes, STATE_TOO_LARGE } from './evaluation-bounds';

describe('a state bounded as its JSON in UTF-8', () => {
  test.each([
    ['null', null],
    ['a number', 42],
    ['an array (its indices are not written)', [1, 2, 3, [4, 5], 'six']],
    ['an object', { flags: ['accepted', 'again'], score: { total: 12, pages: [1, 2] } }],
    ['text of two-byte characters', { name: 'Élodie Müller' }],
    ['an empty object and array', { a: {}, b: [] }],
  ])('%s: its JSON at exactly the bound, too large one byte below', (_name, state) => {
    const json = JSON.stringify(state);
    const bytes = Buffer.byteLength(json);
    expect(boundedStateJson(state, bytes)).toBe(json);
    expect(boundedStateJson(state, bytes - 1)).toBe(STATE_TOO_LARGE);
  });

  test('undefined is kept as null', () => {
    expect(boundedStateJson(undefined, 4)).toBe('null');
  });

  test('a string of hundreds of MiB is refused before its JSON is made', () => {
    // Made by repeat: a string V8 need not lay out whole until something reads its characters.
    expect(boundedStateJson({ kept: 'x'.repeat(300 * 1024 * 1024) }, 16_384)).toBe(STATE_TOO_LARGE);
  });

  test.each([
    ['a cycle', (() => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return cyclic;
    })()],
    ['a BigInt', { n: 1n }],
    ['a function', () => 'state'],
  ])('what JSON cannot hold (%s) has no JSON', (_name, state) => {
    expect(boundedStateJson(state, 16_384)).toBeUndefined();
  });
});

test.each([
  ['ab', 2, false],
  ['abc', 2, true],
  ['éé', 4, false],
  ['éé', 3, true],
  ['😀', 4, false],
  ['😀', 3, true],
])('overBytes(%j, %i) is %s', (text, limit, over) => {
  expect(overBytes(text, limit)).toBe(over);
});
