import { LineFullError, limitConcurrency } from './concurrency-limit';

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

  test('refuses a task at once when the line is as long as it may be, and takes one again when a place frees', async () => {
    const started: string[] = [];
    const inLine = limitConcurrency(1, 1);
    const running = manualTask(started, 'running');
    const waiting = manualTask(started, 'waiting');
    const refused = manualTask(started, 'refused');
    const results = [inLine(running.run), inLine(waiting.run)];
    await expect(inLine(refused.run)).rejects.toBeInstanceOf(LineFullError);
    running.finish();
    await settle();
    const later = manualTask(started, 'later');
    const laterResult = inLine(later.run);
    waiting.finish();
    later.finish();
    expect([...(await Promise.all(results)), await laterResult]).toEqual(['running', 'waiting', 'later']);
    expect(started).toEqual(['running', 'waiting', 'later']);
  });

  test('drops a waiting task whose signal aborts: it leaves the line at once and never starts', async () => {
    const started: string[] = [];
    const inLine = limitConcurrency(1, 1);
    const running = manualTask(started, 'running');
    const abandoned = manualTask(started, 'abandoned');
    const next = manualTask(started, 'next');
    const controller = new AbortController();
    const runningResult = inLine(running.run);
    const abandonedResult = inLine(abandoned.run, controller.signal);
    controller.abort(new Error('the client went away'));
    await expect(abandonedResult).rejects.toThrow('the client went away');
    // Its place in the line is free again, though the running task still runs.
    const nextResult = inLine(next.run);
    running.finish();
    await settle();
    next.finish();
    expect([await runningResult, await nextResult]).toEqual(['running', 'next']);
    expect(started).toEqual(['running', 'next']);
  });

  test('never queues a task whose signal has aborted already', async () => {
    const started: string[] = [];
    const inLine = limitConcurrency(1, 0);
    const late = manualTask(started, 'late');
    await expect(inLine(late.run, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    const next = manualTask(started, 'next');
    const nextResult = inLine(next.run);
    next.finish();
    expect(await nextResult).toBe('next');
    expect(started).toEqual(['next']);
  });
});
