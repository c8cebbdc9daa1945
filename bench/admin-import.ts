/**
 * npm run bench:admin-import: call records imported through the admin API into a memory store, as the
 * command-line tool sends them (POST /admin/calls, NDJSON, 5,000 records a request, one request at a
 * time), in records per second against a bare node:http server receiving the same bytes and parsing each
 * line (bench/bare-ndjson-server.ts). BENCH_IMPORT_RECORDS records of each version per round; each
 * round in a fresh server process with empty stores, its records under call ids of their own. In the same
 * rounds, version 2 into the app with each piece of its cost taken out in turn, then all of them, and with
 * a store that stores nothing (bench/import-pieces.ts), each over a store of its own; the version-2
 * targets (the app, the bare server and these) take turns batch by batch (rounds.ts, interleavedRates).
 */
import type { CallRecordInput } from '../src/domain/call-record';
import { generateDemoCalls } from '../src/startup-data/demo/calls';
import { HISTORY_END, TIME_ZONE, TWENTY_PHONES } from './bench-account';
import { V2_WITHOUT, type ImportServers } from './import-servers';
import { startServerProcess } from './processes';
import { compare, interleavedRates, piecesOut, type Comparison, type PieceOut } from './rounds';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';

export interface AdminImportFigures {
  readonly records: number;
  readonly batchRecords: number;
  /** Records per second into the app (measured) against the bare server (baseline). */
  readonly v1: Comparison;
  readonly v2: Comparison;
  /** Version 2 with each piece out (bench/import-pieces.ts), all four, the store. */
  readonly v2Without: Readonly<Record<(typeof V2_WITHOUT)[number], PieceOut>>;
  readonly v1BytesPerRecord: number;
  readonly v2BytesPerRecord: number;
}

const BATCH_RECORDS = 5_000;
const VERSION_1_FIELDS = ['call_id', 'phone', 'started_at', 'log_events', 'loops', 'form_items'] as const;
/** How every generated line starts; a round puts its tag after it so that its call ids are new. */
const ID_OPENING = '{"call_id":"';

interface Batch {
  readonly text: string;
  readonly records: number;
}

interface Bodies {
  readonly v1: readonly Batch[];
  readonly v2: readonly Batch[];
  /** One batch of each version to post before timing, so that compiled code is warm. */
  readonly warmUp: { readonly v1: Batch; readonly v2: Batch };
}

function asVersion1(wire: CallRecordInput): Record<string, unknown> {
  return Object.fromEntries(VERSION_1_FIELDS.map((field) => [field, wire[field]]));
}

/** The same generated calls as version-1 and as version-2 NDJSON batches. */
function makeBodies(records: number): Bodies {
  const total = records + BATCH_RECORDS;
  const days = Math.ceil(total / (TWENTY_PHONES.length * 50)) + 7;
  const wire = generateDemoCalls({ phones: TWENTY_PHONES, days, callsPerDay: 200, seed: 11, timeZone: TIME_ZONE, now: HISTORY_END })[Symbol.iterator]();
  const batches = { v1: [] as Batch[], v2: [] as Batch[] };
  for (let made = 0; made < total; made += BATCH_RECORDS) {
    const count = Math.min(BATCH_RECORDS, total - made);
    const lines = { v1: [] as string[], v2: [] as string[] };
    for (let index = 0; index < count; index += 1) {
      const next = wire.next();
      if (next.done === true) throw new Error(`the generator made fewer than ${total} records`);
      lines.v1.push(JSON.stringify(asVersion1(next.value)));
      lines.v2.push(JSON.stringify(next.value));
    }
    batches.v1.push({ text: `${lines.v1.join('\n')}\n`, records: count });
    batches.v2.push({ text: `${lines.v2.join('\n')}\n`, records: count });
  }
  const [warmUpV1, ...v1] = batches.v1;
  const [warmUpV2, ...v2] = batches.v2;
  return { v1, v2, warmUp: { v1: warmUpV1 as Batch, v2: warmUpV2 as Batch } };
}

function tagged(batch: Batch, tag: string): { body: Buffer; records: number } {
  return { body: Buffer.from(batch.text.replaceAll(ID_OPENING, `${ID_OPENING}${tag}-`)), records: batch.records };
}

/** Posts one batch; every record must be taken (inserted by the app, parsed by the baseline). */
async function post(url: string, token: string, { body, records: expected }: { body: Buffer; records: number }): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  const answer = (await response.json()) as { received?: number; inserted?: number; rejected?: unknown[] };
  const taken = answer.inserted ?? answer.received;
  if (response.status !== 200 || taken !== expected || (answer.rejected?.length ?? 0) > 0) {
    throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** Posts the batches one at a time. */
async function recordsPerSecond(url: string, token: string, batches: readonly { body: Buffer; records: number }[]): Promise<number> {
  const started = performance.now();
  for (const batch of batches) await post(url, token, batch);
  return batches.reduce((records, batch) => records + batch.records, 0) / ((performance.now() - started) / 1000);
}

export async function measureAdminImport(log: Log): Promise<AdminImportFigures> {
  const bodies = makeBodies(settings.importRecords);
  const samples = { v1: { app: [] as number[], baseline: [] as number[] }, v2: { app: [] as number[], baseline: [] as number[] } };
  const v2Without = Object.fromEntries(V2_WITHOUT.map((name) => [name, [] as number[]])) as Record<(typeof V2_WITHOUT)[number], number[]>;
  for (let round = 1; round <= settings.runs; round += 1) {
    const servers = await startServerProcess<ImportServers>('bench/import-servers.ts');
    try {
      const { info } = servers;
      const v1Targets = { baseline: info.baseline, app: info.v1 };
      for (const url of Object.values(v1Targets)) await recordsPerSecond(url, info.token, [tagged(bodies.warmUp.v1, `w${round}`)]);
      const v1Batches = bodies.v1.map((batch) => tagged(batch, `r${round}`));
      for (const name of round % 2 === 1 ? (['baseline', 'app'] as const) : (['app', 'baseline'] as const)) {
        samples.v1[name].push(await recordsPerSecond(v1Targets[name], info.token, v1Batches));
      }
      const v2Targets: Record<string, string> = { baseline: info.baseline, app: info.v2, ...info.v2Without };
      for (const url of Object.values(v2Targets)) await recordsPerSecond(url, info.token, [tagged(bodies.warmUp.v2, `w${round}`)]);
      const v2Batches = bodies.v2.map((batch) => tagged(batch, `r${round}`));
      const v2Rates = await interleavedRates(Object.keys(v2Targets), v2Batches.map((batch) => batch.records), round, (name, index) =>
        post(v2Targets[name] as string, info.token, v2Batches[index] as { body: Buffer; records: number }),
      );
      samples.v2.app.push(v2Rates.app as number);
      samples.v2.baseline.push(v2Rates.baseline as number);
      for (const name of V2_WITHOUT) v2Without[name].push(v2Rates[name] as number);
      log(
        `round ${round}/${settings.runs}: records/s v1 ${samples.v1.app.at(-1)?.toFixed(0)} (bare ${samples.v1.baseline.at(-1)?.toFixed(0)}), ` +
          `v2 ${samples.v2.app.at(-1)?.toFixed(0)} (bare ${samples.v2.baseline.at(-1)?.toFixed(0)}; ` +
          `${V2_WITHOUT.map((name) => `without ${name} ${v2Without[name].at(-1)?.toFixed(0)}`).join(', ')})`,
      );
    } finally {
      await servers.stop();
    }
  }
  const bytesPerRecord = (batches: readonly Batch[]) => batches.reduce((sum, batch) => sum + Buffer.byteLength(batch.text), 0) / settings.importRecords;
  return {
    records: settings.importRecords,
    batchRecords: BATCH_RECORDS,
    v1: compare(samples.v1.app, samples.v1.baseline),
    v2: compare(samples.v2.app, samples.v2.baseline),
    v2Without: piecesOut(samples.v2.app, samples.v2.baseline, v2Without),
    v1BytesPerRecord: bytesPerRecord(bodies.v1),
    v2BytesPerRecord: bytesPerRecord(bodies.v2),
  };
}

if (require.main === module) {
  runStandalone('bench:admin-import', async (log) => {
    const figures = await measureAdminImport(log);
    const line = (version: 'v1' | 'v2', bytes: number) =>
      `  version-${version.slice(1)} records (${bytes.toFixed(0)} B each): ${figures[version].measured.toFixed(0)} records/s, ` +
      `bare node:http parsing each line ${figures[version].baseline.toFixed(0)} records/s (${figures[version].ratio.toFixed(2)} of baseline)`;
    return [
      `POST /admin/calls into memory, ${figures.records} records per version and round, ${figures.batchRecords} a request, one at a time, medians of ${settings.runs} rounds:`,
      line('v1', figures.v1BytesPerRecord),
      `${line('v2', figures.v2BytesPerRecord)}`,
      ...Object.entries(figures.v2Without).map(
        ([name, { against, share }]) =>
          `    without ${name}: ${against.measured.toFixed(0)} records/s (${against.ratio.toFixed(2)} of baseline); the app with it: ${share.ratio.toFixed(2)} of the app without`,
      ),
    ];
  });
}
