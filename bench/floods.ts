/**
 * Floods a survey builder's code or a caller can aim at the server, each against the built server in a
 * process of its own (`node dist/main.js`), for FLOOD_SECONDS (600 unless set): the largest resident set
 * the process reached, /healthz's latency probed every 100 ms meanwhile (p50, p99, max), how each flood
 * request was answered, and once the flood ends, how long a normal call takes. docs/security.md states
 * what these floods showed; `npm run bench:floods` runs them again (FLOODS=name,... picks some). To see
 * why: FLOOD_NODE_ARGS (e.g. --trace-gc) go to the server's Node, FLOOD_SERVER_OUTPUT names a file for its output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 600);
const CONNECTIONS = 40;
const TEN_MIB = 10 * 1024 * 1024;

interface Flood {
  readonly name: string;
  readonly what: string;
  readonly env: Readonly<Record<string, string>>;
  /** The body of each flood request to the REST twin, made once. */
  readonly body: () => URLSearchParams;
  /** A call that is answered quickly when the flood has left nothing behind. */
  readonly normal: URLSearchParams;
}

const page = (...answers: string[]): URLSearchParams => {
  const form = new URLSearchParams();
  for (const answer of answers) {
    form.append('question_texts[]', 'Q');
    form.append('answers[]', answer);
  }
  return form;
};

function floods(folder: string): Flood[] {
  const rules = path.join(folder, 'rules.yaml');
  const patterns = Array.from({ length: 8 }, (_unused, index) => `  - when: { any_answer: { matches: "a{0,1000}[^a]{2}${'x'.repeat(index)}" } }\n    answer: hit${index}\n`);
  writeFileSync(rules, `rules:\n${patterns.join('')}otherwise: miss\n`);
  const handler = path.join(folder, 'handler.js');
  writeFileSync(
    handler,
    "module.exports = (call) => call.answers[0] === 'response' ? { response: 'x'.repeat(500 * 1024 * 1024), state: null }\n" +
      "  : call.answers[0] === 'state' ? { response: 'ok', state: { kept: 'x'.repeat(300 * 1024 * 1024) } } : { response: 'normal', state: null };\n",
  );
  const worker = { SURVEY_HANDLER: handler, SURVEY_HANDLER_ISOLATION: 'worker' };
  return [
    { name: 'patterns', what: '10 MiB answers against 8 slow patterns of a rules file', env: { SURVEY_HANDLER: rules }, body: () => page('ab'.repeat(TEN_MIB / 2 - 1024)), normal: page('normal') },
    { name: 'response', what: 'a worker handler returning 500 MiB', env: worker, body: () => page('response'), normal: page('normal') },
    { name: 'state', what: 'a worker handler keeping 300 MiB of state', env: worker, body: () => page('state'), normal: page('normal') },
  ];
}

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
}

async function startServer(env: Readonly<Record<string, string>>): Promise<Server> {
  // The server on core 0, this process (the load, pinned by `npm run bench:floods`) on core 1.
  const nodeArgs = process.env.FLOOD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn('taskset', ['-c', '0', process.execPath, ...nodeArgs, 'dist/main.js'], {
    // No demo data: its load would be in the event loop's figures, and the floods touch none of it.
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', SURVEY_RATE_LIMIT: '1000000000', DEMO_DATA: 'false', ...env },
    stdio: ['ignore', process.env.FLOOD_SERVER_OUTPUT === undefined ? 'ignore' : openSync(process.env.FLOOD_SERVER_OUTPUT, 'w'), 'pipe'],
  });
  // The banner, on standard error, names the address.
  const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
  for await (const line of lines) {
    const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
    if (url !== undefined) {
      lines.on('line', () => {});
      return { url, child };
    }
  }
  throw new Error('the server exited before it listened');
}

function residentBytes(pid: number): number {
  const kilobytes = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kilobytes) * 1024;
}

// /healthz every 100 ms until the deadline; sends the latencies, in milliseconds, and the p99 of the
// probe thread's own event-loop delay: a probe late on its own side would be no figure of the server's.
const PROBE = `
const { parentPort, workerData: { url, deadline } } = require('node:worker_threads');
const { monitorEventLoopDelay } = require('node:perf_hooks');
(async () => {
  const probes = [];
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  while (Date.now() < deadline) {
    const started = performance.now();
    await fetch(url).then((reply) => reply.arrayBuffer(), () => undefined);
    probes.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  delay.disable();
  parentPort.postMessage({ probes, ownDelayP99: delay.percentile(99) / 1e6 });
})();
`;

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function run(flood: Flood): Promise<string> {
  const server = await startServer(flood.env);
  const pid = server.child.pid as number;
  const deadline = Date.now() + SECONDS * 1000;
  const answers = new Map<string, number>();
  const body = Buffer.from(flood.body().toString());
  const attack = async () => {
    while (Date.now() < deadline) {
      const reply = await fetch(`${server.url}/survey/rest`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }).catch((error: Error) => error);
      const key = reply instanceof Error ? `error ${reply.message}` : `${reply.status} ${reply.headers.get('x-error-code') ?? ''}`.trim();
      if (!(reply instanceof Error)) await reply.arrayBuffer();
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
  };
  let maxResident = residentBytes(pid);
  const sampler = setInterval(() => {
    maxResident = Math.max(maxResident, residentBytes(pid));
  }, 100);
  // The probe on a thread of its own: this thread's event loop, busy sending the flood, would delay its answers.
  const prober = new Worker(PROBE, { eval: true, workerData: { url: `${server.url}/healthz`, deadline } });
  const probed = once(prober, 'message') as Promise<[{ probes: number[]; ownDelayP99: number }]>;
  const loadCpuBefore = process.cpuUsage();
  const loadStarted = performance.now();
  const exited = new Promise<string>((resolve) => server.child.once('exit', (code, signal) => resolve(`the server exited (${signal ?? code})`)));
  const outcome = await Promise.race([Promise.all(Array.from({ length: CONNECTIONS }, attack)).then(() => 'ran'), exited]);
  clearInterval(sampler);
  // This process, on core 1: under a whole core, the load was not what limited the flood.
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const loadShare = (loadCpu.user + loadCpu.system) / 1000 / (performance.now() - loadStarted);
  const [{ probes, ownDelayP99 }] = outcome === 'ran' ? await probed : [{ probes: [], ownDelayP99: NaN }];
  await prober.terminate();
  let after = 'not asked';
  let loop = 'not asked';
  if (outcome === 'ran') {
    const started = performance.now();
    const reply = await fetch(`${server.url}/survey/rest`, { method: 'POST', body: flood.normal });
    after = `${reply.status} ${await reply.text()} in ${(performance.now() - started).toFixed(0)} ms`;
    // The server's own view of its event loop (prom-client's, since the start): a probe's latency also has the network and this process in it.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const lag = (name: string) => Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(metrics)?.[1]) * 1000;
    const megabytes = (name: string) => (Number(new RegExp(`^${name} (\\S+)`, 'm').exec(metrics)?.[1]) / 1e6).toFixed(0);
    loop =
      `the server's event loop delay p99 ${lag('p99').toFixed(1)} ms, max ${lag('max').toFixed(1)} ms; after the flood its main thread's heap ` +
      `${megabytes('nodejs_heap_size_total_bytes')} MB, external ${megabytes('nodejs_external_memory_bytes')} MB, resident ${megabytes('process_resident_memory_bytes')} MB`;
    server.child.kill();
  }
  const sorted = [...probes].sort((a, b) => a - b);
  const answered = [...answers].map(([key, count]) => `${count} x ${key}`).join(', ');
  return [
    `${flood.name}: ${flood.what}, ${CONNECTIONS} connections for ${SECONDS} s on Node ${process.version}: ${outcome}`,
    `  largest resident set ${(maxResident / 1e6).toFixed(0)} MB; /healthz p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${quantile(sorted, 1).toFixed(1)} ms (${sorted.length} probes)`,
    `  flood answered: ${answered}`,
    `  the load (this process, core 1): ${(loadShare * 100).toFixed(0)}% of a core; the probe thread's own event-loop delay p99 ${ownDelayP99.toFixed(1)} ms`,
    `  ${loop}`,
    `  a normal call after the flood: ${after}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-floods-'));
  try {
    const chosen = process.env.FLOODS?.split(',');
    for (const flood of floods(folder).filter(({ name }) => chosen === undefined || chosen.includes(name))) process.stdout.write(`${await run(flood)}\n`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

void main();
