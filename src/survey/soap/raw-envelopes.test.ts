import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { createLogger } from '../../logger';
import { listen, listenOptions } from '../../listen';
import { createMemoryStore } from '../../storage/memory/memory-store';
import type { SurveyCall, SurveyEvaluation } from '../../domain/survey-handler';
import { FakeClock } from '../../../test/support/fake-clock';
import { hangUpMidBody } from '../../../test/support/hang-up';
import { LogLines } from '../../../test/support/log-lines';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { envelope, faultBody, post, responseBody, svcEval } from '../../../test/survey-clients/support';

const XML = 'text/xml; charset=utf-8';

let server: TestServer;
let handlerCalls: SurveyCall[];

/** The sample behaviour, recording every call, to show which requests never reach a handler. */
function recordingHandler({ answers }: SurveyCall): SurveyEvaluation {
  handlerCalls.push({ questionTexts: [], answers, state: undefined });
  return { response: answers.includes('yes') ? 'accepted' : 'rejected', state: null };
}

async function startServer(env: NodeJS.ProcessEnv = {}): Promise<void> {
  handlerCalls = [];
  server = await startTestServer(env, { surveyHandler: recordingHandler });
}

afterEach(() => server.close());

/** After any abuse, the same server still answers a survey call and a reporting request. */
async function expectStillServing(): Promise<void> {
  const survey = await post(server.url, svcEval(['Agree?'], ['yes']));
  expect(survey.status).toBe(200);
  expect(survey.text).toBe(responseBody('accepted'));
  const reporting = await request(server.url).post('/api/auth').type('form').send({ tool: 'nope', login: 'a', password: 'b' });
  expect(reporting.status).toBe(400);
  expect(reporting.body).toEqual({ error: 'Invalid tool parameter. Allowed values are: dev, fuse, insight, fuseplus' });
}

function expectClientFault(response: request.Response, code: string, faultstring: string): void {
  expect(response.status).toBe(500);
  expect(response.get('X-Error-Code')).toBe(code);
  expect(response.get('Content-Type')).toBe(XML);
  expect(response.get('Set-Cookie')).toBeUndefined();
  expect(response.text).toBe(faultBody('soap:Client', faultstring));
}

describe('calls that break a rule of svcEval are answered with a SOAP 1.1 soap:Client fault', () => {
  beforeEach(() => startServer());

  test('arrays of different lengths', async () => {
    const response = await post(server.url, svcEval(['Q1', 'Q2', 'Q3'], ['yes', 'no']));
    expectClientFault(response, 'IVR_INVALID_SURVEY_CALL', 'question_texts has 3 items but answers has 2 items; answers[i] must be the answer to question_texts[i]');
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test.each([
    ['answers', svcEval(['Q1'], undefined), 'question_texts has 1 item but answers has 0 items; answers[i] must be the answer to question_texts[i]'],
    ['question_texts', svcEval(undefined, ['yes']), 'question_texts has 0 items but answers has 1 item; answers[i] must be the answer to question_texts[i]'],
  ])('an absent part is an empty array, so the other must be empty too: %s', async (_missing, body, faultstring) => {
    expectClientFault(await post(server.url, body), 'IVR_INVALID_SURVEY_CALL', faultstring);
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test('text between the parts of svcEval', async () => {
    const body = envelope('<ns1:svcEval><question_texts><item>Q1</item></question_texts>stray text<answers><item>yes</item></answers></ns1:svcEval>');
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'svcEval holds text between its parts; send only its part elements');
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'ns1:valueOf'])(
    'an element named like a property of every JavaScript object is a name like any other: %s',
    async (name) => {
      const parts = '<question_texts><item>Q1</item></question_texts><answers><item>yes</item></answers>';
      const unknownPart = envelope(`<ns1:svcEval>${parts}<${name}>x</${name}></ns1:svcEval>`);
      const itemsSoNamed = envelope(`<ns1:svcEval><question_texts><${name}>Q1</${name}></question_texts><answers><${name}>yes</${name}></answers></ns1:svcEval>`);
      for (const body of [unknownPart, itemsSoNamed]) {
        const response = await post(server.url, body);
        expect(response.status).toBe(200);
        expect(response.text).toBe(responseBody('accepted'));
      }
      expect(handlerCalls.map((call) => call.answers)).toEqual([['yes'], ['yes']]);
    },
  );

  test('an attribute named hasOwnProperty, which the XML parser keeps in a plain object', async () => {
    const body = envelope('<ns1:svcEval><question_texts hasOwnProperty="1" b="2"><item>Q1</item></question_texts><answers><item>yes</item></answers></ns1:svcEval>');
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'an attribute named hasOwnProperty is not accepted');
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test('such a name inside CDATA or a comment is text, and is answered', async () => {
    const body = envelope('<ns1:svcEval><!-- <toString> --><question_texts><item><![CDATA[<constructor>]]></item></question_texts><answers><item>yes</item></answers></ns1:svcEval>');
    const response = await post(server.url, body);
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
  });

  test('a part that is text instead of an array', async () => {
    const body = envelope('<ns1:svcEval><question_texts>Q1</question_texts><answers>yes</answers></ns1:svcEval>');
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'question_texts must be an array of strings (one child element per item), not text');
    await expectStillServing();
  });

  test('an array item that is a structure instead of a string', async () => {
    const body = envelope('<ns1:svcEval><question_texts><item><text>Q1</text></item></question_texts><answers><item>yes</item></answers></ns1:svcEval>');
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'question_texts[0] must be a string, not a structure');
    await expectStillServing();
  });

  test.each([
    ['an empty body', ''],
    ['a body of white space', ' \r\n '],
  ])('%s, which the soap package would pass to the handler as no arguments', async (_case, body) => {
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'the request body is empty; send a SOAP 1.1 envelope that calls svcEval or plumEval');
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test('a POST with no body at all', async () => {
    const response = await request(server.url).post('/survey').set('SOAPAction', '"urn:SampleWebserviceAction"');
    expectClientFault(response, 'IVR_INVALID_ENVELOPE', 'the request body is empty; send a SOAP 1.1 envelope that calls svcEval or plumEval');
    await expectStillServing();
  });

  test('a wrong SOAPAction, on which the soap package throws a TypeError', async () => {
    const response = await post(server.url, svcEval(['Q1'], ['yes']), { SOAPAction: '"urn:SomethingElse"' });
    expectClientFault(response, 'IVR_UNKNOWN_SOAP_ACTION', 'unknown SOAPAction urn:SomethingElse; this service answers urn:SampleWebserviceAction');
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test.each([
    ['absent', undefined],
    ['empty', '""'],
    ['unquoted', 'urn:SampleWebserviceAction'],
  ])('a SOAPAction that is %s is accepted, since the Body names svcEval', async (_case, action) => {
    const call = request(server.url).post('/survey').set('Content-Type', XML);
    const response = await (action === undefined ? call : call.set('SOAPAction', action)).send(svcEval(['Q1'], ['yes']));
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
  });

  test('an unknown operation, for which the soap package would send its stack trace', async () => {
    const response = await post(server.url, envelope('<ns1:deleteEverything><path>/etc</path></ns1:deleteEverything>'));
    expectClientFault(response, 'IVR_UNKNOWN_OPERATION', 'unknown operation deleteEverything; this service answers svcEval and plumEval');
    expect(response.text).not.toMatch(/node_modules|at .*\.js/);
    await expectStillServing();
  });

  test('two calls in one Body', async () => {
    const body = envelope('<ns1:svcEval/><ns1:plumEval/>');
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'the SOAP Body must hold exactly one element, the svcEval or plumEval call');
    await expectStillServing();
  });

  test.each([
    ['a mismatched close tag', '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body></s:Envelop>', 'Unexpected close tag'],
    ['a cut-off body', svcEval(['Q1'], ['yes']).slice(0, 400), 'Unclosed root tag'],
    ['text that is not XML', 'question_texts=Q1&answers=yes', 'Non-whitespace before first tag.'],
    ['an undefined entity', svcEval(['&undefined;'], ['yes']).replace('&amp;undefined;', '&undefined;'), 'Invalid character entity'],
  ])('malformed XML: %s', async (_case, body, reason) => {
    expectClientFault(await post(server.url, body), 'IVR_MALFORMED_XML', `the request is not well-formed XML: ${reason}`);
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test.each([
    ['another root element', '<svcEval><question_texts/><answers/></svcEval>'],
    ['an Envelope whose prefix is not declared', '<soap:Envelope><soap:Body><svcEval/></soap:Body></soap:Envelope>'],
    ['an Envelope in another namespace', '<e:Envelope xmlns:e="urn:not-soap"><e:Body><svcEval/></e:Body></e:Envelope>'],
  ])('well-formed XML that is not a SOAP envelope: %s', async (_case, body) => {
    const response = await post(server.url, body);
    expectClientFault(response, 'IVR_INVALID_ENVELOPE', 'the request is not a SOAP 1.1 envelope (an Envelope element in namespace http://schemas.xmlsoap.org/soap/envelope/)');
    await expectStillServing();
  });

  test('a Body in another namespace is no SOAP Body', async () => {
    const body = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><b:Body xmlns:b="urn:other"><svcEval/></b:Body></s:Envelope>';
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'the SOAP envelope must hold exactly one Body');
    await expectStillServing();
  });

  test('namespaces declared on the Body and a default namespace are resolved', async () => {
    const body =
      '<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><s:Body xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">' +
      '<svcEval xmlns=""><question_texts><item>Agree?</item></question_texts><answers><item>yes</item></answers></svcEval></s:Body></Envelope>';
    const response = await post(server.url, body);
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
  });

  test('a SOAP 1.2 envelope', async () => {
    const body = '<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><svcEval/></e:Body></e:Envelope>';
    expectClientFault(await post(server.url, body), 'IVR_INVALID_ENVELOPE', 'SOAP 1.2 is not supported; send a SOAP 1.1 envelope (namespace http://schemas.xmlsoap.org/soap/envelope/)');
    await expectStillServing();
  });

  test('another HTTP method gets 405, an Allow header and a fault', async () => {
    const response = await request(server.url).put('/survey').set('Content-Type', XML).send(svcEval(['Q1'], ['yes']));
    expect(response.status).toBe(405);
    expect(response.get('Allow')).toBe('GET, HEAD, POST');
    expect(response.get('X-Error-Code')).toBe('IVR_METHOD_NOT_ALLOWED');
    expect(response.text).toBe(faultBody('soap:Client', 'method PUT is not allowed here; use GET or HEAD or POST'));
  });
});

describe('SOAP headers (SOAP 1.1 section 4.2): svcEval defines none', () => {
  beforeEach(() => startServer());

  const withHeader = (entry: string) =>
    svcEval(['Agree?'], ['yes']).replace('<SOAP-ENV:Body>', `<SOAP-ENV:Header>${entry}</SOAP-ENV:Header><SOAP-ENV:Body>`);

  test.each([
    ['mustUnderstand="1"', '<t:Transaction xmlns:t="urn:tx" SOAP-ENV:mustUnderstand="1">5</t:Transaction>'],
    [
      'mustUnderstand="1" for the next actor',
      '<t:Transaction xmlns:t="urn:tx" SOAP-ENV:actor="http://schemas.xmlsoap.org/soap/actor/next" SOAP-ENV:mustUnderstand="1">5</t:Transaction>',
    ],
  ])('a header entry marked %s gets a soap:MustUnderstand fault and never reaches the handler', async (_case, entry) => {
    const response = await post(server.url, withHeader(entry));
    expect(response.status).toBe(500);
    expect(response.get('X-Error-Code')).toBe('IVR_SOAP_MUST_UNDERSTAND');
    expect(response.get('Content-Type')).toBe(XML);
    expect(response.text).toBe(
      faultBody(
        'soap:MustUnderstand',
        'the SOAP header t:Transaction is marked mustUnderstand, and this service understands no SOAP headers',
      ),
    );
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test.each([
    ['without mustUnderstand', '<t:Trace xmlns:t="urn:tx">abc</t:Trace>'],
    ['with mustUnderstand="0"', '<t:Trace xmlns:t="urn:tx" SOAP-ENV:mustUnderstand="0">abc</t:Trace>'],
    ['for another actor', '<t:Trace xmlns:t="urn:tx" SOAP-ENV:actor="urn:auditor" SOAP-ENV:mustUnderstand="1">abc</t:Trace>'],
    ['with a mustUnderstand attribute of another namespace', '<t:Trace xmlns:t="urn:tx" t:mustUnderstand="1">abc</t:Trace>'],
  ])('a header entry %s is ignored and the call served', async (_case, entry) => {
    const response = await post(server.url, withHeader(entry));
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
  });
});

describe('document type declarations and entities are refused before any parser runs', () => {
  let probe: Server;
  let probeHits: string[];

  beforeEach(async () => {
    await startServer();
    probeHits = [];
    probe = createServer((req, res) => {
      probeHits.push(req.url ?? '');
      res.end('<!ENTITY leaked "LEAKED">');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  });

  afterEach(() => new Promise<void>((resolve) => probe.close(() => resolve())));

  const declarations = 'document type and entity declarations are not accepted';

  test('an external entity naming a local file: nothing is read', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${svcEval(['&xxe;'], ['yes']).replace(/^<\?xml[^>]*>\n/, '').replace('&amp;xxe;', '&xxe;')}`;
    const response = await post(server.url, body);
    expectClientFault(response, 'IVR_DOCTYPE_REFUSED', declarations);
    expect(response.text).not.toContain('root:');
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test('external entities and DTDs on the network: nothing is fetched', async () => {
    const where = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    const body = `<!DOCTYPE foo SYSTEM "${where}/dtd" [<!ENTITY % remote SYSTEM "${where}/entity"> %remote;]>${envelope('<ns1:svcEval/>').replace(/^<\?xml[^>]*>\n/, '')}`;
    expectClientFault(await post(server.url, body), 'IVR_DOCTYPE_REFUSED', declarations);
    expect(probeHits).toEqual([]);
    await expectStillServing();
  });

  test('entity expansion (billion laughs) is refused at once', async () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const body = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${entities}]>${envelope('<ns1:svcEval><question_texts><item>&lol9;</item></question_texts></ns1:svcEval>').replace(/^<\?xml[^>]*>\n/, '')}`;
    const response = await post(server.url, body);
    expectClientFault(response, 'IVR_DOCTYPE_REFUSED', declarations);
    await expectStillServing();
  });

  test('a declaration written in lower case is refused too', async () => {
    expectClientFault(await post(server.url, `<!doctype x>${envelope('<ns1:svcEval/>')}`), 'IVR_DOCTYPE_REFUSED', declarations);
    await expectStillServing();
  });
});

describe('the body size limit, SOAP_MAX_BYTES, counts decompressed bytes', () => {
  const call = svcEval(['Agree?'], ['yes']);
  const callBytes = Buffer.byteLength(call);

  test('a body of exactly the limit is served, one byte more gets 413 with a fault', async () => {
    await startServer({ SOAP_MAX_BYTES: String(callBytes) });
    expect((await post(server.url, call)).status).toBe(200);
    const response = await post(server.url, `${call} `);
    expect(response.status).toBe(413);
    expect(response.get('X-Error-Code')).toBe('IVR_PAYLOAD_TOO_LARGE');
    expect(response.get('Content-Type')).toBe(XML);
    expect(response.text).toBe(faultBody('soap:Client', `request body is larger than ${callBytes} bytes`));
    expect(handlerCalls).toHaveLength(1);
    await expectStillServing();
  });

  test.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a %s-compressed call is decompressed and served', async (encoding, compress) => {
    await startServer();
    const response = await post(server.url, compress(call), { 'Content-Encoding': encoding });
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
  });

  test('a gzip body under the limit that inflates beyond it gets 413', async () => {
    await startServer({ SOAP_MAX_BYTES: String(callBytes - 1) });
    const compressed = gzipSync(call);
    expect(compressed.length).toBeLessThan(callBytes - 1);
    const response = await post(server.url, compressed, { 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(response.get('X-Error-Code')).toBe('IVR_PAYLOAD_TOO_LARGE');
    expect(response.text).toBe(faultBody('soap:Client', `request body is larger than ${callBytes - 1} bytes`));
    const reporting = await request(server.url).post('/api/auth').type('form').send({ tool: 'dev' });
    expect(reporting.status).toBe(400);
  });

  // The server's memory while it refuses such a body is measured by npm run bench:import, not asserted here.
  test('a gzip bomb (an envelope of 256 MiB of spaces in a few hundred KiB) gets 413', async () => {
    await startServer();
    const spaces = Buffer.alloc(1024 * 1024, ' ');
    const start = Buffer.from('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>');
    const bomb = await buffer(
      Readable.from([start, ...Array.from({ length: 256 }, () => spaces)]).pipe(createGzip({ level: constants.Z_BEST_COMPRESSION })),
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const response = await post(server.url, bomb, { 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(response.get('X-Error-Code')).toBe('IVR_PAYLOAD_TOO_LARGE');
    expect(response.text).toBe(faultBody('soap:Client', 'request body is larger than 10485760 bytes'));
    expect(handlerCalls).toEqual([]);
    await expectStillServing();
  });

  test('corrupt gzip data, on which the soap package would crash the process, gets a fault', async () => {
    await startServer();
    const truncated = gzipSync(call).subarray(0, 40);
    const response = await post(server.url, Buffer.concat([truncated, Buffer.from('not gzip at all')]), { 'Content-Encoding': 'gzip' });
    expectClientFault(response, 'IVR_UNREADABLE_BODY', 'the request body could not be read; it may be truncated or not match its Content-Encoding');
    await expectStillServing();
  });

  test('an unknown Content-Encoding gets a fault', async () => {
    await startServer();
    const response = await post(server.url, call, { 'Content-Encoding': 'compress' });
    expectClientFault(response, 'IVR_UNSUPPORTED_CONTENT_ENCODING', 'this Content-Encoding is not supported; send identity, gzip, deflate or br');
    await expectStillServing();
  });
});

describe('the body is read in the charset its Content-Type names', () => {
  beforeEach(() => startServer());

  test('ISO-8859-1', async () => {
    const response = await post(server.url, Buffer.from(svcEval(['Grüße?'], ['yes']), 'latin1'), {
      'Content-Type': 'text/xml; charset=ISO-8859-1',
    });
    expect(response.status).toBe(200);
    expect(response.text).toBe(responseBody('accepted'));
  });

  test('bytes that are not UTF-8 get a fault', async () => {
    const body = Buffer.concat([Buffer.from(svcEval(['Q'], ['yes']).slice(0, 50)), Buffer.from([0xff, 0xfe, 0xfd])]);
    expectClientFault(await post(server.url, body), 'IVR_UNREADABLE_BODY', 'the request body is not valid utf-8');
  });

  test('an unknown charset gets a fault', async () => {
    const response = await post(server.url, svcEval(['Q'], ['yes']), { 'Content-Type': 'text/xml; charset=x-martian' });
    expectClientFault(response, 'IVR_UNSUPPORTED_CHARSET', 'charset x-martian is not supported; send UTF-8');
  });
});

describe('logs', () => {
  let logs: LogLines;
  let running: Awaited<ReturnType<typeof listen>>;

  beforeEach(async () => {
    logs = new LogLines();
    const config = loadConfig({});
    const app = composeApp(config, { store: createMemoryStore(), clock: new FakeClock(), logger: createLogger('info', logs) });
    running = await listen(app, '127.0.0.1', 0, listenOptions(config.server));
    server = {
      close: () => {
        running.server.closeAllConnections();
        return running.close();
      },
    } as TestServer;
  });

  test('a client that hangs up mid-envelope is a warning, not a failure of the service', async () => {
    await hangUpMidBody(running, 'POST /survey HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<soap:Envelope ');
    const aborted = await logs.waitFor('request aborted');
    expect(aborted).toMatchObject({ level: 40, req: { method: 'POST', url: '/survey' } });
    expect(aborted).not.toHaveProperty('res');
    expect(await logs.waitFor('the client closed the connection before the answer')).toMatchObject({ level: 40 });
    expect(logs.lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  test('never log the session cookie, sent or set', async () => {
    const first = await post(running.url, svcEval(['Agree?'], ['yes']));
    const cookie = first.get('Set-Cookie')?.[0]?.split(';')[0] ?? '';
    const second = await post(running.url, svcEval(['Agree?'], ['yes']), { Cookie: cookie });
    await logs.waitFor((line) => (line.req as { id?: string } | undefined)?.id === second.get('X-Request-Id'));
    expect(cookie).toMatch(/^survey_session=[0-9a-f]{32}$/);
    expect(JSON.stringify(logs.lines)).not.toContain(cookie.slice('survey_session='.length));
  });

  test("record a caller's mistake as a warning with no stack, and only the server's own failures as errors", async () => {
    const body = envelope('<ns1:svcEval><question_texts><item>Q1</item></question_texts>stray<answers><item>yes</item></answers></ns1:svcEval>');
    const response = await post(running.url, body);
    expect(response.status).toBe(500);
    const requestId = response.get('X-Request-Id');
    const completed = await logs.waitFor((line) => (line.req as { id?: string } | undefined)?.id === requestId);
    expect(completed).toMatchObject({ level: 40, msg: 'request completed', res: { statusCode: 500 } });
    expect(logs.lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(logs.lines)).not.toContain('"stack"');
  });
});
