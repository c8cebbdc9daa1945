import request from 'supertest';
import { parseStringPromise } from 'xml2js';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { post, responseBody, svcEval } from '../../../test/survey-clients/support';

let server: TestServer;

afterEach(() => server.close());

interface Wsdl {
  readonly text: string;
  readonly address: string;
  readonly caching: { readonly vary: string | undefined; readonly cacheControl: string | undefined };
}

async function getWsdl(testServer: TestServer, path = '/survey?wsdl', headers: Record<string, string> = {}): Promise<Wsdl> {
  const response = await request(testServer.url).get(path).set(headers);
  expect(response.status).toBe(200);
  expect(response.get('Content-Type')).toBe('text/xml; charset=utf-8');
  const address = /<soap:address location="([^"]*)"\/>/.exec(response.text)?.[1];
  if (address === undefined) throw new Error(`no soap:address in ${response.text}`);
  return { text: response.text, address, caching: { vary: response.get('Vary'), cacheControl: response.get('Cache-Control') } };
}

/** An element as xml2js parses it: attributes under `$`, child elements by name, in document order. */
interface XmlNode {
  readonly $?: Record<string, string>;
  readonly [child: string]: readonly XmlNode[] | Record<string, string> | undefined;
}

function children(node: XmlNode, name: string): readonly XmlNode[] {
  const found = node[name];
  return Array.isArray(found) ? (found as readonly XmlNode[]) : [];
}

/** The first element at the end of a path of child names. */
function at(node: XmlNode, ...path: string[]): XmlNode {
  return path.reduce((parent, name) => {
    const [first] = children(parent, name);
    if (first === undefined) throw new Error(`no ${name} element`);
    return first;
  }, node);
}

const attributes = (node: XmlNode): Record<string, string> => node.$ ?? {};

test('the WSDL describes SampleWebservice exactly as specification.md §3.1 names it: rpc/encoded SOAP 1.1 over HTTP', async () => {
  server = await startTestServer();
  const { text } = await getWsdl(server);
  // xml2js keeps the prefixes as written, so the declarations below pin what each prefix means.
  const { definitions } = (await parseStringPromise(text)) as { definitions: XmlNode };
  expect(attributes(definitions)).toMatchObject({
    name: 'SampleWebservice',
    targetNamespace: 'urn:SampleWebservice',
    'xmlns:soap': 'http://schemas.xmlsoap.org/wsdl/soap/',
    'xmlns:soapenc': 'http://schemas.xmlsoap.org/soap/encoding/',
    'xmlns:wsdl': 'http://schemas.xmlsoap.org/wsdl/',
    'xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
    'xmlns:tns': 'urn:SampleWebservice',
  });

  const arrayType = at(definitions, 'types', 'xsd:schema', 'xsd:complexType');
  expect(attributes(arrayType)).toEqual({ name: 'ArrayOfstring' });
  const restriction = at(arrayType, 'xsd:complexContent', 'xsd:restriction');
  expect(attributes(restriction)).toEqual({ base: 'soapenc:Array' });
  expect(attributes(at(restriction, 'xsd:attribute'))).toEqual({ ref: 'soapenc:arrayType', 'wsdl:arrayType': 'xsd:string[]' });

  const messages = Object.fromEntries(
    children(definitions, 'message').map((message) => [attributes(message).name, children(message, 'part').map(attributes)]),
  );
  expect(messages).toEqual({
    svcEvalRequest: [
      { name: 'question_texts', type: 'tns:ArrayOfstring' },
      { name: 'answers', type: 'tns:ArrayOfstring' },
    ],
    svcEvalResponse: [{ name: 'svcEvalResponse', type: 'xsd:string' }],
  });

  expect(children(definitions, 'portType')).toHaveLength(1);
  expect(children(at(definitions, 'portType'), 'operation').map((operation) => attributes(operation).name)).toEqual(['svcEval']);

  const binding = at(definitions, 'binding');
  expect(attributes(binding)).toEqual({ name: 'SampleWebserviceBinding', type: 'tns:SampleWebservicePortType' });
  expect(attributes(at(binding, 'soap:binding'))).toEqual({ style: 'rpc', transport: 'http://schemas.xmlsoap.org/soap/http' });
  const operation = at(binding, 'operation');
  expect(attributes(operation)).toEqual({ name: 'svcEval' });
  expect(attributes(at(operation, 'soap:operation'))).toEqual({ soapAction: 'urn:SampleWebserviceAction', style: 'rpc' });
  const encoded = {
    use: 'encoded',
    namespace: 'urn:SampleWebservice',
    encodingStyle: 'http://schemas.xmlsoap.org/soap/encoding/',
  };
  expect(attributes(at(operation, 'input', 'soap:body'))).toEqual(encoded);
  expect(attributes(at(operation, 'output', 'soap:body'))).toEqual(encoded);

  const service = at(definitions, 'service');
  expect(attributes(service)).toEqual({ name: 'SampleWebservice' });
  expect(children(service, 'port').map(attributes)).toEqual([{ name: 'SampleWebservicePort', binding: 'tns:SampleWebserviceBinding' }]);
});

test('soap:address is PUBLIC_URL followed by the service path, the same for every request, so caches may keep it', async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://surveys.example.com/ivr/' });
  const wsdl = await getWsdl(server, '/survey?wsdl', { Host: 'evil.example' });
  expect(wsdl.address).toBe('https://surveys.example.com/ivr/survey');
  expect(wsdl.caching).toEqual({ vary: undefined, cacheControl: undefined });
});

test('without PUBLIC_URL, soap:address is derived from the Host the request was sent to, and no cache may keep it', async () => {
  server = await startTestServer();
  const own = await getWsdl(server);
  expect(own.address).toBe(`${server.url}/survey`);
  expect(own.caching).toEqual({ vary: 'Host', cacheControl: 'no-store' });
  const other = await getWsdl(server, '/survey/plum?wsdl', { Host: 'ivr.example.net:8080' });
  expect(other.address).toBe('http://ivr.example.net:8080/survey/plum');
  expect(other.caching).toEqual({ vary: 'Host', cacheControl: 'no-store' });
});

test('forwarded protocol and host are used only when TRUST_PROXY trusts the proxy', async () => {
  const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'surveys.example.org' };
  server = await startTestServer();
  expect((await getWsdl(server, '/survey?wsdl', forwarded)).address).toBe(`${server.url}/survey`);
  await server.close();
  server = await startTestServer({ TRUST_PROXY: 'true' });
  expect((await getWsdl(server, '/survey?wsdl', forwarded)).address).toBe('https://surveys.example.org/survey');
});

test("behind a tunnel whose agent runs on the same machine (TRUST_PROXY=loopback, docs/survey-web-service.md), each WSDL advertises the tunnel's public address", async () => {
  const tunnel = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'quiet-river-1234.trycloudflare.com' };
  server = await startTestServer({ TRUST_PROXY: 'loopback' });
  expect((await getWsdl(server, '/survey?wsdl', tunnel)).address).toBe('https://quiet-river-1234.trycloudflare.com/survey');
  expect((await getWsdl(server, '/survey/plum?wsdl', tunnel)).address).toBe('https://quiet-river-1234.trycloudflare.com/survey/plum');
});

test('a Host that no URL can hold falls back to the address the connection reached', async () => {
  server = await startTestServer();
  expect((await getWsdl(server, '/survey?wsdl', { Host: 'bad host' })).address).toBe(`${server.url}/survey`);
});

test('the WSDL is served for ?WSDL and HEAD too', async () => {
  server = await startTestServer();
  const { text } = await getWsdl(server, '/survey?WSDL');
  const head = await request(server.url).head('/survey?wsdl');
  expect(head.status).toBe(200);
  expect(head.get('Content-Type')).toBe('text/xml; charset=utf-8');
  expect(Number(head.get('Content-Length'))).toBe(Buffer.byteLength(text));
});

test('SOAP_PATH moves the WSDL, its address, the service and the cookie path together', async () => {
  server = await startTestServer({ SOAP_PATH: '/ws/eval/' });
  expect((await getWsdl(server, '/ws/eval?wsdl')).address).toBe(`${server.url}/ws/eval`);
  const response = await request(server.url)
    .post('/ws/eval')
    .set({ 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"urn:SampleWebserviceAction"' })
    .send(svcEval(['Agree?'], ['yes']));
  expect(response.status).toBe(200);
  expect(response.text).toBe(responseBody('accepted'));
  expect(response.get('Set-Cookie')?.[0]).toMatch(/^survey_session=[0-9a-f]{32}; Path=\/ws\/eval; HttpOnly; SameSite=Lax$/);
  const old = await post(server.url, svcEval(['Agree?'], ['yes']));
  expect(old.status).toBe(404);
});
