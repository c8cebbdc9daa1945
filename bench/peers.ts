/**
 * npm run bench:peers: this server against the mock servers an API client's author would run instead,
 * Stoplight Prism and Mockoon's CLI (bench/peer-programs.ts), started from this server's own
 * /openapi.json: requests per second and p99 of the 8-day report of one number (this server answering
 * from its data, over a kept report; theirs from the document's examples) and of POST /api/auth (this
 * server checking the password by scrypt once, then by the remembered login's HMAC, AUTH_CACHE_SECONDS's
 * default; theirs sending the example), median of alternating rounds.
 * The app (logging at LOG_LEVEL=info into a file), each peer (its log, at its default level, into a file)
 * and the generator's ceiling each run in a process of their own pinned to core 0, wrk on core 1
 * (bench/wrk.ts, bench/load.ts). A peer that cannot run, or answers a request otherwise than 2xx, leaves
 * that figure not measured, and says why.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { answersFile, bodyBytes, captureAnswer, type Answer } from './answers';
import { alternateRounds, checkGenerator, checkLine, type GeneratorCheck, type Measured } from './load';
import { cannotRun, peerName, peerNode, PEERS, startPeer, type Peer, type PeerServer } from './peer-programs';
import type { PeerApp } from './peer-servers';
import { logFilePath, logWritten, startServerProcess } from './processes';
import { compare, median, type Comparison } from './rounds';
import { AUTH_BODY, DATA_PATH } from './scenario-servers';
import { AUTH_CONNECTIONS } from './scenarios';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';
import { ensureLoadTools, prepareLoad, SERVER_CORE, type LoadTarget, type WrkResult } from './wrk';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

export const REQUESTS = ['report', 'auth'] as const;
export type PeerRequest = (typeof REQUESTS)[number];

/** This server against one peer on one request. */
export interface Versus {
  /** Requests per second: this server's (measured) against the peer's (baseline). */
  readonly rate: Comparison;
  /** Median of the rounds' p99 latency, in milliseconds. */
  readonly p99Ms: { readonly app: number; readonly peer: number };
  readonly peerBytes: number;
}

export type VersusOrWhy = Versus | { readonly notMeasured: string };

export interface PeerFigures {
  readonly calls: number;
  /** The peers' package and version, e.g. "@stoplight/prism-cli 5.16.0". */
  readonly names: Readonly<Record<Peer, string>>;
  /** `node --version` of the binary the peers ran on. */
  readonly peerNode: string;
  readonly appBytes: Readonly<Record<PeerRequest, number>>;
  readonly versus: Readonly<Record<PeerRequest, Readonly<Record<Peer, VersusOrWhy>>>>;
  readonly checks: readonly GeneratorCheck[];
  readonly leftOut: readonly string[];
}

/** The server's own OpenAPI document, as it serves it, in a file of its own (removed when this process exits). */
async function documentFile(appUrl: string): Promise<string> {
  const response = await fetch(`${appUrl}/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-bench-peers-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  const file = path.join(folder, 'openapi.json');
  writeFileSync(file, await response.text());
  return file;
}

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function measurePeers(log: Log): Promise<PeerFigures> {
  await ensureLoadTools(log);
  const appLog = logFilePath('peers-app');
  const app = await startServerProcess<PeerApp>('bench/peer-servers.ts', { core: SERVER_CORE, logFile: appLog });
  const stopping: { stop(): Promise<void> }[] = [app];
  try {
    const requests: Record<PeerRequest, (url: string) => LoadTarget> = {
      report: (url) => ({ url: url + DATA_PATH, headers: { authorization: app.info.authorization } }),
      auth: (url) => ({ url: `${url}/api/auth`, headers: FORM, body: AUTH_BODY }),
    };
    const capture = (request: PeerRequest, url: string) => {
      const target = requests[request](url);
      return captureAnswer(target.url, target);
    };
    const appAnswers = { report: await capture('report', app.info.url), auth: await capture('auth', app.info.url) };
    const document = await documentFile(app.info.url);
    const node = peerNode();
    const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const peers: Partial<Record<Peer, { server: PeerServer; log: string }>> = {};
    const notMeasured: Record<PeerRequest, Partial<Record<Peer, string>>> = { report: {}, auth: {} };
    const peerAnswers: Record<PeerRequest, Partial<Record<Peer, Answer>>> = { report: {}, auth: {} };
    for (const peer of PEERS) {
      const reason = await cannotRun(peer, node);
      const peerLog = logFilePath(`peers-${peer.toLowerCase()}`);
      const server = reason === undefined ? await startPeer(peer, node, document, SERVER_CORE, peerLog).catch((error: unknown) => `did not start: ${why(error)}`) : reason;
      if (typeof server === 'string') {
        log(`${peer}: ${server}`);
        for (const request of REQUESTS) notMeasured[request][peer] = server;
        continue;
      }
      stopping.push(server);
      peers[peer] = { server, log: peerLog };
      for (const request of REQUESTS) {
        try {
          peerAnswers[request][peer] = await capture(request, server.url);
        } catch (error) {
          notMeasured[request][peer] = `${peerName(peer)} ${why(error)}`;
          log(`${peer}, ${request}: ${notMeasured[request][peer]}`);
        }
      }
    }
    const ceiling = await startServerProcess<{ url: string }>('bench/ceiling-server.ts', { args: [answersFile([appAnswers.report, appAnswers.auth])], core: SERVER_CORE });
    stopping.push(ceiling);
    const connections: Record<PeerRequest, number> = { report: settings.connections, auth: AUTH_CONNECTIONS };
    const measured = (request: PeerRequest, url: string): Measured => ({ load: prepareLoad(requests[request](url), connections[request]) });
    const targets: Record<string, Measured> = {};
    for (const request of REQUESTS) {
      targets[`${request}, this server`] = measured(request, app.info.url);
      for (const peer of PEERS) {
        const server = peers[peer]?.server;
        if (server !== undefined && notMeasured[request][peer] === undefined) targets[`${request}, ${peer}`] = measured(request, server.url);
      }
      targets[`${request}, ceiling`] = measured(request, ceiling.info.url);
    }
    const { results, rates, leftOut } = await alternateRounds(targets, log);
    log(logWritten(appLog));
    for (const { log: peerLog } of Object.values(peers)) log(logWritten(peerLog));
    const p99 = (name: string) => median((results[name] as readonly WrkResult[]).map((result) => result.latencyMs.p99));
    const versus = (request: PeerRequest, peer: Peer): VersusOrWhy => {
      const reason = notMeasured[request][peer];
      if (reason !== undefined) return { notMeasured: reason };
      const [appTarget, peerTarget] = [`${request}, this server`, `${request}, ${peer}`];
      return {
        rate: compare(rates[appTarget] as number[], rates[peerTarget] as number[]),
        p99Ms: { app: p99(appTarget), peer: p99(peerTarget) },
        peerBytes: bodyBytes(peerAnswers[request][peer] as Answer),
      };
    };
    const servers = (request: PeerRequest) =>
      Object.fromEntries(Object.entries(rates).filter(([name]) => name.startsWith(`${request}, `) && !name.endsWith(', ceiling')));
    return {
      calls: app.info.calls,
      names: Object.fromEntries(PEERS.map((peer) => [peer, peerName(peer)])) as Record<Peer, string>,
      peerNode: nodeVersion,
      appBytes: { report: bodyBytes(appAnswers.report), auth: bodyBytes(appAnswers.auth) },
      versus: Object.fromEntries(REQUESTS.map((request) => [request, Object.fromEntries(PEERS.map((peer) => [peer, versus(request, peer)]))])) as PeerFigures['versus'],
      checks: [
        checkGenerator(`peers, 8 days one number (${bodyBytes(appAnswers.report)} B)`, rates['report, ceiling'] as number[], servers('report')),
        checkGenerator(`peers, POST /api/auth (${bodyBytes(appAnswers.auth)} B)`, rates['auth, ceiling'] as number[], servers('auth')),
      ],
      leftOut,
    };
  } finally {
    for (const server of stopping) await server.stop();
  }
}

export const REQUEST_NAMES: Readonly<Record<PeerRequest, string>> = { report: '8-day report, one number', auth: 'POST /api/auth' };

function summary(figures: PeerFigures): string[] {
  const line = (request: PeerRequest, peer: Peer) => {
    const figure = figures.versus[request][peer];
    if ('notMeasured' in figure) return `  vs ${peer}: not measured: ${figure.notMeasured}`;
    const { rate, p99Ms, peerBytes } = figure;
    return (
      `  vs ${peer} (${peerBytes} B): this server ${rate.measured.toFixed(0)} req/s (p99 ${p99Ms.app.toFixed(1)} ms), ${peer} ` +
      `${rate.baseline.toFixed(0)} req/s (p99 ${p99Ms.peer.toFixed(1)} ms): ${rate.ratio.toFixed(2)} ${rate.ratio > 1 ? '(ahead)' : '(NOT ahead)'}`
    );
  };
  return [
    `${settings.runs} rounds of ${settings.seconds}s per target, wrk -t1 on core 1 (-c${settings.connections} report, -c${AUTH_CONNECTIONS} auth), servers on core 0, medians;`,
    `peers: ${PEERS.map((peer) => figures.names[peer]).join(', ')} on Node.js ${figures.peerNode}; this server over ${figures.calls} calls:`,
    ...REQUESTS.flatMap((request) => [`${REQUEST_NAMES[request]} (this server's answer ${figures.appBytes[request]} B):`, ...PEERS.map((peer) => line(request, peer))]),
    ...figures.checks.map(checkLine),
    ...figures.leftOut.map((round) => `left out: ${round}`),
  ];
}

if (require.main === module) runStandalone('bench:peers', async (log) => summary(await measurePeers(log)));
