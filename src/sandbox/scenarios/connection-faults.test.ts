import request from 'supertest';
import { ADMIN_TOKEN, BEARER } from '../../../test/support/admin';
import { basic, serve } from '../../../test/support/http';
import { buildOperationsApp, credentialsFrom, valueOf, type OperationsApp } from '../../../test/support/operations';
import { DEBIAN_PYTHON, describeWith, PHP_SOAP, ZEEP } from '../../../test/support/real-programs';
import { runProgram, type ProgramRun } from '../../../test/support/run-program';
import { addAccount } from '../../../test/support/test-app';
import { documentText } from '../../../test/support/doc-section';
import { runPhpClients, runZeepClients, type PhpResult } from '../../../test/survey-clients/support';
import type { RunningServer } from '../../listen';
import { METRIC_NAMES } from '../../operations/app-metrics';

/*
 * Each connection fault as clients that no one here wrote meet it: curl's exit codes, Python's requests
 * and http.client exceptions, PHP's SoapClient and zeep. The scenarios answer one request each (times: 1),
 * so that the request after shows the real answer again.
 */

// 200 days of one number: a report of some kilobytes, long enough to drip for seconds.
const REPORT = '/api/events/20170701/20180116/day/ALL';
const CALL = [{ question_texts: ['Agree?'], answers: ['yes'] }];

let sandbox: OperationsApp;
let server: RunningServer;
let credentials: string;
let userPassword: string;

beforeEach(async () => {
  sandbox = buildOperationsApp({ ADMIN_TOKEN });
  await addAccount(sandbox.store, { phones: ['18005550100'] });
  const issued = await credentialsFrom(sandbox.app);
  credentials = basic(issued.login, issued.password);
  userPassword = `${issued.login}:${issued.password}`;
  server = await serve(sandbox.app);
});

afterEach(async () => {
  server.server.closeAllConnections();
  await server.close();
});

async function addScenario(body: object): Promise<string> {
  const response = await request(server.url).post('/admin/scenarios').set('Authorization', BEARER).send(body);
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

const curl = (args: readonly string[]): Promise<ProgramRun> => runProgram('curl', ['-sS', '--max-time', '120', ...args]);
const curlReport = (...args: string[]) => curl(['-u', userPassword, ...args, `${server.url}${REPORT}`]);

/** A Python snippet run by Debian's interpreter (python3-zeep brings its requests), given the server's address and credentials. */
const python = (program: string): Promise<ProgramRun> => runProgram(DEBIAN_PYTHON, ['-c', program, server.url, userPassword]);

/** What a Python client printed: the status and the body's length, or the exception's name and (requests) the one it wraps. */
interface PythonOutcome {
  readonly status?: number;
  readonly length?: number;
  readonly error?: string;
  readonly cause?: string;
}

const REQUESTS_REPORT = `
import json, sys, requests
url, user = sys.argv[1], sys.argv[2].split(':')
try:
    response = requests.get(url + '${REPORT}', auth=tuple(user), timeout=60)
    print(json.dumps({'status': response.status_code, 'length': len(response.content)}))
except requests.exceptions.ConnectionError as error:
    # requests wraps urllib3's error, which wraps the one http.client or the socket raised.
    print(json.dumps({'error': type(error).__name__, 'cause': repr(error.args[0].args[1])}))
`;

const HTTP_CLIENT_REPORT = `
import json, sys, base64, http.client, urllib.parse
url, user = urllib.parse.urlsplit(sys.argv[1]), sys.argv[2]
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
try:
    connection.request('GET', '${REPORT}', headers={'Authorization': 'Basic ' + base64.b64encode(user.encode()).decode()})
    response = connection.getresponse()
    print(json.dumps({'status': response.status, 'length': len(response.read())}))
except Exception as error:
    print(json.dumps({'error': type(error).__name__}))
`;

async function pythonOutcome(program: string): Promise<PythonOutcome> {
  const ran = await python(program);
  expect(ran.code).toBe(0);
  return JSON.parse(ran.stdout) as PythonOutcome;
}

async function realReport(): Promise<string> {
  const response = await request(server.url).get(REPORT).set('Authorization', credentials);
  expect(response.status).toBe(200);
  return response.text;
}

const LOGIN = ['-X', 'POST', '-H', 'Content-Type: application/json', '-d', '{"tool":"dev","login":"alice","password":"secret-password"}'];

describe('as curl meets them', () => {
  test('reset: a report reset before any byte exits 56, the access line says so, and the next request is answered', async () => {
    await addScenario({ target: 'data', connection: 'reset', times: 1 });
    expect(await curlReport('-o', '/dev/null')).toEqual({ code: 56, stdout: '', stderr: 'curl: (56) Recv failure: Connection reset by peer\n' });
    expect((await curlReport('-o', '/dev/null', '-w', '%{http_code}')).stdout).toBe('200');
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'data', answer: 'reset' })).toBe(1);
    const line = await sandbox.logs.waitFor('request faulted by a scenario');
    expect(line).toMatchObject({ level: 30, fault: 'reset', req: { method: 'GET', url: REPORT } });
    expect(line).not.toHaveProperty('res');
  });

  test('reset: a login reset after its body was read, whatever delay came first', async () => {
    await addScenario({ target: 'auth', connection: 'reset', delay_ms: 1, times: 1 });
    expect(await curl([...LOGIN, `${server.url}/api/auth`])).toEqual({ code: 56, stdout: '', stderr: 'curl: (56) Recv failure: Connection reset by peer\n' });
    expect((await curl(['-o', '/dev/null', '-w', '%{http_code}', ...LOGIN, `${server.url}/api/auth`])).stdout).toBe('200');
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'auth', answer: 'reset' })).toBe(1);
  });

  test('empty: a report closed without a byte exits 52', async () => {
    await addScenario({ target: 'events', connection: 'empty', times: 1 });
    expect(await curlReport('-o', '/dev/null')).toEqual({ code: 52, stdout: '', stderr: 'curl: (52) Empty reply from server\n' });
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'events', answer: 'empty' })).toBe(1);
  });

  test('empty: a REST survey call closed without a byte exits 52', async () => {
    await addScenario({ target: 'survey', connection: 'empty', times: 1 });
    const sent = await curl(['-d', 'question_texts=Agree%3F&answers=yes', `${server.url}/survey/rest`]);
    expect(sent).toEqual({ code: 52, stdout: '', stderr: 'curl: (52) Empty reply from server\n' });
  });

  test('truncated: the status, the headers and half the body, then closed, exits 18', async () => {
    const real = Buffer.byteLength(await realReport());
    const id = await addScenario({ target: 'data', connection: 'truncated', times: 1 });
    const half = Math.floor(real / 2);
    const cut = await curlReport('-o', '/dev/null', '-D', '-', '-w', '%{http_code} %{size_download}');
    expect(cut.code).toBe(18);
    expect(cut.stderr).toBe(`curl: (18) transfer closed with ${real - half} bytes remaining to read\n`);
    const [head = '', written] = cut.stdout.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual(expect.arrayContaining(['HTTP/1.1 200 OK', `Content-Length: ${real}`, `X-Sandbox-Scenario: ${id}`]));
    expect(written).toBe(`200 ${half}`);
    const line = await sandbox.logs.waitFor('request faulted by a scenario');
    expect(line).toMatchObject({ level: 30, fault: 'truncated', res: { statusCode: 200 } });
  });

  test('truncated: a forced status is cut the same way', async () => {
    await addScenario({ target: 'data', connection: 'truncated', status: 503, retry_after_seconds: 5, times: 1 });
    const cut = await curlReport('-o', '/dev/null', '-w', '%{http_code}');
    expect(cut.code).toBe(18);
    expect(cut.stdout).toBe('500');
  });

  test('drip: the real answer, whole, at the rate asked within a fifth, as curl times it', async () => {
    const real = await realReport();
    // Five seconds of drip: a timer late by up to a second on a loaded machine still leaves the rate within a fifth.
    const bytesPerSecond = Math.ceil(Buffer.byteLength(real) / 5);
    await addScenario({ target: 'data', connection: 'drip', bytes_per_second: bytesPerSecond, times: 1 });
    const dripped = await curlReport('-w', '\n%{time_starttransfer} %{time_total}');
    expect(dripped.code).toBe(0);
    const body = dripped.stdout.slice(0, dripped.stdout.lastIndexOf('\n'));
    expect(body).toBe(real);
    const [headersAt, endedAt] = dripped.stdout.slice(dripped.stdout.lastIndexOf('\n') + 1).split(' ').map(Number) as [number, number];
    const rate = Buffer.byteLength(body) / (endedAt - headersAt);
    expect(rate).toBeGreaterThan(bytesPerSecond * 0.8);
    expect(rate).toBeLessThan(bytesPerSecond * 1.2);
    expect(await valueOf(sandbox.metrics, METRIC_NAMES.scenarioAnswers, { target: 'data', answer: 'drip' })).toBe(1);
  });

  test('never on the admin API, the probes, the metrics, the dashboard or the WSDL', async () => {
    for (const target of ['auth', 'data', 'survey']) await addScenario({ target, connection: 'reset' });
    for (const path of ['/healthz', '/readyz', '/metrics', '/', '/openapi.json', '/survey?wsdl']) {
      expect((await curl(['-o', '/dev/null', '-w', '%{http_code}', `${server.url}${path}`])).stdout).toBe('200');
    }
    const listed = await curl(['-H', `Authorization: ${BEARER}`, `${server.url}/admin/scenarios`]);
    expect((JSON.parse(listed.stdout) as { scenarios: unknown[] }).scenarios).toHaveLength(3);
  });
});

describeWith(PHP_SOAP)('as the table of docs/sandbox.md says', () => {
  /** The table's rows by fault: its cells, curl's to zeep's, as written. */
  const table = new Map(
    documentText('docs/sandbox.md')
      .split('\n')
      .filter((line) => /^\| `(reset|empty|truncated|drip)` \| /.test(line))
      .map((line) => {
        const [fault = '', ...cells] = line.slice(2, -2).split(' | ');
        return [fault.replaceAll('`', ''), cells] as const;
      }),
  );

  /** How much of the real body a client got, in the table's words. */
  const share = (length: number | undefined, real: number) => (length === real ? 'the whole body' : length === Math.floor(real / 2) ? 'half the body' : `${String(length)} bytes`);

  describeWith(ZEEP)('and zeep', () => {
    test.each(['reset', 'empty', 'truncated', 'drip'])('%s: what curl, requests, http.client, PHP SoapClient and zeep do', async (fault) => {
      const real = await realReport();
      const length = Buffer.byteLength(real);
      const drip = fault === 'drip' ? { bytes_per_second: 1_000_000 } : {};
      await addScenario({ target: 'events', connection: fault, times: 3, ...drip });
      await addScenario({ target: 'survey', connection: fault, times: 2, ...drip });

      const byCurl = await curlReport();
      const curlCell = `exit ${byCurl.code}, ${byCurl.code === 0 ? share(Buffer.byteLength(byCurl.stdout), length) : `\`${byCurl.stderr.trim().replace(/with \d+ bytes/, 'with N bytes')}\``}`;
      const byRequests = await pythonOutcome(REQUESTS_REPORT);
      const requestsCell =
        byRequests.error === undefined ? `no error: \`${String(byRequests.status)}\` with ${share(byRequests.length, length)}` : `\`${byRequests.error}\` of \`${String(byRequests.cause)}\``;
      const byHttpClient = await pythonOutcome(HTTP_CLIENT_REPORT);
      const httpClientCell = byHttpClient.error === undefined ? share(byHttpClient.length, length) : `\`${byHttpClient.error}\``;
      const [byPhp] = await runPhpClients(`${server.url}/survey?wsdl`, [CALL]);
      const [byZeep] = await runZeepClients(`${server.url}/survey?wsdl`, [CALL]);
      const soapCell = (result: PhpResult | undefined) => {
        if (result !== undefined && 'fault' in result) return `\`SoapFault\` \`${result.fault.code}\`: \`${result.fault.string}\``;
        if (result !== undefined && 'error' in result) return `\`${result.error.type}\``;
        return result?.response === 'accepted' ? 'the answer' : JSON.stringify(result);
      };
      expect([curlCell, requestsCell, httpClientCell, soapCell(byPhp?.results[0]), soapCell(byZeep?.results[0])]).toEqual(table.get(fault));
    });
  });

  test('reset: the call inspector lists the survey call with its connection, and the next call is answered', async () => {
    await addScenario({ target: 'survey', connection: 'reset', times: 1 });
    const [run] = await runPhpClients(`${server.url}/survey?wsdl`, [[...CALL, ...CALL]]);
    expect(run?.results).toEqual([{ fault: { code: 'HTTP', string: 'Error Fetching http headers' } }, { response: 'accepted' }]);
    const calls = await request(server.url).get('/admin/survey/calls').set('Authorization', BEARER);
    expect((calls.body as { calls: { outcome: unknown }[] }).calls.map(({ outcome }) => outcome)).toEqual([{ answer: 'accepted' }, { connection: 'reset' }]);
  });
});
