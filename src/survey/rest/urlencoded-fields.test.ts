import busboy from 'busboy';
import { Random } from '../../../test/oracle/random';
import { PIECED_TEXT_LENGTH } from '../text-pieces';
import { MalformedForm, UrlencodedFieldReader, type UrlencodedLimits } from './urlencoded-fields';

type Fields = Array<[name: string, value: string, truncated: boolean]> | 'malformed';

const LIMITS: UrlencodedLimits = { maxNameBytes: 100, maxValueBytes: 40 * 1024 * 1024 };

/** The body cut at `cuts` (offsets), as a socket may deliver it. */
function chunksOf(body: Buffer, cuts: readonly number[]): Buffer[] {
  const offsets = [0, ...[...cuts].sort((a, b) => a - b), body.length];
  return offsets.slice(1).map((end, index) => body.subarray(offsets[index], end));
}

function readWithBusboy(chunks: readonly Buffer[], limits: UrlencodedLimits): Promise<Fields> {
  return new Promise((resolve) => {
    const fields: Array<[string, string, boolean]> = [];
    const parser = busboy({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      limits: { fieldSize: limits.maxValueBytes, fieldNameSize: limits.maxNameBytes },
    });
    parser.on('field', (name, value, info) => fields.push([name, value, info.valueTruncated]));
    parser.on('error', () => resolve('malformed'));
    parser.on('close', () => resolve(fields));
    for (const chunk of chunks) parser.write(chunk);
    parser.end();
  });
}

function readWithReader(chunks: readonly Buffer[], limits: UrlencodedLimits): Fields {
  const fields: Array<[string, string, boolean]> = [];
  const reader = new UrlencodedFieldReader(limits, ({ name, value, valueTruncated }) => fields.push([name, value, valueTruncated]));
  try {
    for (const chunk of chunks) reader.write(chunk);
    reader.end();
  } catch (error) {
    if (error instanceof MalformedForm) return 'malformed';
    throw error;
  }
  return fields;
}

/** What a form may hold: plain and escaped bytes, multi-byte UTF-8 escaped and raw, a BOM, separators. */
const TOKENS: readonly string[] = [
  'a', 'Q', '0', '+', '=', '&', '&&', '%20', '%2B', '%26', '%3D', '%C3%A9', '%c3%a9', '%F0%9F%98%80', '%E2%82', '%AC', '%EF%BB%BF',
  '%C3', '%FF', 'answers[]', 'answers[0]',
];
/** Bytes busboy leaves undecoded (it reads a token's raw bytes as Latin-1 unless an escape above 0x7F is in it). */
const RAW_UTF8: readonly string[] = ['é', '😀', '\uFEFF'];
const MALFORMED: readonly string[] = ['%', '%4', '%zz', '%g0'];

/**
 * The urlencoded parser of the WHATWG URL standard, step by step on bytes, as an oracle: split on &, skip
 * empty sequences, split on the first =, + to a space, percent-decode, UTF-8 decode without BOM. Less the
 * pairs of no name and no value ('='), which busboy skips, and a form has no use for; a name kept to its
 * first 100 bytes, as busboy keeps it.
 */
function readByTheStandard(body: Buffer): Fields {
  const decode = (bytes: Buffer, limit = Infinity): string => {
    const decoded: number[] = [];
    for (let index = 0; index < bytes.length; index += 1) {
      const byte = bytes[index] as number;
      const hex = bytes.subarray(index + 1, index + 3).toString('latin1');
      if (byte === 0x25 && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        decoded.push(parseInt(hex, 16));
        index += 2;
      } else {
        decoded.push(byte === 0x2b ? 0x20 : byte);
      }
    }
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(Uint8Array.from(decoded.slice(0, limit)));
  };
  const fields: Array<[string, string, boolean]> = [];
  let start = 0;
  while (start <= body.length) {
    const end = body.indexOf(0x26, start) === -1 ? body.length : body.indexOf(0x26, start);
    const sequence = body.subarray(start, end);
    start = end + 1;
    if (sequence.length === 0) continue;
    const equals = sequence.indexOf(0x3d);
    const name = equals === -1 ? sequence : sequence.subarray(0, equals);
    const value = equals === -1 ? Buffer.alloc(0) : sequence.subarray(equals + 1);
    if (name.length > 0 || value.length > 0) fields.push([decode(name, LIMITS.maxNameBytes), decode(value), false]);
  }
  return fields;
}

function randomBody(random: Random, tokens: readonly string[]): Buffer {
  return Buffer.from(Array.from({ length: random.int(0, 40) }, () => tokens[random.int(0, tokens.length - 1)]).join(''));
}

function randomCuts(random: Random, length: number): number[] {
  return Array.from({ length: random.int(0, Math.min(length, 6)) }, () => random.int(0, length));
}

describe('a UTF-8 urlencoded form read as it arrives', () => {
  test.each([
    ['names and values, + as a space, escapes', 'question_texts%5B%5D=Q+1&answers[]=caf%C3%A9+%26+cr%C3%A8me'],
    ['a name with no =, an empty value, empty pairs skipped', 'a&b=&&=&c=3'],
    ['a value holding =', 'a=b=c'],
    ['broken UTF-8 escaped, and a BOM kept', 'a=%C3&b=%EF%BB%BFx&c=%FF'],
  ])('as busboy and the standard read it, wherever the body is cut: %s', async (_name, form) => {
    const body = Buffer.from(form);
    for (let cut = 0; cut <= body.length; cut += 1) {
      const chunks = chunksOf(body, [cut]);
      expect([readWithReader(chunks, LIMITS), await readWithBusboy(chunks, LIMITS)]).toEqual([readByTheStandard(body), readByTheStandard(body)]);
    }
  });

  test.each([
    ['an escape cut by the end of the body', 'a=%4'],
    ['a lone % at the end', 'a=1&b=%'],
    ['an escape that is not hex', 'a=%zz&b=1'],
  ])('refuses a malformed escape as busboy does, wherever the body is cut: %s', async (_name, form) => {
    const body = Buffer.from(form);
    for (let cut = 0; cut <= body.length; cut += 1) {
      const chunks = chunksOf(body, [cut]);
      expect([readWithReader(chunks, LIMITS), await readWithBusboy(chunks, LIMITS)]).toEqual(['malformed', 'malformed']);
    }
  });

  test('reads raw UTF-8 as the standard does, where busboy leaves it as Latin-1', async () => {
    const chunks = [Buffer.from('answers[]=café+😀&q=%C3%A9é')];
    expect(readWithReader(chunks, LIMITS)).toEqual([['answers[]', 'café 😀', false], ['q', 'éé', false]]);
    expect(await readWithBusboy(chunks, LIMITS)).toEqual([['answers[]', 'cafÃ© ð\x9F\x98\x80', false], ['q', 'éé', false]]);
  });

  test('agrees with the standard on 2,000 generated forms cut into chunks at random, and with busboy where busboy decodes', async () => {
    const random = new Random(20_261_129);
    for (let form = 0; form < 2_000; form += 1) {
      const raw = form % 2 === 0;
      const body = randomBody(random, raw ? [...TOKENS, ...RAW_UTF8] : TOKENS);
      const chunks = chunksOf(body, randomCuts(random, body.length));
      const expected = { body: body.toString('latin1'), fields: readByTheStandard(body) };
      expect({ body: expected.body, fields: readWithReader(chunks, LIMITS) }).toEqual(expected);
      // Busboy whole, with an & after it: it drops a field whose only byte is an escape that ends a chunk.
      if (!raw) expect({ body: expected.body, fields: await readWithBusboy([Buffer.concat([body, Buffer.from('&')])], LIMITS) }).toEqual(expected);
    }
  });

  test('refuses a form with a malformed escape wherever busboy does, in 500 generated forms', async () => {
    const random = new Random(4_242);
    for (let form = 0; form < 500; form += 1) {
      const chunks = chunksOf(randomBody(random, [...TOKENS, ...MALFORMED]), randomCuts(random, 40));
      expect(readWithReader(chunks, LIMITS) === 'malformed').toBe((await readWithBusboy(chunks, LIMITS)) === 'malformed');
    }
  });

  test('reports a value past its bytes truncated, as busboy does', async () => {
    const limits = { maxNameBytes: 100, maxValueBytes: 8 };
    const random = new Random(7);
    for (let form = 0; form < 500; form += 1) {
      // Each field ends with an &: busboy drops a field whose only byte is an escape that ends a chunk.
      const chunks = [Buffer.concat([randomBody(random, TOKENS), Buffer.from('&')])];
      const truncation = (fields: Fields) => (fields === 'malformed' ? fields : fields.map(([name, value, truncated]) => (truncated ? [name, true] : [name, value])));
      expect(truncation(readWithReader(chunks, limits))).toEqual(truncation(await readWithBusboy(chunks, limits)));
    }
  });

  test('keeps a long value in the pieces it came in, which make the value; a short one has none', () => {
    const fields: Array<{ value: string; pieces: readonly string[] | undefined }> = [];
    const reader = new UrlencodedFieldReader(LIMITS, ({ value, pieces }) => fields.push({ value, pieces }));
    const long = 'ab'.repeat(PIECED_TEXT_LENGTH);
    const body = Buffer.from(`short=x&long=${long}`);
    for (const chunk of chunksOf(body, Array.from({ length: 8 }, (_unused, index) => (index + 1) * 65_536))) reader.write(chunk);
    reader.end();
    expect(fields[0]).toEqual({ value: 'x', pieces: undefined });
    expect(fields[1]?.value).toBe(long);
    expect(fields[1]?.pieces?.length).toBe(9);
    expect(fields[1]?.pieces?.join('')).toBe(long);
  });
});
