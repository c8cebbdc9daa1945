import { isDeepStrictEqual } from 'node:util';
import sax from 'sax';
import type { DiagnosticFlow, Geographic } from './expected';

/*
 * How an answer is held against the oracle: the whole body (toEqual's rules), the order of the keys
 * of every object as the server wrote them (read from the text, since JSON.parse reorders the numeric
 * timestamp keys), and the XML form as a tree of elements in document order.
 */

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** The keys of every object of a JSON text in the order written, innermost objects first. */
export function writtenKeyOrder(text: string): string[] {
  let at = 0;
  const orders: string[] = [];
  const space = () => {
    while (at < text.length && /\s/.test(text[at] as string)) at += 1;
  };
  const string = (): string => {
    const begin = at;
    at += 1;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(begin, at)) as string;
  };
  const value = (path: string): void => {
    space();
    const first = text[at];
    if (first === '{') {
      at += 1;
      const keys: string[] = [];
      space();
      if (text[at] === '}') at += 1;
      else
        for (;;) {
          space();
          const key = string();
          keys.push(key);
          space();
          at += 1;
          value(`${path}.${key}`);
          space();
          const next = text[at];
          at += 1;
          if (next !== ',') break;
        }
      orders.push(`${path}: ${keys.join(' | ')}`);
    } else if (first === '[') {
      at += 1;
      space();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (let index = 0; ; index += 1) {
        value(`${path}[${index}]`);
        space();
        const next = text[at];
        at += 1;
        if (next !== ',') break;
      }
    } else if (first === '"') string();
    else while (at < text.length && !/[\s,}\]]/.test(text[at] as string)) at += 1;
  };
  value('$');
  return orders;
}

/** The same list for a value built in memory (integer-like keys, the timestamps, come out ascending). */
export function builtKeyOrder(value: unknown, path = '$', orders: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item, index) => builtKeyOrder(item, `${path}[${index}]`, orders));
  else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    for (const key of keys) builtKeyOrder((value as Record<string, unknown>)[key], `${path}.${key}`, orders);
    orders.push(`${path}: ${keys.join(' | ')}`);
  }
  return orders;
}

const brief = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 160);

/** Where two values differ, as readable lines (at most `limit`). */
export function differences(expected: unknown, actual: unknown, path = '$', lines: string[] = [], limit = 12): string[] {
  if (lines.length >= limit) return lines;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) lines.push(`${path}: expected ${expected.length} items, got ${actual.length}`);
    for (let index = 0; index < Math.min(expected.length, actual.length); index += 1) {
      differences(expected[index], actual[index], `${path}[${index}]`, lines, limit);
    }
  } else if (isObject(expected) && isObject(actual)) {
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) lines.push(`${path}.${key}: missing (expected ${brief(expected[key])})`);
      else differences(expected[key], actual[key], `${path}.${key}`, lines, limit);
      if (lines.length >= limit) return lines;
    }
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(expected, key)) lines.push(`${path}.${key}: unexpected (${brief(actual[key])})`);
    }
  } else if (!Object.is(expected, actual)) {
    lines.push(`${path}: expected ${brief(expected)}, got ${brief(actual)}`);
  }
  return lines.slice(0, limit);
}

export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  /** The text of an element without child elements; '' otherwise. */
  readonly text: string;
}

export function parseXml(text: string): XmlElement {
  const parser = sax.parser(true, { trim: false });
  const stack: { element: XmlElement; text: string }[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.onerror = (error) => {
    failure = error;
  };
  parser.onopentag = (tag) => {
    const attributes = Object.fromEntries(Object.entries(tag.attributes).map(([name, value]) => [name, String(value)]));
    const element = { name: tag.name, attributes, children: [], text: '' } as XmlElement;
    stack.at(-1)?.element.children.push(element);
    stack.push({ element, text: '' });
  };
  const onText = (chunk: string) => {
    const top = stack.at(-1);
    if (top !== undefined) top.text += chunk;
  };
  parser.ontext = onText;
  parser.oncdata = onText;
  parser.onclosetag = () => {
    const done = stack.pop();
    if (done === undefined) return;
    const element = { ...done.element, text: done.element.children.length === 0 ? done.text : '' };
    const parent = stack.at(-1);
    if (parent === undefined) root = element;
    else parent.element.children[parent.element.children.length - 1] = element;
  };
  parser.write(text).close();
  if (failure !== undefined) throw failure;
  if (root === undefined) throw new Error('no root element');
  return root;
}

const element = (name: string, attributes: Record<string, string>, content: XmlElement[] | string | number): XmlElement =>
  typeof content === 'object'
    ? { name, attributes, children: content, text: '' }
    : { name, attributes, children: [], text: String(content) };

/** `<result><calls><period timestamp="...">n</period>...</calls>...</result>` */
export function seriesXml(body: Record<string, Record<string, number>>): XmlElement {
  return element(
    'result',
    {},
    Object.entries(body).map(([name, series]) =>
      element(name, {}, Object.entries(series).map(([timestamp, value]) => element('period', { timestamp }, value))),
    ),
  );
}

/** `<result><US><state code="AK">0</state>...</US><NON_US><country code="CA">3</country></NON_US></result>` */
export function geographicXml(body: Geographic): XmlElement {
  return element('result', {}, [
    element('US', {}, Object.entries(body.US).map(([code, calls]) => element('state', { code }, calls))),
    element('NON_US', {}, body.NON_US.map(({ country, calls }) => element('country', { code: country }, calls))),
  ]);
}

/** `<result><applications><application url="..."><entry><page>...</page>...</entry></application></applications></result>` */
export function diagnosticFlowXml(flow: Extract<DiagnosticFlow, { status: 200 }>['body']): XmlElement {
  return element('result', {}, [
    element(
      'applications',
      {},
      Object.entries(flow.applications).map(([url, entries]) =>
        element(
          'application',
          { url },
          entries.map((entry) => element('entry', {}, Object.entries(entry).map(([name, value]) => element(name, {}, value)))),
        ),
      ),
    ),
  ]);
}

interface Mismatch {
  readonly request: string;
  readonly lines: readonly string[];
}

/** Every answer checked, and those that disagree with the oracle; one failure at the end lists them. */
export class Comparison {
  private readonly mismatches: Mismatch[] = [];
  private checked = 0;

  /** The seed of a randomized data set, named in a failure; none for a fixed one. */
  constructor(private readonly seed?: number) {}

  private fail(request: string, lines: readonly string[]): void {
    this.mismatches.push({ request, lines });
  }

  json(request: string, answer: Answer, expected: unknown): void {
    this.checked += 1;
    if (answer.status !== 200) return this.fail(request, [`status ${answer.status}, expected 200: ${brief(answer.text)}`]);
    if (!answer.contentType.startsWith('application/json')) return this.fail(request, [`content type ${answer.contentType}`]);
    // The quick way: compact JSON written exactly as the oracle would write it (same values, same key order).
    if (answer.text === JSON.stringify(expected)) return;
    const body: unknown = JSON.parse(answer.text);
    const lines = differences(expected, body);
    if (lines.length > 0) return this.fail(request, lines);
    const written = writtenKeyOrder(answer.text);
    const wanted = builtKeyOrder(expected);
    const misordered = wanted.filter((order, index) => written[index] !== order);
    if (misordered.length > 0 || written.length !== wanted.length) {
      const writtenAt = (order: string) => written.find((line) => line.startsWith(`${order.split(':')[0]}:`)) ?? 'nothing';
      this.fail(
        request,
        misordered.slice(0, 3).map((order) => `keys out of order: expected ${order.slice(0, 300)}, got ${writtenAt(order).slice(0, 300)}`),
      );
    }
  }

  xml(request: string, answer: Answer, expected: XmlElement): void {
    this.checked += 1;
    if (answer.status !== 200) return this.fail(request, [`status ${answer.status}, expected 200: ${brief(answer.text)}`]);
    if (!answer.contentType.startsWith('application/xml')) return this.fail(request, [`content type ${answer.contentType}`]);
    if (!answer.text.startsWith('<?xml')) return this.fail(request, ['no XML declaration']);
    let tree: XmlElement;
    try {
      tree = parseXml(answer.text);
    } catch (error) {
      return this.fail(request, [`not well-formed XML: ${(error as Error).message.split('\n')[0]}`]);
    }
    if (isDeepStrictEqual(expected, tree)) return;
    const lines = differences(expected, tree);
    if (lines.length > 0) this.fail(request, lines);
  }

  status(request: string, answer: Answer, status: number, error?: RegExp): void {
    this.checked += 1;
    if (answer.status !== status) return this.fail(request, [`status ${answer.status}, expected ${status}: ${brief(answer.text)}`]);
    if (error === undefined) return;
    let message: unknown;
    try {
      message = (JSON.parse(answer.text) as { error?: unknown }).error;
    } catch {
      message = undefined;
    }
    if (typeof message !== 'string' || !error.test(message)) this.fail(request, [`error ${brief(message)} does not match ${String(error)}`]);
  }

  get count(): number {
    return this.checked;
  }

  /** Throws one error naming the seed, how many answers differ, and where, when any does. */
  assertAgreement(): void {
    if (this.checked === 0) throw new Error('nothing was compared');
    if (this.mismatches.length === 0) return;
    const shown = this.mismatches.slice(0, 8);
    throw new Error(
      [
        `${this.seed === undefined ? '' : `seed ${this.seed} (ORACLE_SEED=${this.seed} replays it): `}` +
          `${this.mismatches.length} of ${this.checked} answers differ from the oracle`,
        ...shown.map(({ request, lines }) => [`- ${request}`, ...lines.map((line) => `    ${line}`)].join('\n')),
        ...(this.mismatches.length > shown.length ? [`... and ${this.mismatches.length - shown.length} more`] : []),
      ].join('\n'),
    );
  }
}
