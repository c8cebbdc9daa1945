import { progressReporter } from './import/progress';

function recorder(isTTY: boolean) {
  const written: string[] = [];
  return { written, output: { isTTY, columns: 100, write: (text: string) => written.push(text) > 0 } };
}

describe('import progress', () => {
  test('redraws a bar with the share of the file and records per second on a terminal', () => {
    let now = 0;
    const { written, output } = recorder(true);
    const progress = progressReporter(1000, output, () => now);
    now = 2000;
    progress.update(5000, 250);
    now = 2050;
    progress.update(6000, 300);
    now = 4000;
    progress.update(20_000, 1000);
    progress.finish();
    expect(written).toEqual([
      '\r[########----------------------] 25%  5,000 records  2,500 records/s\u001b[K',
      '\r[##############################] 100%  20,000 records  5,000 records/s\u001b[K',
      '\r[##############################] 100%  20,000 records  5,000 records/s\u001b[K',
      '\n',
    ]);
  });

  test('writes a plain line at most every two seconds elsewhere, and nothing more at the end', () => {
    let now = 0;
    const { written, output } = recorder(false);
    const progress = progressReporter(1000, output, () => now);
    now = 1000;
    progress.update(1000, 100);
    now = 2000;
    progress.update(2000, 200);
    now = 3000;
    progress.update(3000, 300);
    progress.finish();
    expect(written).toEqual(['imported 10%  1,000 records  1,000 records/s\n', 'imported 30%  3,000 records  1,000 records/s\n']);
  });
});
