import { leakIn } from './leaks';

describe("the fuzz test's leak check", () => {
  test.each([
    // FUZZ_SEED=2103897741's case 1410: a correct 400 quoting the request's start, whose escaped quote read as a Windows path.
    ['a quoted date ending in a letter and a colon', '{"error":"start \\"7H:\\" is not a real date in the form YYYYMMDD (from 19700101)"}'],
    ['a backslash quoted in a message', '{"error":"login \\"Q:\\\\x\\" is not valid"}'],
    ['a drive letter without a folder', '{"error":"C:\\\\"}'],
    ['a report', '{"calls":{"1517979600":3},"note":"at 10:15"}'],
    ['an XML error', '<?xml version="1.0" encoding="UTF-8"?><result><error>end 20180201 is earlier than start 20180207</error></result>'],
  ])('passes %s', (_name, body) => {
    expect(leakIn(body)).toBeUndefined();
  });

  test.each([
    ['a stack frame in a JSON message', '{"error":"TypeError: x is undefined\\n    at foo (/x/y.js:1:2)"}', '\n    at '],
    ['one stack frame alone', '{"error":"at foo (/x/y.js:1:2)"}', '(/x/y.js:1:2)'],
    ["one of Node's own frames", '{"error":"at Module._compile (node:internal/modules/cjs/loader:1521:14)"}', '(node:internal/modules/cjs/loader:1521:14)'],
    ['a Windows path in a JSON message', '{"error":"cannot open C:\\\\Users\\\\x"}', 'C:\\Users\\'],
    ['a Windows path in a key', '{"C:\\\\srv\\\\app":1}', 'C:\\srv\\'],
    ['a Windows path in XML', '<result><error>D:\\a\\repo\\dist</error></result>', 'D:\\a\\'],
    ['a source line', '{"error":"failed in route.ts:42"}', '.ts:42'],
    ['a dependency', 'Error\n  in node_modules', 'node_modules'],
    ['a server path', '{"error":"ENOENT /srv/ivr/data"}', '/srv/'],
  ])('finds %s', (_name, body, leak) => {
    expect(leakIn(body)).toBe(leak);
  });
});
