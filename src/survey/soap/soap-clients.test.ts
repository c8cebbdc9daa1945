import { loadFixtureOnce } from '../../../test/support/survey-handler';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { describeWith } from '../../../test/support/real-programs';
import { runSoapClients, SOAP_CLIENTS, type PhpCall, type SoapClientName, type SoapOperation } from '../../../test/survey-clients/support';

/*
 * The state table of specification.md §3.2 through each real SOAP client a survey system is written with (PHP's
 * SoapClient, zeep, suds), built from each WSDL (svcEval's and plumEval's), on pages of 0, 1 and many
 * questions: every client sends an empty array its own way (suds leaves the part out).
 */

const echoHandler = loadFixtureOnce('echo-handler.js');

const WSDL_PATHS: Readonly<Record<SoapOperation, string>> = { svcEval: '/survey?wsdl', plumEval: '/survey/plum?wsdl' };

let server: TestServer;

afterEach(() => server.close());

const clients = Object.keys(SOAP_CLIENTS) as SoapClientName[];
const operations: readonly SoapOperation[] = ['svcEval', 'plumEval'];

/** plumEval's calls carry the parts a phone survey sends (session_id from the survey system); svcEval's only the arrays. */
function page(operation: SoapOperation, answers: readonly string[], sessionId: string): PhpCall {
  const arrays = { question_texts: answers.map((_, index) => `Question ${index + 1}`), answers };
  return operation === 'plumEval' ? { ...arrays, ani_ip: '+16175550123', dnis: '18005550100', session_id: sessionId } : arrays;
}

for (const client of clients) {
  describeWith(SOAP_CLIENTS[client].program)(client, () => {
    test.each(operations)('follows the state table through %s with pages of 0, 1 and many questions', async (operation) => {
      server = await startTestServer();
      const survey = (answers: readonly (readonly string[])[], sessionId: string) => answers.map((page_) => page(operation, page_, sessionId));
      const [first, second] = await runSoapClients(
        client,
        `${server.url}${WSDL_PATHS[operation]}`,
        [
          survey([[], ['no'], ['no', 'yes', 'maybe'], [], ['yes'], ['no', 'no', 'no'], ['maybe', 'yes']], 'respondent-1'),
          survey([['yes', 'no']], 'respondent-2'),
        ],
        operation,
      );
      expect(first?.results).toEqual(
        ['rejected', 'rejected', 'accepted', 'rejected', 'accepted again', 'rejected', 'accepted again'].map((response) => ({ response })),
      );
      expect(second?.results).toEqual([{ response: 'accepted' }]);
    });

    test('sends plumEval all five parts, a null dnis (a web survey) arriving as absent', async () => {
      server = await startTestServer({}, { surveyHandler: echoHandler });
      const texts = ['Grüße & <tags>', 'Record a message'];
      const answers = ['"quoted" 日本語 😀', 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA='];
      const [run] = await runSoapClients(
        client,
        `${server.url}${WSDL_PATHS.plumEval}`,
        [[{ question_texts: texts, answers, ani_ip: '198.51.100.4', session_id: 'web-7' }]],
        'plumEval',
      );
      const seen = run?.results.map((result): unknown => ('response' in result ? JSON.parse(result.response) : result));
      expect(seen).toEqual([{ questionTexts: texts, answers, aniIp: '198.51.100.4', sessionId: 'web-7' }]);
    });
  });
}
