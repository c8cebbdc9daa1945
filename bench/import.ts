/**
 * npm run bench:import: 1,000,000 call records made by the demo
 * generator, written to a temporary NDJSON file, imported through the command-line tool into a server
 * process, as an operator would. Prints
 * records per second (the whole `ivr-reporting import` run, start-up included) and the peak resident
 * memory of the server (VmHWM) and of the tool (largest VmHWM sampled). Linux only (/proc); bounded by
 * BENCH_TIMEOUT_SECONDS (default 600), after which everything it started is killed. STORE, DATABASE_URL
 * and REDIS_URL are passed to the server, so `STORE=postgres DATABASE_URL=... npm run bench:import`
 * measures ingest into PostgreSQL (use an empty database). Then times event queries over what was
 * imported, sends the file once more as one streamed request body to show the server reads it in
 * bounded memory, and posts a gzip bomb to the survey web service for the same reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { constants, createGzip } from 'node:zlib';
import { generateDemoCalls } from '../src/startup-data/demo/calls';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 600);
const TOKEN = 'bench-admin-token-0123456789';
const TIME_ZONE = 'America/New_York';
const PHONES = Array.from({ length: 20 }, (_, index) => String(18_005_550_200 + index));
/** The package's bin, compiled JavaScript as users run it (`npm run build` first after a change). */
const CLI = ['bin/ivr-reporting.mjs'];
const ROOT = path.resolve(__dirname, '..');
const children: ChildProcess[] = [];

/** 20 numbers over 400 days make about 1.2 million calls; the first RECORDS are kept. */
async function writeRecords(file: string): Promise<void> {
  const out = createWriteStream(file);
  let written = 0;
  for (const call of generateDemoCalls({ phones: PHONES, days: 400, callsPerDay: 200, seed: 7, timeZone: TIME_ZONE, now: Date.now() })) {
    if (!out.write(`${JSON.stringify(call)}\n`)) await once(out, 'drain');
    written += 1;
    if (written === RECORDS) break;
  }
  out.end();
  await once(out, 'finish');
  if (written < RECORDS) throw new Error(`the generator made only ${written} records`);
}

async function kibibytes(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
}

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...CLI, 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      ADMIN_TOKEN: TOKEN,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      STORE: process.env.STORE,
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let banner = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** Runs the tool; resolves with its exit code, its standard output and its largest sampled VmHWM. */
async function runCli(args: readonly string[], url: string): Promise<{ code: number | null; stdout: string; peakKiB: number }> {
  const child = spawn(process.execPath, [...CLI, ...args, '--url', url, '--token', TOKEN], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let peakKiB = 0;
  const sampler = setInterval(() => {
    kibibytes(child.pid as number, 'VmHWM').then(
      (kiB) => (peakKiB = Math.max(peakKiB, kiB)),
      () => undefined,
    );
  }, 100);
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(sampler);
  return { code, stdout, peakKiB };
}

/** Largest VmRSS of a process sampled every 100 ms while `work` runs. */
async function peakRssWhile<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakKiB: number }> {
  let peakKiB = await kibibytes(pid, 'VmRSS');
  const sampler = setInterval(() => {
    kibibytes(pid, 'VmRSS').then(
      (kiB) => (peakKiB = Math.max(peakKiB, kiB)),
      () => undefined,
    );
  }, 100);
  try {
    return { result: await work(), peakKiB };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The whole file once more as ONE request body, streamed as curl --data-binary would send it: every
 * record is a duplicate by now, so the store does not grow, and the server's memory shows what reading
 * a body of a million records costs.
 */
async function singleRequestImport(url: string, file: string, serverPid: number): Promise<string> {
  const rssBeforeKiB = await kibibytes(serverPid, 'VmRSS');
  const started = Date.now();
  const { result, peakKiB } = await peakRssWhile(serverPid, async () => {
    const response = await fetch(`${url}/admin/calls`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/x-ndjson' },
      body: Readable.toWeb(createReadStream(file)),
      duplex: 'half',
    });
    return { status: response.status, body: await response.text() };
  });
  const seconds = (Date.now() - started) / 1000;
  if (result.status !== 200) throw new Error(`POST /admin/calls answered ${result.status}: ${result.body.slice(0, 200)}`);
  return (
    `the same ${RECORDS.toLocaleString('en-US')} records again in one request body: ${seconds.toFixed(1)} s, ${result.body}; ` +
    `server resident memory ${mib(rssBeforeKiB)} before, peak ${mib(peakKiB)} while reading it`
  );
}

/**
 * A gzip bomb posted to the survey web service: an envelope of 256 MiB of spaces in a few hundred KiB.
 * The server inflates no more than SOAP_MAX_BYTES of it before answering 413, so its memory stays flat.
 */
async function gzipBombMemory(url: string, serverPid: number): Promise<string> {
  const spaces = Buffer.alloc(1024 * 1024, ' ');
  const start = Buffer.from('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>');
  const bomb = await buffer(
    Readable.from([start, ...Array.from({ length: 256 }, () => spaces)]).pipe(createGzip({ level: constants.Z_BEST_COMPRESSION })),
  );
  const rssBeforeKiB = await kibibytes(serverPid, 'VmRSS');
  const { result, peakKiB } = await peakRssWhile(serverPid, async () => {
    const response = await fetch(`${url}/survey`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Encoding': 'gzip', SOAPAction: '"urn:SampleWebserviceAction"' },
      body: bomb,
    });
    await response.arrayBuffer();
    return response.status;
  });
  return (
    `a gzip bomb of ${Math.round(bomb.length / 1024)} KiB inflating to 256 MiB of an envelope, posted to /survey: HTTP ${result}; ` +
    `server resident memory ${mib(rssBeforeKiB)} before, peak ${mib(peakKiB)} while refusing it`
  );
}

const QUERY_RUNS = 21;

/** Median wall time of an event query over the whole imported history, by day and by month, all numbers merged. */
async function eventQueryLatency(url: string): Promise<string> {
  const auth = await fetch(`${url}/api/auth`, {
    method: 'POST',
    body: new URLSearchParams({ tool: 'dev', login: 'bench', password: 'bench password' }),
  });
  const { login, password } = (await auth.json()) as { login: string; password: string };
  const headers = { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
  const end = new Date();
  const start = new Date(end.getTime() - 400 * 86_400_000);
  const stamp = (date: Date) => date.toISOString().slice(0, 10).replaceAll('-', '');
  const results: string[] = [];
  for (const period of ['day', 'month']) {
    const times: number[] = [];
    for (let run = 0; run < QUERY_RUNS; run += 1) {
      const began = performance.now();
      const response = await fetch(`${url}/api/events/${stamp(start)}/${stamp(end)}/${period}/ALL`, { headers });
      await response.text();
      if (response.status !== 200) throw new Error(`event query answered ${response.status}`);
      times.push(performance.now() - began);
    }
    times.sort((a, b) => a - b);
    results.push(`${period}: ${(times[Math.floor(times.length / 2)] as number).toFixed(1)} ms`);
  }
  return `event query over 400 days, 20 numbers merged, median of ${QUERY_RUNS}: ${results.join(', ')}`;
}

const mib = (kiB: number) => `${(kiB / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-bench-import-'));
  const timeout = setTimeout(() => {
    process.stderr.write(`bench:import: still running after ${TIMEOUT_SECONDS} s; stopping\n`);
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  }, TIMEOUT_SECONDS * 1000);
  try {
    const file = path.join(folder, 'calls.ndjson');
    let started = Date.now();
    await writeRecords(file);
    process.stdout.write(`generated ${RECORDS.toLocaleString('en-US')} records in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const server = await startServer();
    const serverPid = server.child.pid as number;
    await runCli(['accounts', 'add', 'dev', 'bench', '--password', 'bench password', '--timezone', TIME_ZONE], server.url);
    await runCli(['phones', 'add', 'dev', 'bench', ...PHONES], server.url);
    const rssBeforeKiB = await kibibytes(serverPid, 'VmRSS');

    started = Date.now();
    const imported = await runCli(['import', file], server.url);
    const seconds = (Date.now() - started) / 1000;
    if (imported.code !== 0) throw new Error(`import exited with ${imported.code}: ${imported.stdout}`);

    const lines = [
      imported.stdout.trim(),
      `import through the CLI: ${RECORDS.toLocaleString('en-US')} records in ${seconds.toFixed(1)} s = ${Math.round(RECORDS / seconds).toLocaleString('en-US')} records/s`,
      `server resident memory: ${mib(rssBeforeKiB)} before the import (demo data loaded), ` +
        `${mib(await kibibytes(serverPid, 'VmRSS'))} after, peak ${mib(await kibibytes(serverPid, 'VmHWM'))} (VmHWM)`,
      `command-line tool peak resident memory: ${mib(imported.peakKiB)}`,
      await eventQueryLatency(server.url),
      await singleRequestImport(server.url, file, serverPid),
      await gzipBombMemory(server.url, serverPid),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    clearTimeout(timeout);
    for (const child of children) child.kill();
    await rm(folder, { recursive: true, force: true });
  }
}

void main();
