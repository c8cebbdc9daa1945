import { listen, type IServices, type Server } from 'soap';
import { svcEvalDispatcher } from '../../src/survey/soap-dispatcher';
import { renderWsdl } from '../../src/survey/wsdl';
import { envelope, svcEval } from './support';

/*
 * What the soap package (pinned in package.json) does on its own, which the survey service is built
 * around. If an upgrade changes one of these, this file says which workaround in src/survey to revisit.
 */

const SOAP_ACTION = { soapaction: '"urn:SampleWebserviceAction"' };
const call = svcEval(['Q1'], ['yes']);

let received: unknown[];

function services(method: (args: unknown) => unknown): IServices {
  return {
    SampleWebservice: {
      SampleWebservicePort: {
        svcEval: (args: unknown) => {
          received.push(args);
          return method(args);
        },
      },
    },
  };
}

function soapServer(serviceObject: IServices | undefined, options: { handleNilAsNull?: boolean; preserveWhitespace?: boolean } = {}): Promise<Server> {
  received = [];
  return new Promise((resolve, reject) => {
    const server = listen(null, {
      path: '/survey',
      xml: renderWsdl('http://localhost/survey'),
      services: serviceObject as IServices,
      ...options,
      callback: (error: unknown) => (error ? reject(new Error('WSDL not read')) : resolve(server)),
    });
  });
}

const answered = { svcEvalResponse: 'accepted' };

test('SOAP-encoded arrays are not decoded: the handler sees the item elements as objects', async () => {
  const server = await soapServer(services(() => answered));
  await server.processRequest(call, { headers: SOAP_ACTION });
  expect(received).toEqual([
    {
      question_texts: {
        attributes: { 'SOAP-ENC:arrayType': 'xsd:string[1]', 'xsi:type': 'ns1:ArrayOfstring' },
        item: { attributes: { 'xsi:type': 'xsd:string' }, $value: 'Q1' },
      },
      answers: {
        attributes: { 'SOAP-ENC:arrayType': 'xsd:string[1]', 'xsi:type': 'ns1:ArrayOfstring' },
        item: { attributes: { 'xsi:type': 'xsd:string' }, $value: 'yes' },
      },
    },
  ]);
});

test('xsi:nil items are dropped, shifting positions, unless handleNilAsNull is on', async () => {
  const body = svcEval(['Q1', 'Q2'], [null, 'yes']);
  const yes = { attributes: { 'xsi:type': 'xsd:string' }, $value: 'yes' };
  const answersSeen = async (options: { handleNilAsNull?: boolean }) => {
    const server = await soapServer(services(() => answered), options);
    await server.processRequest(body, { headers: SOAP_ACTION });
    return (received[0] as { answers: { item: unknown } }).answers.item;
  };
  expect(await answersSeen({})).toEqual(yes);
  expect(await answersSeen({ handleNilAsNull: true })).toEqual([null, yes]);
});

test('text is trimmed, and the preserveWhitespace option is ignored when passed to the server', async () => {
  const server = await soapServer(services(() => answered), { preserveWhitespace: true });
  await server.processRequest(svcEval(['Q1'], [' yes ']), { headers: SOAP_ACTION });
  expect((received[0] as { answers: { item: { $value: string } } }).answers.item.$value).toBe('yes');
});

test('text split by a CDATA section or a comment keeps only its last part when the element has attributes', async () => {
  // No known survey client writes this (PHP and the package's own client escape instead); documented.
  const server = await soapServer(services(() => answered));
  const body = svcEval(['Q1'], ['@']).replace('>@<', '>a<![CDATA[<b>]]>c<');
  await server.processRequest(body, { headers: SOAP_ACTION });
  expect((received[0] as { answers: { item: { $value: string } } }).answers.item.$value).toBe('c');
});

test('a handler returning a bare string has it serialised character by character', async () => {
  const server = await soapServer(services(() => 'ok'));
  const reply = await server.processRequest(call, { headers: SOAP_ACTION });
  expect(reply.statusCode).toBe(200);
  expect(reply.body).toContain('<tns:svcEvalResponse><tns:0>o</tns:0><tns:1>k</tns:1></tns:svcEvalResponse>');
});

test('services not nested as service > port > operation give an empty 200 without calling anything', async () => {
  const server = await soapServer({ svcEval: () => answered } as unknown as IServices);
  const reply = await server.processRequest(call, { headers: SOAP_ACTION });
  expect(reply.statusCode).toBe(200);
  expect(reply.body).toContain('<soap:Body/>');
});

test('an empty body with the right SOAPAction runs the handler with no arguments', async () => {
  const server = await soapServer(services(() => answered));
  const reply = await server.processRequest('', { headers: SOAP_ACTION });
  expect(reply.statusCode).toBe(200);
  expect(received).toEqual([undefined]);
});

test('a wrong SOAPAction ends in a TypeError inside a SOAP 1.2-shaped fault', async () => {
  const server = await soapServer(services(() => answered));
  const reply = await server.processRequest(call, { headers: { soapaction: '"urn:Other"' } });
  expect(reply.statusCode).toBe(500);
  expect(reply.body).toContain('<soap:Code><soap:Value>SOAP-ENV:Server</soap:Value>');
  expect(reply.body).toContain('TypeError');
  expect(received).toEqual([]);
});

test('an unknown operation is answered with a stack trace naming files on the server', async () => {
  const server = await soapServer(services(() => answered));
  const reply = await server.processRequest(envelope('<ns1:other/>'), { headers: SOAP_ACTION });
  expect(reply.statusCode).toBe(500);
  expect(reply.body).toMatch(/^TypeError: .*\n\s+at .*node_modules\/soap\//);
});

test('a thrown error becomes a SOAP 1.2 Code/Reason fault carrying its message, which PHP reads as empty', async () => {
  const server = await soapServer(
    services(() => {
      throw new Error('secret detail');
    }),
  );
  const reply = await server.processRequest(call, { headers: SOAP_ACTION });
  expect(reply.statusCode).toBe(500);
  expect(reply.body).toContain('<soap:Reason><soap:Text>Error: secret detail</soap:Text></soap:Reason>');
  expect(reply.body).not.toContain('<faultcode>');
});

test('the dispatcher turns a request the package answered without calling svcEval into an error, not a response', async () => {
  const dispatcher = svcEvalDispatcher('/survey');
  const answer = jest.fn(() => Promise.resolve('accepted'));
  await expect(dispatcher.dispatch('<not-closed', answer)).rejects.toThrow(/^the soap package answered 500 without calling svcEval: /);
  expect(answer).not.toHaveBeenCalled();
  await expect(dispatcher.dispatch(call, answer)).resolves.toContain('<tns:svcEvalResponse>accepted</tns:svcEvalResponse>');
});
