import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../logger';
import { loadOnWorker } from './handlers/handler-worker';
import { PatternWorker } from './rules/pattern-worker';

/** The niceness of each thread of this process, by its id (Linux: the 19th field of /proc/self/task/ID/stat). */
function nicenessOfThreads(): Map<string, number> {
  const threads = new Map<string, number>();
  for (const id of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
    // The fields after the command's name, which is in parentheses and may hold spaces: the niceness is the 17th of them.
    threads.set(id, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return threads;
}

/** The threads that began since `before`, with their niceness. */
const newThreads = (before: ReadonlyMap<string, number>): number[] => [...nicenessOfThreads()].filter(([id]) => !before.has(id)).map(([, nice]) => nice);

const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('the worker threads take the lowest priority, so that the event loop on the same cores comes first', () => {
  test("the pattern worker's thread runs at niceness 19, the process's own threads as they were", async () => {
    const before = nicenessOfThreads();
    const worker = new PatternWorker();
    expect(await worker.test(['b'], ['abc'], worker.now() + 60_000)).toEqual([true]);
    expect(newThreads(before)).toContain(19);
    expect([...before.keys()].map((id) => nicenessOfThreads().get(id))).toEqual([...before.values()]);
  });

  test("a worker handler's thread runs at niceness 19", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-priority-'));
    try {
      const file = path.join(folder, 'handler.js');
      writeFileSync(file, "module.exports = () => ({ response: 'ok', state: null });\n");
      const before = nicenessOfThreads();
      const load = await loadOnWorker({ file, bounds: { timeoutSeconds: 60, maxResponseBytes: 1024, maxStateBytes: 1024 }, logger: createLogger('silent') });
      if (load.kind !== 'loaded') throw new Error(`the handler did not load: ${load.kind}`);
      expect(newThreads(before)).toContain(19);
      load.retire();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
