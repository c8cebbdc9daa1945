import { requestsLine } from './summary';

describe('requestsLine', () => {
  test('says a run fits in one window when the source allows as many requests as it needs', () => {
    expect(requestsLine({ requests: 120, logins: 1, limit: 150 })).toBe(
      '120 data requests to the source (and 1 login), which allows 150 a window: a run fits in one of its rate-limit windows',
    );
  });

  test('counts the windows a run spans, and the waiting at the reference\'s 15-minute windows', () => {
    expect(requestsLine({ requests: 560, logins: 2, limit: 150 })).toBe(
      '560 data requests to the source (and 2 logins), which allows 150 a window: a run spans 4 of its windows: about 45 minutes of waiting at 15-minute windows',
    );
  });

  test('says when the source sent no limit', () => {
    expect(requestsLine({ requests: 1, logins: 1, limit: undefined })).toBe('1 data request to the source (and 1 login); it sent no X-RateLimit-Limit');
  });
});
