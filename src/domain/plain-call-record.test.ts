import fc from 'fast-check';
import { callRecordSchema } from './call-record';
import { readPlainCallRecord } from './plain-call-record';

/** Texts near every edge the schema draws: length in code points, control characters, surrogates alone and paired. */
const awkwardCharacter = fc.constantFrom('\u0000', '\u001f', ' ', '~', '\u007f', '\u0085', '\u009f', '\u00a0', 'é', '\ud800', '\udfff', '😀', '\ud83d', '\uffff', '\n', '"');
const plainCharacter = fc.constantFrom('a', 'Z', '0', '-', '_', ':', '.', '/', ' ');
/** Mostly what the schema takes, so that whole records often are; sometimes each kind of edge. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, edge: fc.Arbitrary<U>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: edge });

const text = (maxLength: number) =>
  mostly(
    fc.string({ unit: plainCharacter, minLength: 1, maxLength: 40 }),
    fc.oneof(
    fc.string({ unit: fc.oneof(plainCharacter, awkwardCharacter), maxLength: 12 }),
    fc.tuple(fc.integer({ min: maxLength - 2, max: maxLength + 1 }), fc.constantFrom('a', 'é', '😀')).map(([length, unit]) => unit.repeat(Math.max(length, 0))),
    fc.tuple(fc.string({ unit: plainCharacter, minLength: maxLength - 2, maxLength: maxLength }), fc.constantFrom('😀', 'é', '')).map(([opening, end]) => opening + end),
    fc.constant(''),
    ),
  );

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const phone = mostly(
  digits(1, 15),
  fc.oneof(
  digits(1, 16).map((number) => `+${number}`),
  digits(10, 10),
  fc.constantFrom('', '+', '++1', '1 2', '１２３', '٣', '12\n', '\n12', '+-1', '1e5', '0x1'),
  fc.string({ unit: fc.constantFrom('+', '1', ' ', 'a'), maxLength: 17 }),
  ),
);

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const validInstant = fc
  .record({
    year: fc.integer({ min: 1970, max: 2100 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    offset: fc.constantFrom('Z', '-05:00', '+0530'),
  })
  .map(({ year, month, day, hour, minute, offset }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:00${offset}`);
const instant = fc.oneof(
  { weight: 4, arbitrary: validInstant },
  fc
    .record({
      year: fc.integer({ min: 1960, max: 2200 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 25 }),
      minute: fc.integer({ min: 0, max: 60 }),
      second: fc.option(fc.integer({ min: 0, max: 60 })),
      fraction: fc.option(digits(0, 10)),
      offset: fc.constantFrom('Z', 'z', '+00:00', '-05:00', '+0530', '+18:00', '+19:00', '-00:60', '', '+5'),
      separator: fc.constantFrom('T', 't', ' '),
    })
    .map(
      ({ year, month, day, hour, minute, second, fraction, offset, separator }) =>
        `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}${separator}${pad(hour, 2)}:${pad(minute, 2)}` +
        `${second === null ? '' : `:${pad(second, 2)}${fraction === null ? '' : `.${fraction}`}`}${offset}`,
    ),
  fc.string({ maxLength: 30 }),
);

const number = fc.oneof(
  fc.integer({ min: 0, max: 1_000 }),
  fc.constantFrom(0, -0, -1, 0.5, 1.5, 999_999.9995, 1_000_000, 1_000_000.001, 1e9, 1e9 + 1, 2 ** 53, Number.NaN, Infinity, -Infinity),
  fc.double({ min: 0, max: 2e6, noNaN: true }),
  fc.double(),
);
const notANumber = fc.constantFrom<unknown>('1', null, true, [], {}, undefined);
const count = fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 50 }) }, { weight: 2, arbitrary: number }, { weight: 1, arbitrary: notANumber });
const seconds = fc.oneof({ weight: 20, arbitrary: fc.double({ min: 0, max: 3_600, noNaN: true }) }, { weight: 2, arbitrary: number }, { weight: 1, arbitrary: notANumber });

/** Sometimes something else than the field should be: another type, null, undefined. */
const orOther = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 30, arbitrary }, { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, 1, 'x', [], {}, ['x']) });

const pathStepFields = {
  application: orOther(text(500)),
  page: orOther(text(500)),
  form: orOther(text(500)),
  item: orOther(text(500)),
  visits: count,
  filled: count,
  nomatch: count,
  noinput: count,
  transfer: count,
  disconnect: count,
};
const pathStep = fc.oneof(
  { weight: 8, arbitrary: fc.record(pathStepFields, { requiredKeys: ['application', 'page', 'form', 'item'], noNullPrototype: true }) },
  { weight: 1, arbitrary: fc.record(pathStepFields, { requiredKeys: [], noNullPrototype: true }) },
  { weight: 1, arbitrary: fc.record({ ...pathStepFields, extra: fc.constant(1) }, { requiredKeys: ['application', 'page', 'form', 'item', 'extra'], noNullPrototype: true }) },
);

const recordFields = {
  call_id: orOther(text(200)),
  phone: orOther(phone),
  started_at: orOther(instant),
  log_events: count,
  loops: count,
  form_items: count,
  caller: orOther(phone),
  duration_seconds: seconds,
  transfers: count,
  transfer_seconds: seconds,
  js_errors: count,
  fetch_errors: count,
  page_loads: count,
  page_load_seconds: seconds,
  path: orOther(fc.array(orOther(pathStep), { maxLength: 4 })),
};
const REQUIRED = ['call_id', 'phone', 'started_at', 'log_events', 'loops', 'form_items'] as const;
const record = fc.oneof(
  { weight: 8, arbitrary: fc.record(recordFields, { requiredKeys: [...REQUIRED], noNullPrototype: true }) },
  { weight: 1, arbitrary: fc.record(recordFields, { requiredKeys: [], noNullPrototype: true }) },
  {
    weight: 1,
    // A computed key: `__proto__` becomes a field of its own, as JSON.parse makes it.
    arbitrary: fc
      .tuple(fc.record(recordFields, { requiredKeys: [...REQUIRED], noNullPrototype: true }), fc.constantFrom('extra', '__proto__', 'Call_id', 'path '))
      .map(([fields, key]) => ({ ...fields, [key]: 1 })),
  },
);
const anyValue = fc.oneof({ weight: 10, arbitrary: record }, { weight: 1, arbitrary: fc.anything() });

/** The same record as an import reads it: through JSON, where undefined fields disappear and -0 stays. */
const throughJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

function agreesWithSchema(value: unknown): void {
  const fast = readPlainCallRecord(value);
  if (fast === undefined) return;
  const parsed = callRecordSchema.safeParse(value);
  expect(parsed.success).toBe(true);
  expect(fast).toStrictEqual(parsed.data);
}

describe('the plain reading of a call record gives what callRecordSchema gives, or leaves the record to it', () => {
  test('on generated records, valid and not, as given and as read from JSON', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        agreesWithSchema(value);
        agreesWithSchema(throughJson(value));
      }),
      { numRuns: 20_000 },
    );
  });

  test('a record of plain fields, version 1 or 2, is read without the schema', () => {
    const plainStep = fc.record(
      {
        application: fc.string({ unit: plainCharacter, minLength: 1, maxLength: 30 }),
        page: fc.constant('main'),
        form: fc.constant('menu'),
        item: fc.constant('choice'),
        visits: fc.integer({ min: 0, max: 5 }),
        noinput: fc.integer({ min: 0, max: 5 }),
      },
      { requiredKeys: ['application', 'page', 'form', 'item'], noNullPrototype: true },
    );
    const plainRecord = fc.record(
      {
        call_id: fc.string({ unit: fc.oneof(plainCharacter, fc.constantFrom('é', '\u00a0', '\uffff')), minLength: 1, maxLength: 200 }),
        phone: fc.oneof(digits(1, 15), digits(1, 15).map((number) => `+${number}`)),
        started_at: fc.constantFrom('2025-03-04T10:15:00-05:00', '2025-03-04T10:15Z', '1970-01-01T00:00:00.123456789+0100'),
        log_events: fc.integer({ min: 0, max: 1e9 }),
        loops: fc.integer({ min: 0, max: 1e9 }),
        form_items: fc.integer({ min: 0, max: 1e9 }),
        caller: digits(1, 15),
        duration_seconds: fc.double({ min: 0, max: 1e6, noNaN: true }),
        transfers: fc.nat(10),
        page_load_seconds: fc.double({ min: 0, max: 1e6, noNaN: true }),
        path: fc.array(plainStep, { maxLength: 5 }),
      },
      { requiredKeys: [...REQUIRED], noNullPrototype: true },
    );
    fc.assert(
      fc.property(plainRecord.map(throughJson), (value) => {
        const fast = readPlainCallRecord(value);
        expect(fast).toBeDefined();
        expect(fast).toStrictEqual(callRecordSchema.parse(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['an object without Object.prototype', Object.assign(Object.create(null) as object, { call_id: 'c' })],
    ['a field present as undefined', { call_id: 'c', phone: '1', started_at: '2025-03-04T10:15Z', log_events: 0, loops: 0, form_items: 0, caller: undefined }],
    ['a call id of a surrogate pair', { call_id: '😀', phone: '1', started_at: '2025-03-04T10:15Z', log_events: 0, loops: 0, form_items: 0 }],
  ])('leaves %s to the schema', (_name, value) => {
    expect(readPlainCallRecord(value)).toBeUndefined();
  });
});
