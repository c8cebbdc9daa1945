import { JSON_TYPE, XML_TYPE } from '../../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import { exampleRangePath } from '../query/examples';
import { rangePathSchema } from '../query/params';
import { FLOW_PATH, MAX_FLOW_ENTRIES } from './report';
import { flowBodySchema, flowXmlSchema } from './representation';

/** GET /api/path, declared with its answer in ./resource.ts. */
export const flowOperation = {
  operationId: 'getFlow',
  summary: 'Diagnostic flow',
  description: `The form items callers went through over the range, per application; a range of more than ${MAX_FLOW_ENTRIES} form items is a 400.`,
  expressPath: FLOW_PATH,
  params: rangePathSchema,
  json: flowBodySchema,
  xml: flowXmlSchema,
};

/** The session's calls went through two form items of its application. */
function flowXml(application: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><result><applications><application url="${application}">` +
    '<entry><page>main.vxml</page><form>main_menu</form><item>selection</item><visits>3</visits><filled>2</filled>' +
    '<nomatch>1</nomatch><noinput>0</noinput><transfer>0</transfer><disconnect>0</disconnect></entry>' +
    '<entry><page>billing.vxml</page><form>pay</form><item>amount</item><visits>1</visits><filled>1</filled>' +
    '<nomatch>0</nomatch><noinput>0</noinput><transfer>1</transfer><disconnect>0</disconnect></entry>' +
    '</application></applications></result>'
  );
}

export function flowExamples(session: ExampleSession): ExampleExchange[] {
  const flow = {
    applications: {
      [session.application]: [
        { page: 'main.vxml', form: 'main_menu', item: 'selection', visits: 3, filled: 2, nomatch: 1, noinput: 0, transfer: 0, disconnect: 0 },
        { page: 'billing.vxml', form: 'pay', item: 'amount', visits: 1, filled: 1, nomatch: 0, noinput: 0, transfer: 1, disconnect: 0 },
      ],
    },
  };
  const path = exampleRangePath(session);
  return [
    {
      name: 'range',
      summary: 'Two days, every number',
      operationId: 'getFlow',
      params: path,
      response: { status: 200, mediaType: JSON_TYPE, body: flow },
    },
    {
      name: 'rangeXml',
      summary: 'The same in XML',
      operationId: 'getFlow',
      params: path,
      response: { status: 200, mediaType: XML_TYPE, body: flowXml(session.application) },
    },
  ];
}
