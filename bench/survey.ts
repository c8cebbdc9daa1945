/**
 * npm run bench:survey (part of npm run bench): the survey web service.
 * 1. svcEval throughput as a ratio against a server built only from the soap package with the same
 *    WSDL, measured in the same run (measureSvcEval, also run by npm run bench): median of BENCH_RUNS
 *    alternating rounds of BENCH_SECONDS, wrk on core 1 against each server in a process of its own on
 *    core 0 (bench/wrk.ts, bench/load.ts), POSTing the envelope PHP's SoapClient sends for a two-question
 *    page with the session's cookie kept; the app logs at LOG_LEVEL=info into a file.
 * 2. How long large and hostile bodies hold the event loop: BIG_REQUESTS (default 5) of each, one after
 *    another (or that many batches sent at once: 20 large forms to the REST twin, 3 envelopes of 600,000
 *    items), while a reporting request is sent again and again; prints the server's longest event-loop
 *    delay (perf_hooks) and the reporting request's longest wait, against the same request alone.
 * 3. The memory of one survey session in the in-memory store (bench/survey-sessions.ts; goal <= 300 bytes).
 * Bounded: every request has a timeout, every phase a fixed number of requests.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { answersFile, bodyBytes, captureAnswer } from './answers';
import { alternateRounds, checkGenerator, checkLine, type GeneratorCheck } from './load';
import { childNode, logFilePath, logWritten, runJsonProcess, startServerProcess } from './processes';
import { compare, median, type Comparison } from './rounds';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';
import { ALL_SURVEY_PIECES, SURVEY_PIECES, type SurveyServer } from './survey-servers';
import { ensureLoadTools, prepareLoad, SERVER_CORE } from './wrk';

const BIG_REQUESTS = Number(process.env.BIG_REQUESTS ?? 5);
const REQUEST_TIMEOUT_MS = 60_000;

export const SOAP_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"urn:SampleWebserviceAction"' };
const ENVELOPE_START =
  '<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:ns1="urn:SampleWebservice" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><SOAP-ENV:Body>';
const ENVELOPE_END = '</SOAP-ENV:Body></SOAP-ENV:Envelope>\n';

function svcEval(questionTexts: readonly string[], answers: readonly string[]): string {
  const array = (part: string, items: readonly string[]) =>
    `<${part} SOAP-ENC:arrayType="xsd:string[${items.length}]" xsi:type="ns1:ArrayOfstring">` +
    items.map((item) => `<item xsi:type="xsd:string">${item}</item>`).join('') +
    `</${part}>`;
  return `${ENVELOPE_START}<ns1:svcEval>${array('question_texts', questionTexts)}${array('answers', answers)}</ns1:svcEval>${ENVELOPE_END}`;
}

/** A two-question page as PHP's SoapClient sends it. */
export const PAGE = svcEval(['Would you recommend us?', 'Your comments'], ['yes', 'Quick &amp; friendly']);

interface BigBody {
  readonly name: string;
  readonly body: Buffer;
  readonly headers: Record<string, string>;
  /** Sent to the REST twin rather than the SOAP service. */
  readonly rest?: true;
  /** Copies sent at once, each time (1 unless said). */
  readonly atOnce?: number;
}

/** A multipart form as fetch encodes it: its bytes and its Content-Type, boundary included. */
async function multipart(form: FormData): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), headers: { 'Content-Type': encoded.headers.get('content-type') as string } };
}

/** The bodies that must never hold other requests: large but legitimate, or built to be expensive. */
async function bigBodies(): Promise<BigBody[]> {
  const recording = randomBytes(7_300_000).toString('base64');
  const spaces = ' '.repeat(1024 * 1024);
  const answerForm = new FormData();
  answerForm.append('question_texts[]', 'Your comments');
  answerForm.append('answers[]', 'y'.repeat(9_900_000));
  const recordingForm = new FormData();
  recordingForm.append('question_texts[]', 'Record your message');
  recordingForm.append('answers[]', 'yes');
  recordingForm.append('recording', new Blob([randomBytes(9_900_000)]), 'message.wav');
  const items = '<item>a</item>'.repeat(350_000);
  return [
    { name: '20 forms at once, a 9.9 MB answer each (REST twin)', ...(await multipart(answerForm)), rest: true, atOnce: 20 },
    { name: '20 forms at once, a 9.9 MB recording each (REST twin)', ...(await multipart(recordingForm)), rest: true, atOnce: 20 },
    {
      name: '3 envelopes at once, 350,000 items per array (past SURVEY_MAX_ITEMS)',
      body: Buffer.from(`${ENVELOPE_START}<ns1:svcEval><question_texts>${items}</question_texts><answers>${items}</answers></ns1:svcEval>${ENVELOPE_END}`),
      headers: {},
      atOnce: 3,
    },
    { name: '10 MB envelope, one Base64 recording', body: Buffer.from(svcEval(['Record your message', 'Agree?'], [recording, 'yes'])), headers: {} },
    {
      name: 'gzip bomb, 256 MiB of spaces',
      body: gzipSync(Buffer.from(ENVELOPE_START + spaces.repeat(256)), { level: 9 }),
      headers: { 'Content-Encoding': 'gzip' },
    },
    { name: '10 MB of empty elements', body: Buffer.from(ENVELOPE_START + '<a/>'.repeat(2_500_000)), headers: {} },
    { name: '10 MB of one element\'s attributes', body: Buffer.from(`${ENVELOPE_START}<a ${Array.from({ length: 900_000 }, (_, i) => `a${i}=""`).join(' ')}/>`), headers: {} },
    { name: '10 MB of nesting', body: Buffer.from(ENVELOPE_START + '<a>'.repeat(3_400_000)), headers: {} },
  ];
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number }> {
  const began = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  await response.arrayBuffer();
  return { ms: performance.now() - began, status: response.status };
}

/**
 * Posts a body BIG_REQUESTS times, `atOnce` copies at a time, from a process of its own, so that sending
 * 10 MB does not delay the reporting requests timed here. Resolves with the statuses.
 */
async function postFromAnotherProcess(url: string, file: string, headers: Record<string, string>, atOnce: number): Promise<number[]> {
  const script = `
    const body = require('node:fs').readFileSync(process.argv[1]);
    const post = async () => {
      const response = await fetch(${JSON.stringify(url)}, { method: 'POST', headers: ${JSON.stringify(headers)}, body, signal: AbortSignal.timeout(${REQUEST_TIMEOUT_MS}) });
      await response.arrayBuffer();
      return response.status;
    };
    (async () => {
      const statuses = [];
      for (let i = 0; i < ${BIG_REQUESTS}; i += 1) statuses.push(...(await Promise.all(Array.from({ length: ${atOnce} }, post))));
      process.stdout.write(JSON.stringify(statuses));
    })();`;
  const { stdout } = await promisify(execFile)(childNode(), ['-e', script, file]);
  return JSON.parse(stdout) as number[];
}

async function reportLatencies(servers: SurveyServer, while_: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void while_.finally(() => {
    done = true;
  });
  while (!done) latencies.push((await timed(servers.report, { headers: { authorization: servers.authorization } })).ms);
  return latencies;
}

function ask(child: ChildProcess, message: 'reset' | 'report'): Promise<{ maxDelayMs: number } | undefined> {
  child.send(message);
  return message === 'report' ? (once(child, 'message') as Promise<[{ maxDelayMs: number }]>).then(([reply]) => reply) : Promise.resolve(undefined);
}

export interface SvcEvalFigures extends Comparison {
  /** Bytes of the envelope POSTed and of the app's answer. */
  readonly envelopeBytes: number;
  readonly answerBytes: number;
  /**
   * With each piece of a call's fixed cost taken out, then all of them: against the baseline, and the app
   * with it (`share`: the ratio full / without, below 1 by the piece's part of a call).
   */
  readonly without: Readonly<Record<(typeof SURVEY_PIECES)[number] | typeof ALL_SURVEY_PIECES, { readonly against: Comparison; readonly share: Comparison }>>;
  readonly check: GeneratorCheck;
  readonly leftOut: readonly string[];
}

/** svcEval calls per second of this server against the soap package's, alternating rounds. */
export async function measureSvcEval(log: Log): Promise<SvcEvalFigures> {
  await ensureLoadTools(log);
  const appLog = logFilePath('survey-app');
  const app = await startServerProcess<SurveyServer>('bench/survey-servers.ts', { core: SERVER_CORE, logFile: appLog });
  const others: { stop(): Promise<void> }[] = [];
  try {
    const first = await captureAnswer(app.info.survey, { headers: SOAP_HEADERS, body: PAGE });
    const cookie = [first.headers['set-cookie'] ?? []].flat().find((value) => value.startsWith('survey_session='))?.split(';')[0];
    if (cookie === undefined) throw new Error(`the survey service set no survey_session cookie: ${JSON.stringify(first.headers)}`);
    const headers = { ...SOAP_HEADERS, Cookie: cookie };
    const answer = await captureAnswer(app.info.survey, { headers, body: PAGE });
    const baseline = await startServerProcess<{ url: string }>('bench/soap-only-server.ts', { core: SERVER_CORE });
    others.push(baseline);
    const ceiling = await startServerProcess<{ url: string }>('bench/ceiling-server.ts', { args: [answersFile([answer])], core: SERVER_CORE });
    others.push(ceiling);
    const page = (url: string) => ({ load: prepareLoad({ url, headers, body: PAGE }, settings.connections) });
    const withoutNames = [...SURVEY_PIECES, ALL_SURVEY_PIECES] as const;
    const { rates, leftOut } = await alternateRounds(
      {
        soapOnly: page(baseline.info.url),
        survey: page(app.info.survey),
        ...(Object.fromEntries(withoutNames.map((name) => [`without ${name}`, page(app.info.without[name])])) as Record<
          `without ${(typeof withoutNames)[number]}`,
          ReturnType<typeof page>
        >),
        ceiling: page(ceiling.info.url + answer.path),
      },
      log,
    );
    log(logWritten(appLog));
    return {
      ...compare(rates.survey, rates.soapOnly),
      envelopeBytes: Buffer.byteLength(PAGE),
      answerBytes: bodyBytes(answer),
      without: Object.fromEntries(
        withoutNames.map((name) => [name, { against: compare(rates[`without ${name}`], rates.soapOnly), share: compare(rates.survey, rates[`without ${name}`]) }]),
      ) as SvcEvalFigures['without'],
      check: checkGenerator(`svcEval (the app's answer, ${bodyBytes(answer)} B)`, rates.ceiling, {
        'soap package only': rates.soapOnly,
        'this server': rates.survey,
        ...Object.fromEntries(withoutNames.map((name) => [`this server without ${name}`, rates[`without ${name}`]])),
      }),
      leftOut,
    };
  } finally {
    for (const server of [app, ...others]) await server.stop();
  }
}

/** How long the big bodies hold a reporting request and the event loop, against the request alone. */
async function bigBodyDelays(): Promise<string[]> {
  const servers = await startServerProcess<SurveyServer>('bench/survey-servers.ts', { logFile: logFilePath('survey-big-bodies') });
  const { info, child } = servers;
  try {
    const lines: string[] = [];
    const alone: number[] = [];
    for (let index = 0; index < 41; index += 1) alone.push((await timed(info.report, { headers: { authorization: info.authorization } })).ms);
    lines.push(`a reporting request (event tracker, 31 days) alone: median ${median(alone.slice(20)).toFixed(1)} ms after 20 to warm up`);
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-bench-survey-'));
    try {
      for (const { name, body, headers, rest, atOnce = 1 } of await bigBodies()) {
        const file = path.join(folder, 'body');
        await writeFile(file, body);
        await ask(child, 'reset');
        const big = rest === true ? postFromAnotherProcess(`${info.survey}/rest`, file, headers, atOnce) : postFromAnotherProcess(info.survey, file, { ...SOAP_HEADERS, ...headers }, atOnce);
        const latencies = await reportLatencies(info, big);
        const statuses = await big;
        const report = await ask(child, 'report');
        lines.push(
          `  ${name} (${(body.length / 1048576).toFixed(1)} MiB sent, x${BIG_REQUESTS}${atOnce > 1 ? ` batches of ${atOnce}` : ''}, HTTP ${[...new Set(statuses)].join('/')}): ` +
            `longest event-loop delay ${report?.maxDelayMs.toFixed(1)} ms; reporting request longest ${Math.max(...latencies).toFixed(1)} ms ` +
            `over ${latencies.length} requests (goal: held <= 100 ms)`,
        );
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    return lines;
  } finally {
    await servers.stop();
  }
}

async function sessionMemory(): Promise<string> {
  const { sessions, bytesPerSession } = await runJsonProcess<{ sessions: number; bytesPerSession: number }>('bench/survey-sessions.ts', { nodeArgs: ['--expose-gc'] });
  return `survey sessions in memory: ${bytesPerSession} bytes each, heap grown by ${sessions} sessions (goal <= 300)`;
}

if (require.main === module) {
  runStandalone('bench:survey', async (log) => {
    const svcEvalFigure = await measureSvcEval(log);
    return [
      `svcEval, two-question page as PHP sends it (${svcEvalFigure.envelopeBytes} B, cookie kept), ${settings.runs} rounds of ${settings.seconds}s, ` +
        `wrk -t1 -c${settings.connections} on core 1, servers on core 0, medians:`,
      `  server built only from the soap package, same WSDL: ${svcEvalFigure.baseline.toFixed(0)} calls/s (baseline 1.00)`,
      `  this server (SOAP parse, session, cookie, rate limit, access log at LOG_LEVEL=${settings.serverLogLevel} into a file): ` +
        `${svcEvalFigure.measured.toFixed(0)} calls/s (${svcEvalFigure.ratio.toFixed(2)} of baseline)`,
      ...Object.entries(svcEvalFigure.without).map(
        ([name, { against, share }]) =>
          `    without ${name}: ${against.measured.toFixed(0)} calls/s (${against.ratio.toFixed(2)} of baseline); the app with it: ${share.ratio.toFixed(2)} of the app without`,
      ),
      checkLine(svcEvalFigure.check),
      ...svcEvalFigure.leftOut.map((round) => `left out: ${round}`),
      ...(await bigBodyDelays()),
      await sessionMemory(),
    ];
  });
}
