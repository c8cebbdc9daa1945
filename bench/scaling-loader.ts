/**
 * One loader of bench:scaling, in a process of its own so that making the bodies never shares an event loop
 * with another loader or the bench: posts batches `first`, `first + step`, ... below `end` of the plan to
 * one server's POST /admin/calls, one request at a time as the command-line tool does, once the bench says
 * go; reports each batch taken (records, milliseconds, 503 answers before it was) and stops after the batch
 * in flight when told to. A batch answered 503 (the database did not answer within DEPENDENCY_TIMEOUT_SECONDS)
 * is sent again after a second, as the command-line tool sends one answered 429: an import is idempotent, so
 * the calls of the first attempt that went in come back as duplicates.
 */
import { announce } from './processes';
import { batchBody, type ScalingPlan } from './scaling-records';

export interface LoaderTask {
  readonly url: string;
  readonly token: string;
  readonly plan: ScalingPlan;
  readonly first: number;
  readonly step: number;
  readonly end: number;
}

export type LoaderMessage = { readonly batch: number; readonly records: number; readonly ms: number; readonly unavailable: number } | { readonly done: true };

const send = (message: LoaderMessage) => process.send?.(message);

const MOST_ATTEMPTS = 20;

async function post(task: LoaderTask, batch: number): Promise<void> {
  const { body, records } = batchBody(task.plan, batch);
  const began = performance.now();
  for (let unavailable = 0; unavailable < MOST_ATTEMPTS; unavailable += 1) {
    const response = await fetch(`${task.url}/admin/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${task.token}`, 'content-type': 'application/x-ndjson' },
      body,
      signal: AbortSignal.timeout(300_000),
    });
    const answer = (await response.json()) as { inserted?: number; duplicates?: number };
    if (response.status === 200 && (answer.inserted ?? 0) + (answer.duplicates ?? 0) === records) {
      send({ batch, records, ms: performance.now() - began, unavailable });
      return;
    }
    if (response.status !== 503) throw new Error(`batch ${batch}: ${response.status} ${JSON.stringify(answer).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`batch ${batch}: answered 503 ${MOST_ATTEMPTS} times`);
}

async function run(task: LoaderTask): Promise<void> {
  let stopping = false;
  process.on('message', (message) => {
    if (message === 'stop') stopping = true;
  });
  for (let batch = task.first; batch < task.end && !stopping; batch += task.step) await post(task, batch);
  send({ done: true });
}

process.once('message', (message) => {
  run(message as LoaderTask).catch((error: unknown) => {
    process.stderr.write(`bench/scaling-loader: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
});
announce({ ready: true });
