import fc from 'fast-check';
import { createRequire } from 'node:module';
import { invalidValue, resolveSchema, validValue, type JsonSchema } from './schema-arbitraries';

/*
 * The arbitraries the OpenAPI conformance tests draw requests from, checked with ajv (draft 2020-12, as
 * the validator package runs it) on schemas like the document's: what is drawn as valid is valid, what is
 * drawn to break one constraint breaks that one and no other, and every constraint gets broken.
 * FUZZ_SEED=random draws from a new seed, shown in the tests' names; FUZZ_SEED=<that number> replays it.
 */
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = 200;
/** Enough draws to meet, from any seed, a constraint three schemas deep (one draw in a few hundred breaks it). */
const COVERAGE_DRAWS = 3_000;

/** A real calendar date YYYYMMDD from 19700101, leap days and all. */
const DATE =
  '^(?:(?:19[7-9][0-9]|[2-9][0-9]{3})(?:(?:0[1-9]|1[0-2])(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])(?:29|30)|(?:0[13578]|1[02])31)|' +
  '(?:19(?:7[26]|8[048]|9[26])|[2-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)0229)$';
const DATE_TIME =
  '^(?:(?:19[7-9][0-9]|[2-9][0-9]{3})-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)|' +
  '(?:19(?:7[26]|8[048]|9[26])|[2-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)-02-29)' +
  '[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?(?:[Zz]|[+-](?:0[0-9]|1[0-8]):?[0-5][0-9])$';
/** Text a store keeps as it is: no control character, no lone surrogate. */
const STORABLE_TEXT = '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';
const PHONE = '^\\+?(\\d{1,15})$';

const ROOT = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Tool: { type: 'string', enum: ['dev', 'fuse', 'insight', 'fuseplus'], description: 'The tool the account belongs to' },
      Login: { type: 'string', minLength: 1, maxLength: 200, pattern: STORABLE_TEXT, examples: ['alice'] },
      LoginAlias: { $ref: '#/components/schemas/Login', description: 'A $ref to a $ref' },
      AuthenticationRequest: {
        type: 'object',
        properties: {
          tool: { $ref: '#/components/schemas/Tool' },
          login: { $ref: '#/components/schemas/LoginAlias' },
          password: { type: 'string', minLength: 1, maxLength: 1024 },
        },
        'x-origin': 'an extension, ignored',
      },
      PathStep: {
        type: 'object',
        properties: {
          page: { type: 'string', minLength: 1, maxLength: 500, pattern: STORABLE_TEXT },
          visits: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 },
        },
        required: ['page'],
        additionalProperties: false,
      },
      Milliseconds: { type: 'integer', minimum: 0, maximum: 60_000 },
      Delay: {
        anyOf: [
          { type: 'integer', minimum: 1, maximum: 60_000 },
          {
            type: 'object',
            properties: { uniform: { type: 'array', prefixItems: [{ $ref: '#/components/schemas/Milliseconds' }, { $ref: '#/components/schemas/Milliseconds' }], items: false, minItems: 2, maxItems: 2 } },
            required: ['uniform'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { median: { type: 'integer', minimum: 1, maximum: 60_000 }, p99: { type: 'integer', minimum: 1, maximum: 60_000 } },
            required: ['median', 'p99'],
            additionalProperties: false,
          },
        ],
        description: 'A delay as zod writes a union: a number, a [min, max] tuple or a median and p99',
      },
      CallRecord: {
        type: 'object',
        properties: {
          call_id: { $ref: '#/components/schemas/Login' },
          phone: { type: 'string', pattern: PHONE },
          started_at: { type: 'string', pattern: DATE_TIME },
          log_events: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
          duration_seconds: { type: 'number', minimum: 0, maximum: 1_000_000 },
          path: { type: 'array', items: { $ref: '#/components/schemas/PathStep' }, maxItems: 2 },
        },
        required: ['call_id', 'phone', 'started_at'],
        additionalProperties: false,
      },
    },
  },
};

interface Case {
  readonly name: string;
  readonly schema: JsonSchema;
  /** The constraints values are drawn to break (type violations aside), `items[i]` for any index. */
  readonly breaks: readonly string[];
}

const within = (prefix: string, labels: readonly string[]) => labels.map((label) => `${prefix}: ${label}`);
const LOGIN_BREAKS = ['maxLength', 'minLength', 'pattern'];
const PATH_STEP_BREAKS = ['additionalProperties', 'required page', ...within('page', LOGIN_BREAKS), ...within('visits', ['integer', 'maximum', 'minimum'])];

const CASES: readonly Case[] = [
  { name: 'eight digits', schema: { type: 'string', pattern: '^[0-9]{8}$' }, breaks: ['pattern'] },
  { name: 'a real calendar date', schema: { type: 'string', pattern: DATE }, breaks: ['pattern'] },
  { name: 'ALL or a phone number', schema: { type: 'string', pattern: '^(ALL|\\+?(\\d{1,15}))$' }, breaks: ['pattern'] },
  { name: 'a date and time with an offset', schema: { type: 'string', pattern: DATE_TIME }, breaks: ['pattern'] },
  { name: 'a login (a $ref)', schema: { $ref: '#/components/schemas/Login' }, breaks: LOGIN_BREAKS },
  { name: 'a tool (an enum)', schema: { $ref: '#/components/schemas/Tool' }, breaks: ['enum'] },
  { name: 'a password', schema: { type: 'string', minLength: 1, maxLength: 1024 }, breaks: ['maxLength', 'minLength'] },
  { name: 'any text', schema: { type: 'string', description: 'An ETag' }, breaks: [] },
  { name: 'a file', schema: { type: 'string', format: 'binary' }, breaks: [] },
  { name: 'a count', schema: { type: 'integer', minimum: 0, maximum: 1_000_000_000 }, breaks: ['integer', 'maximum', 'minimum'] },
  { name: 'an integer without bounds', schema: { type: 'integer' }, breaks: ['integer'] },
  { name: 'a duration in seconds', schema: { type: 'number', minimum: 0, maximum: 1_000_000 }, breaks: ['maximum', 'minimum'] },
  { name: 'a probability (an open lower bound)', schema: { type: 'number', exclusiveMinimum: 0, maximum: 1 }, breaks: ['exclusiveMinimum', 'maximum'] },
  { name: 'a flag', schema: { type: 'boolean' }, breaks: [] },
  {
    name: 'an authentication request (an object in components, open to other properties)',
    schema: { $ref: '#/components/schemas/AuthenticationRequest' },
    breaks: [...within('login', LOGIN_BREAKS), ...within('password', ['maxLength', 'minLength']), 'tool: enum'],
  },
  {
    name: 'account changes (an object closed to other properties)',
    schema: {
      type: 'object',
      properties: { password: { type: 'string', minLength: 1, maxLength: 1024 }, active: { type: 'boolean' }, timezone: { type: 'string' } },
      additionalProperties: false,
    },
    breaks: ['additionalProperties', 'password: maxLength', 'password: minLength'],
  },
  {
    name: 'call steps (an array of $ref objects)',
    schema: { type: 'array', items: { $ref: '#/components/schemas/PathStep' }, minItems: 1, maxItems: 3 },
    breaks: ['maxItems', 'minItems', ...within('items[i]', PATH_STEP_BREAKS)],
  },
  {
    name: 'a call record (required properties, additionalProperties: false, a nested array)',
    schema: { $ref: '#/components/schemas/CallRecord' },
    breaks: [
      'additionalProperties',
      'required call_id',
      'required phone',
      'required started_at',
      ...within('call_id', LOGIN_BREAKS),
      'phone: pattern',
      'started_at: pattern',
      ...within('log_events', ['integer', 'maximum', 'minimum']),
      ...within('duration_seconds', ['maximum', 'minimum']),
      'path: maxItems',
      ...within('path: items[i]', PATH_STEP_BREAKS),
    ],
  },
  {
    name: 'question texts (an array of bounded strings)',
    schema: { type: 'array', items: { type: 'string', maxLength: 40 }, maxItems: 4 },
    breaks: ['items[i]: maxLength', 'maxItems'],
  },
  {
    name: 'a pair (prefixItems, as zod writes a tuple)',
    schema: { type: 'array', prefixItems: [{ $ref: '#/components/schemas/Milliseconds' }, { type: 'integer', minimum: 1, maximum: 10 }], items: false, minItems: 2, maxItems: 2 },
    breaks: ['minItems', ...within('items[i]', ['integer', 'maximum', 'minimum'])],
  },
  { name: 'an enum without type', schema: { enum: ['a', 1, null] }, breaks: ['enum'] },
  { name: 'a pattern without type', schema: { pattern: '^x' }, breaks: ['pattern'] },
];

interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: { readonly missingProperty?: string };
}
interface Validate {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}
type AjvConstructor = new (options: object) => { compile(schema: object): Validate };

/** The validator package's own ajv, as test/support/openapi.ts loads it. */
const Ajv2020 = (createRequire(require.resolve('@seriousme/openapi-schema-validator'))('ajv/dist/2020') as { default: AjvConstructor }).default;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

/** A case's schema with the root's components beside it, where its `#/components/...` refs point. */
const validatorOf = (schema: JsonSchema): Validate => ajv.compile({ ...schema, components: ROOT.components });

/** Where ajv reports a broken constraint: `/0/path/1 required page`. */
const reported = (error: AjvError): string =>
  `${error.instancePath} ${error.keyword}${error.keyword === 'required' ? ` ${String(error.params.missingProperty)}` : ''}`;

/** Where a label says its value breaks the schema, as ajv would report it (ajv reports a fraction for an integer as a type). */
function expectedReport(label: string): string {
  const parts = label.split(': ');
  const constraint = parts.pop() as string;
  const pointer = parts.map((part) => `/${/^items\[(\d+)\]$/.exec(part)?.[1] ?? part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
  return `${pointer} ${constraint === 'integer' ? 'type' : constraint}`;
}

const anyIndex = (label: string) => label.replace(/items\[\d+\]/g, 'items[i]');

function labelsDrawn(schema: JsonSchema, draws: number, options?: { allowTypeViolations?: boolean }): string[] {
  const broken = invalidValue(ROOT, schema, options);
  if (broken === undefined) return [];
  return [...new Set(fc.sample(broken, { numRuns: draws, seed: SEED }).map(({ breaks }) => anyIndex(breaks)))].sort();
}

const codePoints = (text: string) => [...text].length;

describe(`schema arbitraries (${RUNS} runs, seed ${SEED})`, () => {
  describe.each(CASES)('$name', ({ schema, breaks }) => {
    const validate = validatorOf(schema);

    test('every value drawn for the schema validates against it', () => {
      fc.assert(
        fc.property(validValue(ROOT, schema), (value) => {
          expect({ value, errors: validate(value) ? [] : validate.errors }).toEqual({ value, errors: [] });
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });

    test('every value drawn to break the schema fails it, at the one constraint its label names and no other', () => {
      const broken = invalidValue(ROOT, schema, { allowTypeViolations: true });
      if (broken === undefined) throw new Error('nothing drawn to break the schema, not even a type');
      fc.assert(
        fc.property(broken, ({ value, breaks }) => {
          expect(validate(value)).toBe(false);
          const found = [...new Set((validate.errors ?? []).map(reported))];
          expect({ breaks, found }).toEqual({ breaks, found: [expectedReport(breaks)] });
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });

    test('values drawn to break the schema break each of its constraints, none it does not have, and no type', () => {
      expect(labelsDrawn(schema, COVERAGE_DRAWS)).toEqual([...breaks].sort());
    });
  });

  test('values of another type are drawn only when type violations are allowed, for a typed schema without enum only', () => {
    for (const { schema } of CASES) {
      const resolved = resolveSchema(ROOT, schema);
      const typed = resolved.type !== undefined && resolved.enum === undefined;
      expect({ schema, typeBroken: labelsDrawn(schema, RUNS, { allowTypeViolations: true }).includes('type') }).toEqual({ schema, typeBroken: typed });
    }
    expect(invalidValue(ROOT, { type: 'string' })).toBeUndefined();
    expect(invalidValue(ROOT, { type: 'boolean' })).toBeUndefined();
    expect(invalidValue(ROOT, {})).toBeUndefined();
  });

  test('alternatives (anyOf): values of each are drawn, and values that break one constraint of one alternative match none', () => {
    const schema = ROOT.components.schemas.Delay;
    const validate = validatorOf(schema);
    const valid = fc.sample(validValue(ROOT, schema), { numRuns: RUNS, seed: SEED });
    expect(valid.filter((value) => !validate(value))).toEqual([]);
    expect(new Set(valid.map((value) => (typeof value === 'number' ? 'number' : Object.keys(value as object).join(' '))))).toEqual(new Set(['number', 'uniform', 'median p99']));
    const broken = invalidValue(ROOT, schema, { allowTypeViolations: true }) as fc.Arbitrary<{ value: unknown; breaks: string }>;
    expect(fc.sample(broken, { numRuns: RUNS, seed: SEED }).filter(({ value }) => validate(value))).toEqual([]);
    expect(labelsDrawn(schema, COVERAGE_DRAWS)).toEqual(
      [
        'anyOf[0]: integer',
        'anyOf[0]: maximum',
        'anyOf[0]: minimum',
        'anyOf[1]: additionalProperties',
        'anyOf[1]: required uniform',
        ...within('anyOf[1]: uniform', ['minItems', ...within('items[i]', ['integer', 'maximum', 'minimum'])]),
        'anyOf[2]: additionalProperties',
        'anyOf[2]: required median',
        'anyOf[2]: required p99',
        ...within('anyOf[2]: median', ['integer', 'maximum', 'minimum']),
        ...within('anyOf[2]: p99', ['integer', 'maximum', 'minimum']),
      ].sort(),
    );
  });

  test('lengths are counted in code points, and drawn strings hold characters beyond the BMP (two UTF-16 units each)', () => {
    const login = ROOT.components.schemas.Login;
    const logins = fc.sample(validValue(ROOT, login), { numRuns: 1_000, seed: SEED }) as string[];
    expect(logins.some((text) => /[\u{10000}-\u{10FFFF}]/u.test(text))).toBe(true);
    // Valid, yet longer than maxLength to a server that counts UTF-16 units.
    expect(logins.some((text) => text.length > login.maxLength)).toBe(true);
    const tooLong = fc
      .sample(invalidValue(ROOT, login) as fc.Arbitrary<{ value: unknown; breaks: string }>, { numRuns: 1_000, seed: SEED })
      .filter(({ breaks }) => breaks === 'maxLength')
      .map(({ value }) => codePoints(value as string));
    expect(tooLong.length).toBeGreaterThan(0);
    expect(tooLong.every((length) => length > login.maxLength && length <= login.maxLength + 3)).toBe(true);
  });

  test('resolveSchema follows a chain of $refs into the root, and names a $ref it cannot follow', () => {
    expect(resolveSchema(ROOT, { $ref: '#/components/schemas/LoginAlias' })).toBe(ROOT.components.schemas.Login);
    expect(resolveSchema(ROOT, ROOT.components.schemas.Tool)).toBe(ROOT.components.schemas.Tool);
    expect(() => resolveSchema(ROOT, { $ref: '#/components/schemas/Nowhere' })).toThrow('#/components/schemas/Nowhere');
    expect(() => resolveSchema(ROOT, { $ref: 'https://example.com/schema.json' })).toThrow('https://example.com/schema.json');
    expect(() => resolveSchema({ a: { $ref: '#/a' } }, { $ref: '#/a' })).toThrow('#/a');
  });

  test('a keyword it cannot draw is an error naming it, wherever it is, and annotations are ignored', () => {
    expect(() => validValue(ROOT, { type: 'integer', multipleOf: 5 })).toThrow('multipleOf');
    expect(() => validValue(ROOT, { anyOf: [{ type: 'string' }, { type: 'integer' }], minLength: 1 })).toThrow('anyOf');
    expect(() => validValue(ROOT, { type: 'array', prefixItems: [{ type: 'string' }], minItems: 0 })).toThrow('prefixItems');
    expect(() => validValue(ROOT, { type: ['string', 'null'] })).toThrow('type');
    expect(() => invalidValue(ROOT, { type: 'object', properties: { code: { type: 'string', const: 'x' } } })).toThrow('const');
    expect(() => validValue(ROOT, { type: 'array', items: { type: 'string' }, uniqueItems: true })).toThrow('uniqueItems');
    expect(() => validValue(ROOT, { type: 'object', additionalProperties: { type: 'string' } })).toThrow('additionalProperties');
    // fc.stringMatching draws no lookahead, backreference or \b.
    expect(() => validValue(ROOT, { type: 'string', pattern: '^(?!ALL$)[A-Z]+$' })).toThrow('^(?!ALL$)[A-Z]+$');
    const tree = { components: { schemas: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } } };
    expect(() => validValue(tree, { $ref: '#/components/schemas/Node' })).toThrow('#/components/schemas/Node');
    const annotated = { type: 'string', title: 'T', description: 'D', examples: ['x'], example: 'x', default: 'x', deprecated: false, readOnly: false, writeOnly: false, xml: { name: 'x' }, id: 'x', 'x-any': 1 };
    expect(() => invalidValue(ROOT, annotated, { allowTypeViolations: true })).not.toThrow();
  });
});
