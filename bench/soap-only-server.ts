/**
 * The baseline of svcEval, in a process of its own: a server built only from the soap package, with the
 * same WSDL as the app's survey web service and the sample's answer. Announces its URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen as soapListen } from 'soap';
import type * as WsdlModule from '../src/survey/soap/wsdl';
import { compiled } from './compiled';
import { announce } from './processes';

async function main(): Promise<void> {
  const { renderWsdl } = await compiled<typeof WsdlModule>('survey/soap/wsdl');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const svcEval = (args: { answers?: { item?: unknown } }) => {
    const items = args.answers?.item;
    const answers = (Array.isArray(items) ? (items as unknown[]) : [items]).map((item): unknown =>
      typeof item === 'object' && item !== null ? (item as { $value?: unknown }).$value : item,
    );
    return { svcEvalResponse: answers.includes('yes') ? 'accepted' : 'rejected' };
  };
  soapListen(server, '/survey', { SampleWebservice: { SampleWebservicePort: { svcEval } } }, renderWsdl(`${url}/survey`, 'svcEval'));
  announce({ url: `${url}/survey` });
}

void main();
