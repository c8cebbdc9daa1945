import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';

export const SOAP_ACTION = '"urn:SampleWebserviceAction"';

/** Escaping as the soap package (and PHP) write text: quotes too. */
export function escapeXml(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Escaping as xml2js's builder writes element text: only what text content requires. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The exact body of a SOAP 1.1 fault as the service sends it. */
export function faultBody(code: 'soap:Client' | 'soap:Server' | 'soap:MustUnderstand', faultstring: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>' +
    `<faultcode>${code}</faultcode><faultstring>${escapeText(faultstring)}</faultstring>` +
    '</soap:Fault></soap:Body></soap:Envelope>'
  );
}

/** The exact body of a successful svcEval response (rpc/encoded: the part unqualified). */
export function responseBody(response: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="urn:SampleWebservice" ' +
    'soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<soap:Body><tns:svcEvalResponse><svcEvalResponse>${escapeText(response)}</svcEvalResponse></tns:svcEvalResponse></soap:Body>` +
    '</soap:Envelope>'
  );
}

/** The string a successful svcEval response carries. */
export function svcEvalResponseOf(body: string): string {
  const escaped = /<svcEvalResponse>(.*)<\/svcEvalResponse><\/tns:svcEvalResponse>/s.exec(body)?.[1];
  if (escaped === undefined) throw new Error(`not a svcEval response: ${body}`);
  const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'", '&amp;': '&' };
  return escaped.replace(/&(lt|gt|quot|apos|amp);/g, (entity) => entities[entity] ?? entity);
}

function encodedArray(part: string, items: readonly (string | null)[]): string {
  const children = items
    .map((item) => (item === null ? '<item xsi:nil="true"/>' : `<item xsi:type="xsd:string">${escapeXml(item)}</item>`))
    .join('');
  return `<${part} SOAP-ENC:arrayType="xsd:string[${items.length}]" xsi:type="ns1:ArrayOfstring">${children}</${part}>`;
}

/** The envelope of a call, written the way PHP's SoapClient writes it. */
export function envelope(calls: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="urn:SampleWebservice" ' +
    'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<SOAP-ENV:Body>${calls}</SOAP-ENV:Body></SOAP-ENV:Envelope>\n`
  );
}

/** A svcEval call with SOAP-encoded arrays; leave a part out by passing undefined. */
export function svcEval(questionTexts: readonly (string | null)[] | undefined, answers: readonly (string | null)[] | undefined, extra = ''): string {
  const parts = [
    questionTexts === undefined ? '' : encodedArray('question_texts', questionTexts),
    answers === undefined ? '' : encodedArray('answers', answers),
    extra,
  ].join('');
  return envelope(`<ns1:svcEval>${parts}</ns1:svcEval>`);
}

/** POSTs a body to the service as a SOAP 1.1 client does, unless the headers say otherwise. */
export function post(baseUrl: string, body: string | Buffer, headers: Record<string, string> = {}): request.Test {
  return request(baseUrl)
    .post('/survey')
    .set({ 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: SOAP_ACTION, ...headers })
    .send(body);
}

/** The `name=value` of the session cookie a response sets. */
export function sessionCookieOf(response: request.Response): string {
  const cookies = response.get('Set-Cookie') ?? [];
  const found = cookies.find((cookie) => cookie.startsWith('survey_session='));
  if (found === undefined) throw new Error(`no survey_session cookie in ${JSON.stringify(cookies)}`);
  return found.split(';')[0] ?? '';
}

export interface PhpCall {
  readonly question_texts: readonly (string | null)[];
  readonly answers: readonly (string | null)[];
  readonly ani_ip?: string;
  readonly dnis?: string;
  readonly session_id?: string;
}

export type PhpResult = { response: string } | { fault: { code: string; string: string } };

/** What one client program did: its results in call order, the cookies it ended with, the envelopes it sent. */
export interface ClientRun {
  readonly results: PhpResult[];
  readonly cookies: Record<string, string>;
  readonly requests: string[];
}

const PHP_CLIENT = path.join(__dirname, 'php', 'svc-eval-client.php');
const ZEEP_CLIENT = path.join(__dirname, 'python', 'svc_eval_client.py');
/** Debian's interpreter, where apt installs python3-zeep (a python3 earlier on PATH may be another). */
const DEBIAN_PYTHON = '/usr/bin/python3';

/** Fails with instructions when a client program is missing: the interop tests must run, not skip. */
function requireProgram(command: string, args: readonly string[], expected: string, install: string): void {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  if (probe.error !== undefined || probe.stdout.trim() !== expected) {
    throw new Error(`The interop tests need ${install} (bash .ci/run installs it).`);
  }
}

export function requirePhpSoap(): void {
  requireProgram('php', ['-r', 'echo extension_loaded("soap") ? "yes" : "no";'], 'yes', 'php with the soap extension: apt-get install php-cli php-soap');
}

export function requireZeep(): void {
  requireProgram(DEBIAN_PYTHON, ['-c', 'import zeep; print("yes")'], 'yes', "Python's zeep: apt-get install python3-zeep");
}

/** Runs a client program that reads its calls as JSON on stdin and prints what happened as JSON. */
function runClientProgram(command: string, args: readonly string[], input: unknown): Promise<ClientRun[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
        return;
      }
      resolve((JSON.parse(stdout) as { clients: ClientRun[] }).clients);
    });
    child.stdin?.end(JSON.stringify(input));
  });
}

/** Runs each list of calls on its own PHP SoapClient built from the WSDL at `wsdl`. */
export function runPhpClients(wsdl: string, clients: readonly (readonly PhpCall[])[]): Promise<ClientRun[]> {
  return runClientProgram('php', [PHP_CLIENT], { wsdl, clients });
}

/** Runs each list of calls on its own zeep client generated from the WSDL at `wsdl` (the two parts only). */
export function runZeepClients(
  wsdl: string,
  clients: readonly (readonly Pick<PhpCall, 'question_texts' | 'answers'>[])[],
): Promise<ClientRun[]> {
  return runClientProgram(DEBIAN_PYTHON, [ZEEP_CLIENT], { wsdl, clients });
}
