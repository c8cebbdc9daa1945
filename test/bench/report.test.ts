import { renderReport, tableLines, type Pass } from '../../bench/report';

const measured = { measured: '1 req/s', baseline: '2 req/s', ratio: '0.50' };

const pass = (version: string, ofRecord: boolean): Pass => ({
  runtime: { binary: '/opt/node/bin/node', version, ofRecord },
  rows: [{ figure: 'a figure', goal: '>= 0.9', outcome: { ...measured, met: true } }],
  checks: [],
  more: [`a line on ${version}`],
  childVersions: new Map([[version, 3]]),
});

describe('docs/performance.md', () => {
  it('says of a goal with a milestone whether the milestone was met', () => {
    const row = (met: boolean, milestoneMet?: boolean) => ({ figure: 'f', goal: '>= 0.9 (milestone 0.75)', outcome: { ...measured, met, milestoneMet } });
    expect(tableLines([row(true, true), row(false, true), row(false, false), row(false)]).slice(2)).toEqual([
      '| f | 1 req/s | 2 req/s | 0.50 | >= 0.9 (milestone 0.75) | yes |',
      '| f | 1 req/s | 2 req/s | 0.50 | >= 0.9 (milestone 0.75) | no (milestone met) |',
      '| f | 1 req/s | 2 req/s | 0.50 | >= 0.9 (milestone 0.75) | no (milestone not met either) |',
      '| f | 1 req/s | 2 req/s | 0.50 | >= 0.9 (milestone 0.75) | no |',
    ]);
  });

  it('gives each Node.js measured its figures, its generator ceilings and its more figures, the one of record first, the method once', () => {
    const text = renderReport({
      startedAt: new Date('2026-11-27T10:00:00Z'),
      minutes: 30,
      machine: { cpu: 'cpu', logicalCores: 2, memoryGiB: 8, os: 'os', node: 'v20.20.2', loadAverage: 1 },
      reducedSizes: false,
      settings: ['BENCH_RUNS=5'],
      methods: ['the method'],
      passes: [pass('v24.21.0', true), pass('v20.20.2', false)],
      wrk: 'wrk 4.1.0',
      endLoadAverage: 2,
    });
    const headings = text.split('\n').filter((line) => /^#{1,3} /.test(line) && !line.startsWith('### 2026'));
    expect(headings.slice(0, 10)).toEqual([
      '# Performance',
      '## Machine',
      '## How each figure is measured',
      '## Figures on Node.js v24.21.0 (of record)',
      '### The load generator was not the limit, on Node.js v24.21.0 (of record)',
      '### More figures from the same run, on Node.js v24.21.0 (of record)',
      '## Figures on Node.js v20.20.2',
      '### The load generator was not the limit, on Node.js v20.20.2',
      '### More figures from the same run, on Node.js v20.20.2',
      '## History',
    ]);
    expect(text).toContain('- Node.js: v24.21.0 (of record; `/opt/node/bin/node`) and v20.20.2 (`/opt/node/bin/node`): every row was measured on each in turn');
    expect(text).toContain('ran on v20.20.2 in every pass.');
    expect(text).toContain('said which Node.js ran it: 3 on v24.21.0.');
    expect(text).toContain('- a line on v20.20.2');
    expect(text.split('- the method').length).toBe(2);
  });
});
