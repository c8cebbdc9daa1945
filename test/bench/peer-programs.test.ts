import { answerFromExamples } from '../../bench/peer-programs';

/** What `mockoon-cli import` makes of a route: the schema's templated answer first and default, then one response per example. */
const response = (statusCode: number, label: string, isDefault = false) => ({ statusCode, label, default: isDefault, disableTemplating: false });

const document = {
  paths: {
    '/api/events/{start}/{end}/{period}/{phone}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { examples: { days: {}, other: {} } } } },
          '401': { content: { 'application/json': { examples: { withoutCredentials: {} } } } },
        },
      },
    },
    '/api/auth': { post: { responses: { '400': { content: { 'application/json': { examples: { invalidTool: {} } } } } } } },
  },
};

describe("Mockoon's environment made to answer from the document's examples", () => {
  it("makes the first example of the route's first 2xx answer its default, templating off, and leaves the other responses as imported", () => {
    const environment = answerFromExamples(
      {
        routes: [
          {
            method: 'get',
            endpoint: 'api/events/:start/:end/:period/:phone',
            responses: [response(200, 'The report', true), response(200, 'days'), response(200, 'other'), response(401, 'withoutCredentials')],
          },
        ],
      },
      document,
    );
    expect(environment.routes[0]?.responses).toEqual([
      response(200, 'The report'),
      { ...response(200, 'days', true), disableTemplating: true },
      response(200, 'other'),
      response(401, 'withoutCredentials'),
    ]);
  });

  it('leaves a route with no example of a 2xx answer as imported', () => {
    const responses = [response(200, 'The temporary credentials', true), response(400, 'invalidTool')];
    const environment = answerFromExamples({ routes: [{ method: 'post', endpoint: 'api/auth', responses: responses.map((one) => ({ ...one })) }] }, document);
    expect(environment.routes[0]?.responses).toEqual(responses);
  });
});
