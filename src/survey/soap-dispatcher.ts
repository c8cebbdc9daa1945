import { AsyncLocalStorage } from 'node:async_hooks';
import { Server, WSDL, type IServerOptions } from 'soap';
import { ATTRIBUTES_KEY, VALUE_KEY } from './soap-values';
import { renderWsdl, SURVEY_SERVICE } from './wsdl';

/** Turns svcEval's parsed arguments into the response string; rejects with the error to answer instead. */
export type AnswerSvcEval = (args: unknown) => Promise<string>;

/** What happened to one request inside the soap package, which reports nothing of it itself. */
interface Exchange {
  readonly answer: AnswerSvcEval;
  outcome: { readonly answered: true } | { readonly answered: false; readonly error: unknown } | undefined;
}

export interface SvcEvalDispatcher {
  /**
   * Has the soap package parse a checked svcEval envelope, call `answer` with the arguments and write
   * the response envelope, which it returns. Rejects with the error `answer` rejected with; a request
   * the soap package answered without calling svcEval rejects with a plain Error (a server fault).
   */
  dispatch(xml: string, answer: AnswerSvcEval): Promise<string>;
}

function openSoapServer(path: string, exchanges: AsyncLocalStorage<Exchange>): Promise<Server> {
  const svcEval = async (args: unknown): Promise<{ svcEvalResponse: string }> => {
    const exchange = exchanges.getStore();
    if (exchange === undefined) throw new Error('svcEval was called outside a dispatched request');
    try {
      const response = await exchange.answer(args);
      exchange.outcome = { answered: true };
      // A bare string would be serialised character by character; the package wants the part by name.
      return { svcEvalResponse: response };
    } catch (error) {
      exchange.outcome = { answered: false, error };
      throw error;
    }
  };
  const options = {
    path,
    services: { [SURVEY_SERVICE.service]: { [SURVEY_SERVICE.port]: { [SURVEY_SERVICE.operation]: svcEval } } },
    attributesKey: ATTRIBUTES_KEY,
    valueKey: VALUE_KEY,
    // Keeps positions in arrays: without it the package drops xsi:nil items.
    handleNilAsNull: true,
    suppressStack: true,
  } satisfies Omit<IServerOptions, 'callback'>;
  return new Promise((resolve, reject) => {
    // The WSDL given to the package only routes requests; clients get one rendered per request.
    const wsdl = new WSDL(renderWsdl(`http://localhost${path}`), '', options);
    // The package trims every text value (' yes ' would pass for 'yes') and ignores this option when it
    // is passed to the constructor, so it is set on the parsed options directly.
    wsdl.options.preserveWhitespace = true;
    const server = new Server(null, path, options.services, wsdl, {
      ...options,
      callback: (error: unknown) =>
        error ? reject(error instanceof Error ? error : new Error('the survey WSDL could not be read')) : resolve(server),
    });
  });
}

/** The soap package, used through its serverless entry point so that the HTTP side stays ours. */
export function svcEvalDispatcher(path: string): SvcEvalDispatcher {
  const exchanges = new AsyncLocalStorage<Exchange>();
  let server: Promise<Server> | undefined;
  return {
    async dispatch(xml, answer) {
      // Opened on first use, so that createApp stays synchronous; the WSDL is ready within a tick.
      server ??= openSoapServer(path, exchanges);
      const soap = await server;
      const exchange: Exchange = { answer, outcome: undefined };
      const reply = await exchanges.run(exchange, () =>
        soap.processRequest(xml, { url: path, method: 'POST', headers: { soapaction: SURVEY_SERVICE.soapAction } }),
      );
      const { outcome } = exchange;
      if (outcome !== undefined && !outcome.answered) throw outcome.error;
      if (outcome === undefined || reply.statusCode !== 200) {
        throw new Error(`the soap package answered ${reply.statusCode} without calling svcEval: ${reply.body.slice(0, 500)}`);
      }
      return reply.body;
    },
  };
}
