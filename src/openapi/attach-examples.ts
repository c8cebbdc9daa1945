import type { ExampleExchange } from '../http/openapi/examples';

/** The parts of a generated document that examples go into, read loosely: the generator's types are a union of three versions. */
interface ExampleObject {
  summary: string;
  description?: string;
  value: unknown;
}
interface MediaTypeObject {
  examples?: Record<string, ExampleObject>;
}
interface ParameterObject {
  name: string;
  in: string;
  examples?: Record<string, ExampleObject>;
}
interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, MediaTypeObject> };
  responses: Record<string, { content?: Record<string, MediaTypeObject> }>;
}
export interface DocumentWithPaths {
  paths?: Record<string, object>;
}

/** Statuses that say the request broke the document: malformed (400), too large (413), of a media type not taken (415). */
const REFUSED_REQUESTS: ReadonlySet<number> = new Set([400, 413, 415]);

function operations(document: DocumentWithPaths): Map<string, OperationObject> {
  const byId = new Map<string, OperationObject>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item) as OperationObject[]) {
      if (operation.operationId !== undefined) byId.set(operation.operationId, operation);
    }
  }
  return byId;
}

function add(target: { examples?: Record<string, ExampleObject> }, name: string, example: ExampleObject, where: string): void {
  const examples = (target.examples ??= {});
  if (examples[name] !== undefined) throw new Error(`two examples named ${name} in ${where}`);
  examples[name] = example;
}

/**
 * Puts each exchange where the document shows it: its path values and headers as parameter examples
 * (each value once) and its body as an example of its request media type, unless the server refused the
 * request as one the document does not allow; its answer as an example of the response.
 * An exchange that names something the document does not describe stops the start: an example must
 * illustrate the document, never stand beside it.
 */
export function attachExamples(document: DocumentWithPaths, exchanges: readonly ExampleExchange[]): void {
  const byId = operations(document);
  for (const exchange of exchanges) {
    const where = `${exchange.operationId} (example ${exchange.name})`;
    const operation = byId.get(exchange.operationId);
    if (operation === undefined) throw new Error(`no operation ${where}`);
    const values = [
      ...Object.entries(exchange.params ?? {}).map(([name, value]) => ({ name, value, location: 'path' })),
      ...Object.entries(exchange.headers ?? {}).map(([name, value]) => ({ name, value, location: 'header' })),
    ];
    const { status, mediaType, body, drawnAtRandom } = exchange.response;
    // A request example is a request the document allows: one the server refused as malformed shows
    // only its answer, or a client generated from the document would send it as a valid request.
    const illustratesRequest = !REFUSED_REQUESTS.has(status);
    for (const { name, value, location } of values) {
      const parameter = operation.parameters?.find((candidate) => candidate.name === name && candidate.in === location);
      if (parameter === undefined) throw new Error(`no ${location} parameter ${name} in ${where}`);
      if (illustratesRequest && !Object.values(parameter.examples ?? {}).some((example) => example.value === value)) {
        add(parameter, exchange.name, { summary: exchange.summary, value }, where);
      }
    }
    if (exchange.body !== undefined && illustratesRequest) {
      const media = operation.requestBody?.content[exchange.body.mediaType];
      if (media === undefined) throw new Error(`no request body of ${exchange.body.mediaType} in ${where}`);
      add(media, exchange.name, { summary: exchange.summary, value: exchange.body.value }, where);
    }
    const response = operation.responses[String(status)];
    if (response === undefined) throw new Error(`no response ${status} in ${where}`);
    if (mediaType === undefined) continue;
    const media = response.content?.[mediaType];
    if (media === undefined) throw new Error(`no ${mediaType} response ${status} in ${where}`);
    const random = drawnAtRandom === true ? { description: 'Drawn at random: each call gets other values of this form.' } : {};
    add(media, exchange.name, { summary: exchange.summary, ...random, value: body }, where);
  }
}
