import { execFile } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { DEBIAN_PYTHON, PHP_SOAP, SUDS, ZEEP } from '../support/real-programs';

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

/** The exact body of a successful svcEval or plumEval response (rpc/encoded: the part unqualified). */
export function responseBody(response: string, operation: 'svcEval' | 'plumEval' = 'svcEval'): string {
  const part = `${operation}Response`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="urn:SampleWebservice" ' +
    'soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<soap:Body><tns:${part}><${part}>${escapeText(response)}</${part}></tns:${part}></soap:Body>` +
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

/** The optional text parts of plumEval as PHP writes them; null is sent as xsi:nil, undefined is left out. */
export interface PlumEvalTexts {
  readonly ani_ip?: string | null;
  readonly dnis?: string | null;
  readonly session_id?: string | null;
}

/** A plumEval call with SOAP-encoded arrays and its text parts, written the way PHP's SoapClient writes it. */
export function plumEval(questionTexts: readonly (string | null)[] | undefined, answers: readonly (string | null)[] | undefined, texts: PlumEvalTexts = {}): string {
  const parts = [
    questionTexts === undefined ? '' : encodedArray('question_texts', questionTexts),
    answers === undefined ? '' : encodedArray('answers', answers),
    ...(['ani_ip', 'dnis', 'session_id'] as const).map((name) => {
      const value = texts[name];
      if (value === undefined) return '';
      return value === null ? `<${name} xsi:nil="true"/>` : `<${name} xsi:type="xsd:string">${escapeXml(value)}</${name}>`;
    }),
  ].join('');
  return envelope(`<ns1:plumEval>${parts}</ns1:plumEval>`);
}

/** POSTs a body to the service as a SOAP 1.1 client does, unless the headers say otherwise. */
export function post(baseUrl: string, body: string | Buffer, headers: Record<string, string> = {}, path = '/survey'): request.Test {
  return request(baseUrl)
    .post(path)
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

export type PhpResult =
  | { response: string }
  | { fault: { code: string; string: string } }
  /** zeep only: an exception that is not a SOAP fault (a dropped connection's), by its module and name. */
  | { error: { type: string; message: string } };

/** What one client program did: its results in call order, the cookies it ended with, the envelopes it sent. */
export interface ClientRun {
  readonly results: PhpResult[];
  readonly cookies: Record<string, string>;
  readonly requests: string[];
}

const PHP_CLIENT = path.join(__dirname, 'php', 'eval-client.php');
const ZEEP_CLIENT = path.join(__dirname, 'python', 'zeep_client.py');
const SUDS_CLIENT = path.join(__dirname, 'python', 'suds_client.py');
/** -B: the client programs import a module of their own, whose bytecode must not land in the checkout. */
const PYTHON_OPTIONS = ['-B'];

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

export type SoapOperation = 'svcEval' | 'plumEval';

/** The real SOAP clients a survey system is written with, each built from the WSDL it is given. */
export const SOAP_CLIENTS = {
  /** PHP's SoapClient in WSDL mode (svcEval's optional parts: without the WSDL, as SoapParams). */
  'PHP SoapClient': { program: PHP_SOAP, command: 'php', args: [PHP_CLIENT] },
  /** zeep (Python), which treats every declared part as required: plumEval's null parts go as xsi:nil. */
  zeep: { program: ZEEP, command: DEBIAN_PYTHON, args: [...PYTHON_OPTIONS, ZEEP_CLIENT] },
  /** suds (Python), which leaves out an array of no item and a part that is None. */
  suds: { program: SUDS, command: DEBIAN_PYTHON, args: [...PYTHON_OPTIONS, SUDS_CLIENT] },
} as const;

export type SoapClientName = keyof typeof SOAP_CLIENTS;

/** Runs each list of calls on its own client of the given kind, built from the WSDL at `wsdl`. */
export function runSoapClients(
  name: SoapClientName,
  wsdl: string,
  clients: readonly (readonly PhpCall[])[],
  operation: SoapOperation = 'svcEval',
): Promise<ClientRun[]> {
  const { command, args } = SOAP_CLIENTS[name];
  return runClientProgram(command, args, { wsdl, operation, clients });
}

/** Runs each list of calls on its own PHP SoapClient built from the WSDL at `wsdl`. */
export function runPhpClients(wsdl: string, clients: readonly (readonly PhpCall[])[]): Promise<ClientRun[]> {
  return runSoapClients('PHP SoapClient', wsdl, clients);
}

/** Runs each list of calls on its own zeep client generated from the WSDL at `wsdl` (the two parts only). */
export function runZeepClients(
  wsdl: string,
  clients: readonly (readonly Pick<PhpCall, 'question_texts' | 'answers'>[])[],
): Promise<ClientRun[]> {
  return runSoapClients('zeep', wsdl, clients);
}
