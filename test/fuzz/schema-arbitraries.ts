import fc from 'fast-check';

/*
 * Values a JSON Schema (draft 2020-12, as an OpenAPI 3.1 document writes it) accepts, and values that
 * break exactly one of its constraints, each named. Only the keywords the document uses are understood:
 * any other throws, so that no constraint is silently left out of what is drawn.
 */

export type JsonSchema = Record<string, unknown>;

interface Broken {
  readonly value: unknown;
  readonly breaks: string;
}

interface Options {
  readonly allowTypeViolations: boolean;
}

/** A schema's valid values, and its broken ones, built only when asked for (building them probes filters). */
interface Drawn<T> {
  readonly valid: fc.Arbitrary<T>;
  readonly broken: (options: Options) => fc.Arbitrary<Broken>[];
  /** Of an array, an item that is no array itself, which a lax server might take for a list of one. */
  readonly item?: fc.Arbitrary<unknown>;
}

/** Keywords that only describe (ajv, with validateFormats off as the tests run it, checks no format either). */
const ANNOTATIONS = new Set(['description', 'examples', 'example', 'title', 'xml', 'format', 'default', 'deprecated', 'readOnly', 'writeOnly', 'id']);
const isAnnotation = (keyword: string): boolean => ANNOTATIONS.has(keyword) || keyword.startsWith('x-');

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** The keywords each type is drawn with; any other one is refused rather than ignored. */
const KEYWORDS: Record<Kind, readonly string[]> = {
  string: ['enum', 'pattern', 'minLength', 'maxLength'],
  integer: ['enum', 'minimum', 'maximum'],
  number: ['enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  boolean: [],
  array: ['items', 'prefixItems', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties', 'propertyNames'],
};

/** Short enough to keep runs fast; strings may still reach their maxLength (up to LONGEST_DRAWN, past the document's 1024) and arrays their minItems. */
const SHORT_STRING = 12;
const LONGEST_DRAWN = 1_100;
const SHORT_ARRAY = 5;

/** A filter is tried on this many values, from a seed of its own, before it is used: one that never passes would make fast-check loop forever. */
const PROBES = 200;
const PROBE_SEED = 1;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function pointedAt(root: object, ref: string): JsonSchema {
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  if (!isObject(node)) throw new Error(`$ref ${ref} points at no schema`);
  return node;
}

/** The schema at the end of a chain of `$ref`s, and the refs followed to reach it. */
function follow(root: object, schema: JsonSchema): { schema: JsonSchema; refs: string[] } {
  const refs: string[] = [];
  let current = schema;
  while (Object.hasOwn(current, '$ref')) {
    const ref = current.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) throw new Error(`$ref ${JSON.stringify(ref)}: only local references (#/...) are supported`);
    if (refs.includes(ref)) throw new Error(`$ref ${ref} leads back to itself`);
    const beside = Object.keys(current).filter((keyword) => keyword !== '$ref' && !isAnnotation(keyword));
    if (beside.length > 0) throw new Error(`keyword ${beside.join(', ')} beside $ref ${ref} is not supported`);
    refs.push(ref);
    current = pointedAt(root, ref);
  }
  return { schema: current, refs };
}

/** Resolves `$ref: '#/components/schemas/X'` (JSON pointer into `root`), recursively. */
export function resolveSchema(root: object, schema: JsonSchema): JsonSchema {
  return follow(root, schema).schema;
}

/** A schema resolved and checked, with the refs being expanded above it (a schema that contains itself cannot be drawn eagerly). */
interface Node {
  readonly root: object;
  readonly refs: readonly string[];
  readonly schema: JsonSchema;
  /** How values are drawn: `any` for a schema without keywords, `enum` for an enum without type, `anyOf` for alternatives, `string` for string keywords with or without type. */
  readonly kind: Kind | 'any' | 'enum' | 'anyOf';
  /** The type the schema states, if any: without one, a value of another type breaks nothing. */
  readonly type: Kind | undefined;
}

function nodeOf(root: object, refs: readonly string[], given: unknown): Node {
  if (!isObject(given)) throw new Error(`schema ${JSON.stringify(given)} is not supported (only schema objects are)`);
  const followed = follow(root, given);
  const recursive = followed.refs.find((ref) => refs.includes(ref));
  if (recursive !== undefined) throw new Error(`recursive $ref ${recursive} is not supported`);
  const { schema } = followed;
  const base = { root, refs: [...refs, ...followed.refs], schema };
  const keywords = Object.keys(schema).filter((keyword) => !isAnnotation(keyword));
  const { type } = schema;
  if (type === undefined) {
    if (keywords.length === 0) return { ...base, kind: 'any', type: undefined };
    if (keywords.length === 1 && keywords[0] === 'enum') return { ...base, kind: 'enum', type: undefined };
    if (keywords.length === 1 && keywords[0] === 'anyOf') return { ...base, kind: 'anyOf', type: undefined };
    const notString = keywords.filter((keyword) => keyword === 'enum' || !KEYWORDS.string.includes(keyword));
    if (notString.length > 0) throw new Error(`keyword ${notString.join(', ')} is not supported in a schema without type`);
    return { ...base, kind: 'string', type: undefined };
  }
  if (typeof type !== 'string' || !Object.hasOwn(KEYWORDS, type)) throw new Error(`type ${JSON.stringify(type)} is not supported`);
  const kind = type as Kind;
  const unknown = keywords.filter((keyword) => keyword !== 'type' && !KEYWORDS[kind].includes(keyword));
  if (unknown.length > 0) throw new Error(`keyword ${unknown.join(', ')} is not supported (in a schema of type ${kind})`);
  return { ...base, kind, type: kind };
}

const inner = (node: Node, schema: unknown): Node => nodeOf(node.root, node.refs, schema);

/** The candidates that hold, or undefined when too few of those drawn do (by default, none). */
function keepIf<T, U extends T>(candidates: fc.Arbitrary<T>, holds: (value: T) => value is U, share?: number): fc.Arbitrary<U> | undefined;
function keepIf<T>(candidates: fc.Arbitrary<T>, holds: (value: T) => boolean, share?: number): fc.Arbitrary<T> | undefined;
function keepIf<T>(candidates: fc.Arbitrary<T>, holds: (value: T) => boolean, share = 1 / PROBES): fc.Arbitrary<T> | undefined {
  const passing = fc.sample(candidates, { numRuns: PROBES, seed: PROBE_SEED }).filter(holds).length;
  return passing >= share * PROBES ? candidates.filter(holds) : undefined;
}

function count(schema: JsonSchema, keyword: string): number | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Error(`${keyword} ${JSON.stringify(value)} is not a count`);
  return value;
}

function bound(schema: JsonSchema, keyword: string): number | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${keyword} ${JSON.stringify(value)} is not a finite number`);
  return value;
}

function members(schema: JsonSchema): readonly unknown[] {
  const { enum: values } = schema;
  if (!Array.isArray(values) || values.length === 0) throw new Error(`enum ${JSON.stringify(values)} is not a list of values`);
  return values;
}

// Strings ---------------------------------------------------------------------------------------------

/** JSON Schema counts code points, as the regex's `u` flag and ajv do: a surrogate pair is one. */
const codePointLength = (text: string): number => text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

const codePoints = (min: number, max: number) => fc.integer({ min, max }).map((codePoint) => String.fromCodePoint(codePoint));

/**
 * One code point of well-formed text: mostly ASCII, some of the rest of the BMP, control characters, and
 * characters beyond the BMP (emoji), two UTF-16 units each, so that a length counted in units goes wrong.
 */
const textCharacter = fc.oneof(
  { weight: 12, arbitrary: codePoints(0x20, 0x7e) },
  { weight: 3, arbitrary: codePoints(0xa0, 0xd7ff) },
  { weight: 1, arbitrary: codePoints(0xe000, 0xfffd) },
  { weight: 3, arbitrary: codePoints(0x1f300, 0x1faff) },
  { weight: 1, arbitrary: codePoints(0x10000, 0x10ffff) },
  { weight: 1, arbitrary: fc.oneof(codePoints(0x00, 0x1f), codePoints(0x7f, 0x9f)) },
);

/** Also a lone surrogate, which JSON can carry escaped; a low one, since a high one could pair with the next character drawn. */
const anyCharacter = fc.oneof({ weight: 20, arbitrary: textCharacter }, { weight: 1, arbitrary: codePoints(0xdc00, 0xdfff) });

/** Characters that near misses of a pattern are made of: digits and letters for patterns of them, and what parsers trip on. */
const strayCharacter = fc.oneof(
  codePoints(0x30, 0x39),
  codePoints(0x41, 0x5a),
  codePoints(0x61, 0x7a),
  fc.constantFrom(' ', '+', '-', '.', ':', 'T', '\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff', '١', '٣', '０', '😀'),
  anyCharacter,
);

const STRAY_STRINGS = ['', ' ', '\u0001', '\u007f', '\u0085', '\ud800', 'a b', '١٢', '٢٠١٨٠٢٠١', '0', '-1', '1.5', 'null'];

/** A string with one code point replaced, inserted or removed. */
function edited(strings: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(strings, fc.nat(), strayCharacter, fc.constantFrom('replace', 'insert', 'remove')).map(([text, at, character, edit]) => {
    const characters = [...text];
    const index = at % (characters.length + 1);
    if (edit === 'insert') characters.splice(index, 0, character);
    else characters.splice(index, 1, ...(edit === 'replace' ? [character] : []));
    return characters.join('');
  });
}

/** What a client gets wrong about an enum value: its case, spaces around it, a character short or too many. */
function enumVariants(values: readonly string[]): fc.Arbitrary<string> {
  const variants: ((value: string) => string)[] = [
    (value) => value.toUpperCase(),
    (value) => `${value.charAt(0).toUpperCase()}${value.slice(1)}`,
    (value) => ` ${value}`,
    (value) => `${value} `,
    (value) => value.slice(0, -1),
    (value) => `${value}${value}`,
  ];
  return fc.tuple(fc.constantFrom(...values), fc.constantFrom(...variants)).map(([value, variant]) => variant(value));
}

/**
 * `^[^\u0000-\u001F]*$`, `^[0-9]{8}$`: a pattern that is one character class repeated. fc.stringMatching
 * draws a negated class (and `.`, \S, \W, \D) from printable ASCII only, never a character beyond it:
 * such patterns are drawn here instead, a character at a time, from the whole of Unicode.
 */
const REPEATED_CLASS = /^\^(\[(?:\\.|[^\\\]])*\]|\\[dDwWsS]|\.)(?:(\*)|(\+)|\{(\d+)(?:(,)(\d*))?\})\$$/;

/** A pattern as characters that each fit, between min and max of them. */
interface Repetition {
  /** Characters of well-formed text. */
  readonly text: fc.Arbitrary<string>;
  /** Characters that may also be lone surrogates. */
  readonly any: fc.Arbitrary<string>;
  readonly min: number;
  readonly max: number;
}

/** The repetition a pattern is (no pattern: any characters, any number of them), or undefined when it is something else. */
function repetitionOf(pattern: string | undefined): Repetition | undefined {
  if (pattern === undefined) return { text: textCharacter, any: anyCharacter, min: 0, max: Infinity };
  const match = REPEATED_CLASS.exec(pattern);
  if (match === null) return undefined;
  const [, characterClass, star, plus, from, comma, to] = match;
  const single = new RegExp(`^${characterClass}$`, 'u');
  const fits = (character: string) => single.test(character);
  const ascii = fc.stringMatching(single);
  // Only where a good share of the characters drawn fit, as for a negated class: for [0-9], stringMatching alone is right.
  const wider = (characters: fc.Arbitrary<string>) => {
    const fitting = keepIf(characters, fits, 1 / 4);
    return fitting === undefined ? ascii : fc.oneof(ascii, fitting);
  };
  const min = star !== undefined ? 0 : plus !== undefined ? 1 : Number(from);
  const max = star !== undefined || plus !== undefined ? Infinity : comma === undefined ? min : to === '' ? Infinity : Number(to);
  return { text: wider(textCharacter), any: wider(anyCharacter), min, max };
}

/** Strings of a repetition, lone surrogates in one in five only: a long string would nearly always hold one, and UTF-8 cannot carry it. */
const eitherCharacters = (repetition: Repetition, strings: (character: fc.Arbitrary<string>) => fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: strings(repetition.text) }, { weight: 1, arbitrary: strings(repetition.any) });

/** Between lo and hi characters: mostly few, sometimes exactly hi when that stays cheap. */
function textOf(repetition: Repetition, lo: number, hi: number): fc.Arbitrary<string> {
  const near = Math.min(hi, lo + SHORT_STRING);
  return eitherCharacters(repetition, (character) => {
    const short = fc.string({ unit: character, minLength: lo, maxLength: near });
    if (hi <= near || hi > LONGEST_DRAWN) return short;
    return fc.oneof({ weight: 5, arbitrary: short }, { weight: 1, arbitrary: fc.string({ unit: character, minLength: hi, maxLength: hi }) });
  });
}

/** Between lo and hi characters, lo possibly huge: a few drawn, the rest one of them repeated. */
function overlong(repetition: Repetition, lo: number, hi: number): fc.Arbitrary<string> {
  return eitherCharacters(repetition, (character) =>
    fc
      .tuple(fc.string({ unit: character, maxLength: Math.min(lo, SHORT_STRING) }), character, fc.integer({ min: lo, max: hi }))
      .map(([head, fill, length]) => head + fill.repeat(length - codePointLength(head))),
  );
}

/** fc.stringMatching's strings, or an error naming the pattern it cannot draw (lookaheads, backreferences, \b). */
function stringsMatching(regex: RegExp): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(regex);
  } catch (error) {
    throw new Error(`pattern ${regex.source}: ${(error as Error).message}`, { cause: error });
  }
}

interface Rule {
  readonly label: string;
  readonly holds: (text: string) => boolean;
}

function stringValues(node: Node): Drawn<string> {
  const { schema } = node;
  const values = schema.enum === undefined ? undefined : members(schema).filter((value): value is string => typeof value === 'string');
  const { pattern } = schema;
  if (pattern !== undefined && typeof pattern !== 'string') throw new Error(`pattern ${JSON.stringify(pattern)} is not a string`);
  // As ajv compiles a pattern.
  const regex = pattern === undefined ? undefined : new RegExp(pattern, 'u');
  const minLength = count(schema, 'minLength');
  const maxLength = count(schema, 'maxLength');
  const rules: Rule[] = [];
  if (values !== undefined) rules.push({ label: 'enum', holds: (text) => values.includes(text) });
  if (regex !== undefined) rules.push({ label: 'pattern', holds: (text) => regex.test(text) });
  if (minLength !== undefined) rules.push({ label: 'minLength', holds: (text) => codePointLength(text) >= minLength });
  if (maxLength !== undefined) rules.push({ label: 'maxLength', holds: (text) => codePointLength(text) <= maxLength });
  const holdsAll = (text: string) => rules.every((rule) => rule.holds(text));
  const repetition = repetitionOf(pattern);
  const matching = repetition === undefined ? stringsMatching(regex as RegExp) : undefined;

  let valid: fc.Arbitrary<string>;
  if (values !== undefined) {
    const fitting = values.filter(holdsAll);
    if (fitting.length === 0) throw new Error(`no value of enum ${JSON.stringify(values)} satisfies the other keywords`);
    valid = fc.constantFrom(...fitting);
  } else if (repetition !== undefined) {
    const lo = Math.max(minLength ?? 0, repetition.min);
    const hi = Math.min(maxLength ?? Infinity, repetition.max);
    if (lo > hi) throw new Error(`no string of pattern ${String(pattern)} has a length within minLength and maxLength`);
    valid = textOf(repetition, lo, hi);
  } else {
    const fitting = keepIf(matching as fc.Arbitrary<string>, holdsAll);
    if (fitting === undefined) throw new Error(`fc.stringMatching draws no string of pattern ${String(pattern)} within minLength and maxLength`);
    valid = fitting;
  }

  const broken = (): fc.Arbitrary<Broken>[] => {
    const nearMisses = fc.oneof(
      { weight: 3, arbitrary: edited(valid) },
      { weight: 1, arbitrary: fc.constantFrom(...STRAY_STRINGS) },
      { weight: 1, arbitrary: fc.string({ unit: anyCharacter, maxLength: SHORT_STRING }) },
      ...(values === undefined ? [] : [{ weight: 3, arbitrary: enumVariants(values) }]),
    );
    /** Strings that break the rule and only it, or undefined when there are none (or none found). */
    const breaking = (rule: Rule): fc.Arbitrary<string> | undefined => {
      const others = rules.filter((other) => other !== rule);
      const breaksOnlyIt = (text: string) => !rule.holds(text) && others.every((other) => other.holds(text));
      if (rule.label !== 'minLength' && rule.label !== 'maxLength') return keepIf(nearMisses, breaksOnlyIt);
      if (values !== undefined) {
        const outside = values.filter(breaksOnlyIt);
        return outside.length === 0 ? undefined : fc.constantFrom(...outside);
      }
      if (repetition === undefined) return keepIf(matching as fc.Arbitrary<string>, breaksOnlyIt);
      // Characters of the pattern, as many as break the limit and no other: nothing left to check, and
      // no filter to probe (which would hold hundreds of strings of a limit of megabytes at once).
      const [lo, hi] = rule.label === 'minLength' ? [0, (minLength ?? 0) - 1] : [(maxLength ?? 0) + 1, (maxLength ?? 0) + 3];
      const from = Math.max(lo, repetition.min);
      const to = Math.min(hi, repetition.max);
      if (from > to) return undefined;
      return to > LONGEST_DRAWN ? overlong(repetition, from, to) : textOf(repetition, from, to);
    };
    return rules.flatMap((rule) => breaking(rule)?.map((value) => ({ value, breaks: rule.label })) ?? []);
  };
  return { valid, broken };
}

// Numbers ---------------------------------------------------------------------------------------------

/** An arbitrary that may not exist, as the arguments it adds to a list of them. */
const optional = <T>(values: fc.Arbitrary<T> | undefined): fc.Arbitrary<T>[] => (values === undefined ? [] : [values]);

const integersIn = (min: number, max: number) => fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);

function numberValues(node: Node): Drawn<number> {
  const { schema } = node;
  const integer = node.kind === 'integer';
  const minimum = bound(schema, 'minimum');
  const maximum = bound(schema, 'maximum');
  // A number's open bounds (a probability above 0); an integer's schemas state closed ones.
  const exclusiveMinimum = bound(schema, 'exclusiveMinimum');
  const exclusiveMaximum = bound(schema, 'exclusiveMaximum');
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) throw new Error(`minimum ${minimum} is above maximum ${maximum}`);
  const least = exclusiveMinimum ?? minimum;
  const most = exclusiveMaximum ?? maximum;
  const within = (n: number) =>
    (exclusiveMinimum === undefined || n > exclusiveMinimum) &&
    (exclusiveMaximum === undefined || n < exclusiveMaximum) &&
    (minimum === undefined || n >= minimum) &&
    (maximum === undefined || n <= maximum);
  // A finite window where an unbounded side would leave fractions and thousandths nowhere to be drawn.
  const lo = least ?? (most === undefined ? -1e9 : most - 2e9);
  const hi = most ?? lo + 2e9;
  let valid: fc.Arbitrary<number>;
  if (integer) {
    const first = minimum === undefined ? -Number.MAX_SAFE_INTEGER : Math.ceil(minimum);
    const last = maximum === undefined ? Number.MAX_SAFE_INTEGER : Math.floor(maximum);
    if (first > last) throw new Error(`no integer lies between minimum ${String(minimum)} and maximum ${String(maximum)}`);
    valid = integersIn(first, last);
  } else {
    const doubles = fc
      .double({
        min: least ?? -Number.MAX_VALUE,
        max: most ?? Number.MAX_VALUE,
        minExcluded: exclusiveMinimum !== undefined,
        maxExcluded: exclusiveMaximum !== undefined,
        noNaN: true,
      })
      .filter(within);
    // Amounts as clients write them (seconds to the millisecond), beside doubles of every magnitude.
    const first = Math.ceil(lo * 1000);
    const last = Math.floor(hi * 1000);
    const thousandths = first <= last && Number.isSafeInteger(first) && Number.isSafeInteger(last);
    valid = thousandths ? fc.oneof(doubles, integersIn(first, last).map((n) => n / 1000).filter(within)) : doubles;
  }
  // A set of numbers (a status code): one of them, and near misses of them.
  const enumerated = schema.enum === undefined ? undefined : members(schema).filter((value): value is number => typeof value === 'number');
  if (enumerated !== undefined) valid = fc.constantFrom(...enumerated);
  const nearMisses = () =>
    enumerated === undefined
      ? undefined
      : fc
          .constantFrom(...enumerated)
          .chain((value) => fc.integer({ min: value - 3, max: value + 3 }))
          .filter((value) => !enumerated.includes(value));

  const below = (limit: number): fc.Arbitrary<number> | undefined => {
    if (!integer) return limit > -Number.MAX_VALUE ? fc.double({ min: -Number.MAX_VALUE, max: limit, maxExcluded: true, noNaN: true }).filter((n) => n < limit) : undefined;
    const last = Math.ceil(limit) - 1;
    return last >= -Number.MAX_SAFE_INTEGER ? integersIn(Math.max(-Number.MAX_SAFE_INTEGER, last - 1_000_000), last) : undefined;
  };
  const above = (limit: number): fc.Arbitrary<number> | undefined => {
    if (!integer) return limit < Number.MAX_VALUE ? fc.double({ min: limit, max: Number.MAX_VALUE, minExcluded: true, noNaN: true }).filter((n) => n > limit) : undefined;
    const first = Math.floor(limit) + 1;
    return first <= Number.MAX_SAFE_INTEGER ? integersIn(first, Math.min(Number.MAX_SAFE_INTEGER, first + 1_000_000)) : undefined;
  };
  const fractions = (): fc.Arbitrary<number> | undefined => {
    const halves = integersIn(Math.ceil(lo), Math.max(Math.ceil(lo), Math.floor(hi))).map((n) => n + 0.5);
    return keepIf(fc.oneof(fc.double({ min: lo, max: hi, noNaN: true }), halves), (n) => !Number.isInteger(n) && n >= lo && n <= hi);
  };
  const broken = (): fc.Arbitrary<Broken>[] =>
    [
      { breaks: 'minimum', values: minimum === undefined ? undefined : below(minimum) },
      { breaks: 'maximum', values: maximum === undefined ? undefined : above(maximum) },
      { breaks: 'exclusiveMinimum', values: exclusiveMinimum === undefined ? undefined : fc.oneof(fc.constant(exclusiveMinimum), ...optional(below(exclusiveMinimum))) },
      { breaks: 'exclusiveMaximum', values: exclusiveMaximum === undefined ? undefined : fc.oneof(fc.constant(exclusiveMaximum), ...optional(above(exclusiveMaximum))) },
      { breaks: 'integer', values: integer ? fractions() : undefined },
      { breaks: 'enum', values: nearMisses() },
    ].flatMap(({ breaks, values }) => values?.map((value) => ({ value, breaks })) ?? []);
  return { valid, broken };
}

// Arrays and objects ----------------------------------------------------------------------------------

/**
 * `prefixItems`, drawn as a full tuple. Fewer items break it only with `minItems` of its length, and more
 * only with `items: false` or a `maxItems`: those are not drawn (they would break both).
 */
function tupleValues(node: Node): Drawn<unknown[]> {
  const { schema } = node;
  const { prefixItems } = schema;
  if (!Array.isArray(prefixItems)) throw new Error('prefixItems is not a list of schemas');
  const length = prefixItems.length;
  const minItems = count(schema, 'minItems');
  const maxItems = count(schema, 'maxItems');
  if ((schema.items !== undefined && schema.items !== false) || (minItems !== undefined && minItems !== length) || (maxItems !== undefined && maxItems !== length)) {
    throw new Error(`prefixItems is supported only with items: false or none, and minItems and maxItems ${length} or none`);
  }
  const positions = prefixItems.map((item) => inner(node, item));
  const valid = fc.tuple(...positions.map(validOf));

  const broken = (options: Options): fc.Arbitrary<Broken>[] => {
    const arms: fc.Arbitrary<Broken>[] = [];
    if (minItems === length && length > 0) arms.push(fc.tuple(valid, fc.nat()).map(([values, keep]) => ({ value: values.slice(0, keep % length), breaks: 'minItems' })));
    positions.forEach((position, index) => {
      const brokenItem = brokenOf(position, options);
      if (brokenItem.length === 0) return;
      arms.push(
        fc.tuple(valid, fc.oneof(...brokenItem)).map(([values, bad]) => ({
          value: values.map((value, at) => (at === index ? bad.value : value)),
          breaks: `items[${index}]: ${bad.breaks}`,
        })),
      );
    });
    return arms;
  };
  return { valid, broken };
}

function arrayValues(node: Node): Drawn<unknown[]> {
  const { schema } = node;
  if (schema.prefixItems !== undefined) return tupleValues(node);
  const items = inner(node, schema.items ?? {});
  const item = validOf(items);
  const minItems = count(schema, 'minItems') ?? 0;
  const maxItems = count(schema, 'maxItems') ?? Infinity;
  if (minItems > maxItems) throw new Error(`minItems ${minItems} is above maxItems ${maxItems}`);
  const most = Math.min(maxItems, Math.max(SHORT_ARRAY, minItems));
  const valid = fc.array(item, { minLength: minItems, maxLength: most });

  const broken = (options: Options): fc.Arbitrary<Broken>[] => {
    const arms: fc.Arbitrary<Broken>[] = [];
    if (maxItems !== Infinity) {
      // A few items drawn and repeated: maxItems may be in the thousands.
      const tooMany = fc
        .tuple(fc.array(item, { minLength: 1, maxLength: SHORT_ARRAY }), fc.integer({ min: maxItems + 1, max: maxItems + 2 }))
        .map(([some, length]) => Array.from({ length }, (_, index) => some[index % some.length]));
      arms.push(tooMany.map((value) => ({ value, breaks: 'maxItems' })));
    }
    if (minItems > 0) arms.push(fc.array(item, { maxLength: minItems - 1 }).map((value) => ({ value, breaks: 'minItems' })));
    const brokenItem = brokenOf(items, options);
    if (most >= 1 && brokenItem.length > 0) {
      const withOne = fc.tuple(fc.array(item, { minLength: Math.max(1, minItems), maxLength: most }), fc.oneof(...brokenItem), fc.nat());
      arms.push(
        withOne.map(([values, bad, at]) => {
          const index = at % values.length;
          return { value: values.map((value, position) => (position === index ? bad.value : value)), breaks: `items[${index}]: ${bad.breaks}` };
        }),
      );
    }
    return arms;
  };
  return { valid, broken, ...(items.kind === 'array' || items.kind === 'any' ? {} : { item }) };
}

/** Names no schema declares, some a declared one in capitals (which a server comparing names loosely would take). */
const unknownNames = (declared: readonly string[]) =>
  fc
    .oneof(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), ...(declared.length === 0 ? [] : [fc.constantFrom(...declared).map((name) => name.toUpperCase())]))
    .filter((name) => !declared.includes(name));

function objectValues(node: Node): Drawn<Record<string, unknown>> {
  const { schema } = node;
  const properties = schema.properties ?? {};
  if (!isObject(properties)) throw new Error('properties is not an object');
  const { additionalProperties, propertyNames } = schema;
  const required: unknown = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((name): name is string => typeof name === 'string')) throw new Error('required is not a list of names');
  if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean') throw new Error('additionalProperties other than true or false is not supported');
  const closed = additionalProperties === false;
  const undeclared = required.filter((name) => !Object.hasOwn(properties, name));
  if (closed && undeclared.length > 0) throw new Error(`required ${undeclared.join(', ')} is not among the properties, which are all that additionalProperties: false allows`);
  // A required name without a schema of its own takes anything.
  const schemas: Record<string, unknown> = { ...Object.fromEntries(undeclared.map((name) => [name, {}])), ...properties };
  const names = Object.keys(schemas);
  const nodes = new Map(names.map((name) => [name, inner(node, schemas[name])]));
  const model = Object.fromEntries([...nodes].map(([name, property]) => [name, validOf(property)]));
  const record = fc.record(model, { requiredKeys: required, noNullPrototype: true }) as fc.Arbitrary<Record<string, unknown>>;

  const isExtraName = (name: unknown): name is string => typeof name === 'string' && !names.includes(name);
  const extraNames = closed ? undefined : propertyNames === undefined ? unknownNames(names) : keepIf(validOf(inner(node, propertyNames)), isExtraName);
  const valid =
    extraNames === undefined
      ? record
      : fc.oneof(
          { weight: 4, arbitrary: record },
          {
            weight: 1,
            arbitrary: fc.tuple(record, extraNames, fc.string({ maxLength: SHORT_STRING })).map(([object, name, value]) => ({ ...object, [name]: value })),
          },
        );

  const broken = (options: Options): fc.Arbitrary<Broken>[] => {
    const arms = required.map((name) =>
      record.map((object) => ({ value: Object.fromEntries(Object.entries(object).filter(([key]) => key !== name)), breaks: `required ${name}` })),
    );
    if (closed) {
      const extra = fc.tuple(record, unknownNames(names), fc.string({ maxLength: SHORT_STRING }));
      arms.push(extra.map(([object, name, value]) => ({ value: { ...object, [name]: value }, breaks: 'additionalProperties' })));
    }
    for (const [name, property] of nodes) {
      const brokenProperty = brokenOf(property, options);
      if (brokenProperty.length > 0) {
        arms.push(fc.tuple(record, fc.oneof(...brokenProperty)).map(([object, bad]) => ({ value: { ...object, [name]: bad.value }, breaks: `${name}: ${bad.breaks}` })));
      }
    }
    return arms;
  };
  return { valid, broken };
}

// Alternatives ----------------------------------------------------------------------------------------

/**
 * Whether a value might match the schema, judged by its type, and for an object by its required names and,
 * when closed, its other names. A value this says no to matches no value of the schema; one it says yes to may.
 */
function mightMatch(node: Node, value: unknown): boolean {
  if (node.type !== undefined && !fitsType(node.type, value)) return false;
  if (node.kind !== 'object' || !isObject(value)) return true;
  const required = (node.schema.required ?? []) as string[];
  if (required.some((name) => !Object.hasOwn(value, name))) return false;
  const properties = (node.schema.properties ?? {}) as Record<string, unknown>;
  return node.schema.additionalProperties !== false || Object.keys(value).every((name) => Object.hasOwn(properties, name));
}

/**
 * Valid: a value of any alternative. Broken: a value that breaks one constraint of one alternative and that
 * no other alternative may take, so that it matches none; a kind of break that seldom gets there is not drawn.
 */
function anyOfValues(node: Node): Drawn<unknown> {
  const { anyOf } = node.schema;
  if (!Array.isArray(anyOf) || anyOf.length === 0) throw new Error('anyOf is not a list of schemas');
  const alternatives = anyOf.map((alternative) => inner(node, alternative));
  const valid = fc.oneof(...alternatives.map(validOf));
  const broken = (options: Options): fc.Arbitrary<Broken>[] =>
    alternatives.flatMap((alternative, index) => {
      const others = alternatives.filter((_, at) => at !== index);
      return brokenOf(alternative, options).flatMap((arm) => {
        const matchingNone = keepIf(arm, ({ value }) => !others.some((other) => mightMatch(other, value)), 1 / 4);
        return matchingNone === undefined ? [] : [matchingNone.map(({ value, breaks }) => ({ value, breaks: `anyOf[${index}]: ${breaks}` }))];
      });
    });
  return { valid, broken };
}

// Any schema ------------------------------------------------------------------------------------------

const isScalar = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);

function drawn(node: Node): Drawn<unknown> {
  switch (node.kind) {
    case 'string':
      return stringValues(node);
    case 'integer':
    case 'number':
      return numberValues(node);
    case 'boolean':
      return { valid: fc.boolean(), broken: () => [] };
    case 'array':
      return arrayValues(node);
    case 'object':
      return objectValues(node);
    case 'anyOf':
      return anyOfValues(node);
    case 'any':
      return { valid: fc.jsonValue({ maxDepth: 2 }), broken: () => [] };
    case 'enum': {
      const allowed = members(node.schema);
      // ajv compares arrays and objects deeply, scalars as === does.
      if (!allowed.every(isScalar)) throw new Error('enum of arrays or objects without type is not supported');
      const texts = allowed.filter((value): value is string => typeof value === 'string');
      const outside = fc
        .oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom(...STRAY_STRINGS), ...(texts.length === 0 ? [] : [enumVariants(texts)]))
        .filter((value) => !allowed.includes(value));
      return { valid: fc.constantFrom(...allowed), broken: () => [outside.map((value) => ({ value, breaks: 'enum' }))] };
    }
  }
}

function fitsType(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'string':
    case 'boolean':
    case 'number':
      return typeof value === kind;
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
  }
}

/** Values of other types: plain ones, and valid values in a form a lax server might take (a number as text, a value in a list, a list's item alone). */
function typeViolations(kind: Kind, { valid, item }: Drawn<unknown>): fc.Arbitrary<unknown> {
  const arms: fc.Arbitrary<unknown>[] = [fc.constantFrom<unknown>(null, true, false, 0, 1, '', 'x', {}, [])];
  if (kind !== 'array') arms.push(valid.map((value) => [value]));
  if (item !== undefined) arms.push(item);
  if (kind === 'integer' || kind === 'number' || kind === 'boolean') arms.push(valid.map(String));
  const asNumber = kind === 'string' ? keepIf(valid.map(Number), Number.isFinite, 1 / 4) : undefined;
  if (asNumber !== undefined) arms.push(asNumber);
  return fc.oneof(...arms).filter((value) => !fitsType(kind, value));
}

function validOf(node: Node): fc.Arbitrary<unknown> {
  return drawn(node).valid;
}

function brokenOf(node: Node, options: Options): fc.Arbitrary<Broken>[] {
  const values = drawn(node);
  // An enum holds for values of every type: a value of another type would break it as well as the type.
  if (node.type === undefined || !options.allowTypeViolations || node.schema.enum !== undefined) return values.broken(options);
  return [...values.broken(options), typeViolations(node.type, values).map((value) => ({ value, breaks: 'type' }))];
}

/** Values the schema accepts. */
export function validValue(root: object, schema: JsonSchema): fc.Arbitrary<unknown> {
  return validOf(nodeOf(root, [], schema));
}

/**
 * Values the schema refuses, each breaking one of its constraints and naming it ("pattern", "required
 * login", "items[0]: maxLength"), or undefined when it has none to break. A value of another type only
 * with `allowTypeViolations` (form fields and path segments are text whatever the schema says), and
 * never for an enum, which such a value would break too.
 */
export function invalidValue(root: object, schema: JsonSchema, options?: { allowTypeViolations?: boolean }): fc.Arbitrary<{ value: unknown; breaks: string }> | undefined {
  const broken = brokenOf(nodeOf(root, [], schema), { allowTypeViolations: options?.allowTypeViolations ?? false });
  return broken.length === 0 ? undefined : fc.oneof(...broken);
}
