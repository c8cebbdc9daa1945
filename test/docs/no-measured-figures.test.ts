import { lineIn, prose, textOf, trackedFiles, type Passage } from './tracked-text';

/**
 * A figure measured on one machine on one day (a timing, a ratio against the library way, a share or a
 * multiple of the CPU, a rate, the date it was taken) is not written in a comment of src/: nothing keeps
 * it true there as the code and the runtime move. It is written in docs/performance-costs.md with how it
 * was measured, and the comment says in words why the code is as it is and points to that section. A bound
 * the code sets (a 60 s cap, 100 held requests, 240 bytes/s) is a setting, not a measurement, and stays;
 * so does what backticks quote (an example of output, a date a field takes), and the epoch.
 */

/** What may stand between two words of one figure in a comment: a line's end and its leading `*` or `//`. */
const BETWEEN = String.raw`[\s*/]+`;
const NUMBER = String.raw`\d+(?:[.,]\d+)*(?:-\d+(?:[.,]\d+)*)?`;

const MEASURED: readonly RegExp[] = [
  // 17 µs, 0.2 µs, 27-30 µs, 450 ns
  new RegExp(String.raw`\b${NUMBER} ?(?:µs|ns)\b`, 'g'),
  // 1.35x, 9.0-14x, 87x
  new RegExp(String.raw`\b${NUMBER}x\b`, 'g'),
  // 4% of a kept report's CPU
  new RegExp(String.raw`\b${NUMBER} ?%${BETWEEN}of\b`, 'g'),
  // 0.92 of the CPU, 240 ms of CPU
  new RegExp(String.raw`\b${NUMBER}${BETWEEN}(?:ms${BETWEEN})?of${BETWEEN}(?:the${BETWEEN})?CPU\b`, 'g'),
  // took 160-1,800 ms, costs about 3 ms
  new RegExp(String.raw`\b(?:took|takes|costs?)${BETWEEN}(?:about${BETWEEN}|some${BETWEEN})?${NUMBER} ?ms\b`, 'g'),
  // 3,766 requests/s, 146,296 records a second
  new RegExp(String.raw`\b${NUMBER} ?(?:req(?:uest)?s/s|(?:requests|calls|records)${BETWEEN}(?:a|per)${BETWEEN}second)\b`, 'g'),
  // (npm run bench, 2026-11-27): a day, not an instant (2018-02-07T10:15:00Z) and not the epoch
  /\b(?!1970-01-01)\d{4}-[01]\d-[0-3]\d\b(?![T ]\d)/g,
];

/** The passage with each span in backticks blanked out, so that what remains keeps its offsets. */
const withoutQuotedCode = (text: string): string => text.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));

/** Each measured figure of the passages, as `file:line: figure`. */
function figuresIn(file: string, passages: readonly Passage[]): string[] {
  return passages.flatMap((passage) => {
    const text = withoutQuotedCode(passage.text);
    return MEASURED.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => `${file}:${lineIn(passage, match.index)}: ${match[0].replace(/\s+/g, ' ')}`));
  });
}

/** The code of src/, its tests left out: a test may state what it measures. */
const CODE = /^src\/.*\.(?:ts|mts|cts|js|mjs|cjs)$/;
const TEST = /\.test\.[cm]?[jt]s$/;

describe('the comments of src/', () => {
  test('carry no measured figure: it is in docs/performance-costs.md, and a comment points to its section', () => {
    const found = trackedFiles()
      .filter((file) => CODE.test(file) && !TEST.test(file))
      .flatMap((file) => figuresIn(file, prose(file, textOf(file) ?? '')));
    expect(found).toEqual([]);
  });

  test('are held to patterns that find the ways a figure is written, and not a setting or an example', () => {
    const comment = (lines: readonly string[]) => prose('src/example.ts', ['/**', ...lines.map((line) => ` * ${line}`), ' */'].join('\n'));
    const figures = [
      'PHP\'s page in 17 µs here against 51 µs through sax (3.1x);',
      'the server without it took 1.35x the CPU per call, 9.0-14x over the rounds;',
      'some 5% of a svcEval call, 2.8% of a kept report',
      'the eight-day report took 0.92 of the',
      'CPU per request, a svcEval call 240 ms of CPU;',
      'a 10 Mi-character one took 160-1,800 ms, 3,766 requests/s, 146,296 records a second',
      'on Node 24 (`npm run bench:revisions`, 2026-11-27).',
    ];
    expect(figuresIn('src/example.ts', comment(figures)).map((found) => found.replace(/^[^:]+:/, ''))).toEqual([
      '2: 17 µs',
      '2: 51 µs',
      '2: 3.1x',
      '3: 1.35x',
      '3: 9.0-14x',
      '4: 5% of',
      '4: 2.8% of',
      '5: 0.92 of the * CPU',
      '6: 240 ms of CPU',
      '7: took 160-1,800 ms',
      '7: 3,766 requests/s',
      '7: 146,296 records a second',
      '8: 2026-11-27',
    ]);
    const settings = [
      'At most 100 held requests, each for a 60 s cap; MinRequestBodyDataRate: 240 bytes/s.',
      'A report answers `429 after 300 ms`; a date input holds `2026-11-20`; e.g. 2018-02-07T10:15:00-05:00,',
      'shown as 2018-02-07 15:00:00.000, days since 1970-01-01, 0x10, a large part of a call\'s CPU,',
      'the rate is records per second since the start, a 16 MiB bound, a 10 MiB text.',
    ];
    expect(figuresIn('src/example.ts', comment(settings))).toEqual([]);
  });
});
