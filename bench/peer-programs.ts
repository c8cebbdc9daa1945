/**
 * The peers an API client's author would run instead of this server: Stoplight Prism and Mockoon's CLI,
 * pinned by bench/peers' lock and installed there (npm ci --prefix bench/peers), not among the server's
 * devDependencies, whose install would warn on the Node.js 20 the server supports. Each is started from
 * this server's own OpenAPI document so as to answer from its examples, in a process of its own
 * (bench/processes.ts's startNodeProgram) on a Node.js binary of their own: Prism needs a newer one than
 * the bench may run on.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startNodeProgram, type ServerProcess } from './processes';

export const PEERS = ['Prism', 'Mockoon'] as const;
export type Peer = (typeof PEERS)[number];

const PACKAGES: Readonly<Record<Peer, string>> = { Prism: '@stoplight/prism-cli', Mockoon: '@mockoon/cli' };

/** .ci/run's Node.js 24 (npm ci --prefix .ci/node24), the runtime of record. */
const CI_NODE = path.join('.ci', 'node24', 'node_modules', 'node', 'bin', 'node');

/**
 * The Node.js binary the peers run on: BENCH_PEER_NODE, else .ci/run's Node.js 24 when installed, else
 * this process's.
 */
export function peerNode(): string {
  const named = process.env.BENCH_PEER_NODE;
  if (named !== undefined && named !== '') return named;
  return existsSync(CI_NODE) ? path.resolve(CI_NODE) : process.execPath;
}

interface CliPackage {
  readonly version: string;
  readonly entry: string;
  /** The lowest Node.js version its `engines` allows, as [major, minor, patch]. */
  readonly lowestNode: readonly number[] | undefined;
}

/** Resolves the peers' packages from bench/peers/node_modules. */
const requireFromPeers = createRequire(path.join(__dirname, 'peers', 'package.json'));

function cliPackage(peer: Peer): CliPackage {
  const manifest = requireFromPeers.resolve(`${PACKAGES[peer]}/package.json`);
  const { version, bin, engines } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; bin: Record<string, string>; engines?: { node?: string } };
  const lowest = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(engines?.node?.trim() ?? '')?.[1];
  return { version, entry: path.join(path.dirname(manifest), Object.values(bin)[0] as string), lowestNode: lowest?.split('.').map(Number) };
}

/** "@stoplight/prism-cli 5.16.0", as the report names a peer. */
export const peerName = (peer: Peer) => `${PACKAGES[peer]} ${cliPackage(peer).version}`;

const versionParts = (version: string) => version.replace(/^v/, '').split('.').map(Number);

function below(version: readonly number[], lowest: readonly number[]): boolean {
  for (let index = 0; index < lowest.length; index += 1) {
    const [have, need] = [version[index] ?? 0, lowest[index] ?? 0];
    if (have !== need) return have < need;
  }
  return false;
}

const run = promisify(execFile);

/** Why `node` cannot run the peer's CLI (its `engines`), or undefined when it can. */
export async function cannotRun(peer: Peer, node: string): Promise<string | undefined> {
  const { lowestNode } = cliPackage(peer);
  const version = (await run(node, ['--version'])).stdout.trim();
  if (lowestNode === undefined || !below(versionParts(version), lowestNode)) return undefined;
  return `${peerName(peer)} needs Node.js >= ${lowestNode.join('.')}, and ${node} is ${version} (set BENCH_PEER_NODE, or npm ci --prefix .ci/node24)`;
}

/** A port free on 127.0.0.1 now, for a CLI that takes its port as an option. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PeerServer extends ServerProcess<undefined> {
  readonly url: string;
}

interface MediaType {
  readonly examples?: Readonly<Record<string, unknown>>;
}
interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, { readonly responses?: Readonly<Record<string, { readonly content?: Readonly<Record<string, MediaType>> }>> }>>>>;
}
interface MockoonResponse {
  statusCode: number;
  label: string;
  default: boolean;
  disableTemplating: boolean;
}
interface MockoonEnvironment {
  readonly routes: readonly { readonly method: string; readonly endpoint: string; readonly responses: MockoonResponse[] }[];
}

/**
 * Mockoon's import of the document (what `mockoon-cli start --data <document>` runs too) makes each
 * route's default response a body generated from the schema through Faker templates, its examples other
 * responses named after them: here the first example of the route's first 2xx answer is made the default,
 * with templating off, so that Mockoon answers from the examples as Prism does.
 */
export function answerFromExamples(environment: MockoonEnvironment, document: OpenApiDocument): MockoonEnvironment {
  for (const route of environment.routes) {
    const documentPath = Object.keys(document.paths).find((pathName) => pathName.replace(/^\//, '').replace(/\{(\w+)\}/g, ':$1') === route.endpoint);
    const responses = documentPath === undefined ? undefined : document.paths[documentPath]?.[route.method]?.responses;
    const [status, example] =
      Object.entries(responses ?? {})
        .filter(([code]) => /^2\d\d$/.test(code))
        .map(([code, response]) => [Number(code), Object.keys(response.content?.['application/json']?.examples ?? {})[0]] as const)
        .find(([, name]) => name !== undefined) ?? [];
    const chosen = route.responses.find((response) => response.statusCode === status && response.label === example);
    if (chosen === undefined) continue;
    for (const response of route.responses) response.default = response === chosen;
    chosen.disableTemplating = true;
  }
  return environment;
}

/** Prism's mock server of `documentFile`, static (its default: examples, not generated answers). */
async function startPrism(node: string, documentFile: string, core: number, logFile: string): Promise<PeerServer> {
  const port = await freePort();
  const server = await startNodeProgram(node, cliPackage('Prism').entry, ['mock', documentFile, '-h', '127.0.0.1', '-p', String(port)], {
    core,
    logFile,
    ready: /Prism is listening on/,
  });
  return { ...server, url: `http://127.0.0.1:${port}` };
}

/** Mockoon's mock server of `documentFile`, answering from its examples (answerFromExamples). */
async function startMockoon(node: string, documentFile: string, core: number, logFile: string): Promise<PeerServer> {
  const { entry } = cliPackage('Mockoon');
  const environmentFile = documentFile.replace(/\.json$/, '') + '.mockoon.json';
  await run(node, [entry, 'import', '-i', documentFile, '-o', environmentFile, '--disable-external-refs']);
  const environment = JSON.parse(readFileSync(environmentFile, 'utf8')) as MockoonEnvironment;
  writeFileSync(environmentFile, JSON.stringify(answerFromExamples(environment, JSON.parse(readFileSync(documentFile, 'utf8')) as OpenApiDocument)));
  const port = await freePort();
  const args = ['start', '-d', environmentFile, '-l', '127.0.0.1', '-p', String(port), '--disable-log-to-file', '--disable-admin-api', '--disable-external-refs'];
  const server = await startNodeProgram(node, entry, args, { core, logFile, ready: /Server started on port/ });
  return { ...server, url: `http://127.0.0.1:${port}` };
}

/** The peer's mock server of the OpenAPI document in `documentFile`, on `core`, its log into `logFile`. */
export function startPeer(peer: Peer, node: string, documentFile: string, core: number, logFile: string): Promise<PeerServer> {
  return (peer === 'Prism' ? startPrism : startMockoon)(node, documentFile, core, logFile);
}
