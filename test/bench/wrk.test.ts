import { checkGenerator } from '../../bench/load';
import { commandLine, parseWrk, prepareLoad } from '../../bench/wrk';

/** wrk 4.1.0's report (Debian's package), as printed with --latency against a server that sometimes answered 404 or dropped the connection. */
const WITH_ERRORS = `Running 1s test @ http://127.0.0.1:18081/
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   760.72us    1.84ms  31.94ms   94.58%
    Req/Sec    24.64k    12.79k   36.89k    72.73%
  Latency Distribution
     50%  295.00us
     75%  551.00us
     90%    1.50ms
     99%    7.30ms
  26942 requests in 1.10s, 3.27MB read
  Socket errors: connect 0, read 34, write 0, timeout 0
  Non-2xx or 3xx responses: 539
Requests/sec:  24501.93
Transfer/sec:      2.98MB
`;

/** The same report without errors, a percentile in seconds (values made up for the test). */
const CLEAN = `Running 3s test @ http://127.0.0.1:41793/api/events/20250101/20251231/day/ALL
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    13.02ms    2.10ms  1.02s    98.00%
    Req/Sec     3.88k   210.00     4.10k    80.00%
  Latency Distribution
     50%   12.50ms
     75%   13.10ms
     90%   14.00ms
     99%    1.20s
  11640 requests in 3.00s, 447.00MB read
Requests/sec:   3879.41
Transfer/sec:    149.00MB
`;

describe("wrk's report", () => {
  test('gives the rate, the count and the latency percentiles in ms', () => {
    expect(parseWrk(CLEAN)).toEqual({ requestsPerSecond: 3879.41, requests: 11640, latencyMs: { p50: 12.5, p75: 13.1, p90: 14, p99: 1200 } });
  });

  test('makes a run with non-2xx answers or socket errors invalid, saying which', () => {
    const result = parseWrk(WITH_ERRORS);
    expect(result.latencyMs.p50).toBeCloseTo(0.295);
    expect(result.invalid).toBe('539 non-2xx or 3xx answers, socket errors: connect 0, read 34, write 0, timeout 0');
  });

  test('is refused when it has no rate', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:18089 Connection refused')).toThrow(/no Requests\/sec/);
  });
});

describe('the command line', () => {
  test('pins wrk to core 1 and POSTs a body through a Lua script', () => {
    const line = commandLine(prepareLoad({ url: 'http://127.0.0.1:1/survey', headers: { SOAPAction: '"urn:A"' }, body: '<x/>' }, 50), 3);
    expect(line).toMatch(/^taskset -c 1 wrk -t1 -c50 -d3s --latency -H 'SOAPAction: "urn:A"' -s \S+\.lua http:\/\/127\.0\.0\.1:1\/survey$/);
  });
});

describe('the generator check', () => {
  test('passes when the ceiling is at least twice the fastest server, by medians', () => {
    const check = checkGenerator('answer', [30_000, 31_000, 10], { slow: [1000, 1000, 1000], fast: [4000, 5000, 6000] });
    expect(check).toMatchObject({ ceiling: 30_000, fastest: 5000, fastestServer: 'fast', multiple: 6, lowestRound: 10 / 6000, pass: true });
    expect(checkGenerator('answer', [9000], { fast: [5000] }).pass).toBe(false);
  });
});
