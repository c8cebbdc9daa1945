import { limitConcurrency } from '../../src/accounts/concurrency-limit';

/** A task the test finishes by hand, recording when it started. */
function manualTask(started: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    run: () => {
      started.push(name);
      return done;
    },
    finish: () => finish(name),
    fail: () => fail(new Error(`${name} failed`)),
  };
}

/** Lets every promise callback queued so far run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('limitConcurrency', () => {
  test('runs at most the given number of tasks at once and starts the others in the order they came', async () => {
    const started: string[] = [];
    const inLine = limitConcurrency(2);
    const tasks = ['a', 'b', 'c', 'd'].map((name) => manualTask(started, name));
    const results = tasks.map((task) => inLine(task.run));
    await settle();
    expect(started).toEqual(['a', 'b']);
    tasks[1]?.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    tasks[0]?.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    tasks[2]?.finish();
    tasks[3]?.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
  });

  test('frees the place of a task that fails and passes its error on', async () => {
    const started: string[] = [];
    const inLine = limitConcurrency(1);
    const failing = manualTask(started, 'failing');
    const next = manualTask(started, 'next');
    const failed = inLine(failing.run);
    const after = inLine(next.run);
    await settle();
    expect(started).toEqual(['failing']);
    failing.fail();
    await expect(failed).rejects.toThrow('failing failed');
    await settle();
    expect(started).toEqual(['failing', 'next']);
    next.finish();
    expect(await after).toBe('next');
  });

  test('starts a task at once again when the line has emptied', async () => {
    const started: string[] = [];
    const inLine = limitConcurrency(1);
    const first = manualTask(started, 'first');
    const firstResult = inLine(first.run);
    first.finish();
    await firstResult;
    const second = manualTask(started, 'second');
    const secondResult = inLine(second.run);
    await settle();
    expect(started).toEqual(['first', 'second']);
    second.finish();
    expect(await secondResult).toBe('second');
  });
});
