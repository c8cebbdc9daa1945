import type { SurveyMessageLimits } from '../settings';
import { envelopeRules, type EnvelopeEvents, type SoapCallParts } from './envelope-rules';

/** Thrown inside the scan for anything outside plain XML: the message is then sax's to read. */
class NotPlain extends Error {}

function notPlain(): never {
  throw new NotPlain();
}

/** White space as XML (and sax) define it, not as JavaScript's \s does. */
function isXmlWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** ASCII letters, `_` and `:`: the ASCII part of XML's NameStartChar. */
function isNameStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x3a;
}

/** The ASCII part of XML's NameChar. */
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2d;
}

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** Character references as clients write them: no leading zero, which sax reads only in part. */
const CHARACTER_REFERENCE = /^#(?:([1-9][0-9]{0,6})|[xX]([1-9a-fA-F][0-9a-fA-F]{0,5}))$/;

/** XML 1.0's Char: a reference to anything else is not well-formed. */
function isXmlCharacter(code: number): boolean {
  if (code === 0x09 || code === 0x0a || code === 0x0d) return true;
  return (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** What an entity or character reference stands for; anything sax might read otherwise stops the scan. */
function expansionOf(reference: string): string {
  const entity = ENTITIES.get(reference);
  if (entity !== undefined) return entity;
  const [, decimal, hexadecimal] = CHARACTER_REFERENCE.exec(reference) ?? notPlain();
  const code = decimal === undefined ? Number.parseInt(hexadecimal ?? '', 16) : Number(decimal);
  return isXmlCharacter(code) ? String.fromCodePoint(code) : notPlain();
}

const XML_DECLARATION = '<?xml';
const SLASH = 0x2f;
const EQUALS = 0x3d;
const GREATER_THAN = 0x3e;

/**
 * One whole message, scanned left to right, reporting to the rules the events sax would report for it.
 * Only the plain XML that clients write is scanned; every other construct stops the scan.
 */
class PlainScan {
  private index = 0;
  /** Names of the open elements, innermost last. */
  private readonly open: string[] = [];
  private rootSeen = false;

  constructor(
    private readonly text: string,
    private readonly events: EnvelopeEvents,
  ) {}

  parts(): SoapCallParts {
    this.skipWhitespace();
    if (this.text.startsWith(XML_DECLARATION, this.index) && isXmlWhitespace(this.text.charCodeAt(this.index + XML_DECLARATION.length))) {
      const end = this.text.indexOf('?>', this.index + XML_DECLARATION.length);
      if (end === -1) notPlain();
      this.index = end + 2;
    }
    for (;;) {
      const tagStart = this.text.indexOf('<', this.index);
      const textEnd = tagStart === -1 ? this.text.length : tagStart;
      if (this.open.length === 0) this.onlyWhitespaceUpTo(textEnd);
      else if (textEnd > this.index) this.events.text(this.content(textEnd));
      if (tagStart === -1) break;
      this.index = tagStart + 1;
      if (this.text.charCodeAt(this.index) === SLASH) this.closeTag();
      else this.element();
    }
    if (!this.rootSeen || this.open.length > 0) notPlain();
    return this.events.end();
  }

  private skipWhitespace(): void {
    while (isXmlWhitespace(this.text.charCodeAt(this.index))) this.index += 1;
  }

  /** Outside the root element sax allows only white space, which the rules ignore. */
  private onlyWhitespaceUpTo(end: number): void {
    this.skipWhitespace();
    if (this.index < end) notPlain();
  }

  private name(): string {
    const start = this.index;
    if (!isNameStart(this.text.charCodeAt(this.index))) notPlain();
    do this.index += 1;
    while (isNameChar(this.text.charCodeAt(this.index)));
    return this.text.slice(start, this.index);
  }

  private expect(code: number): void {
    if (this.text.charCodeAt(this.index) !== code) notPlain();
    this.index += 1;
  }

  /** The text up to `end` with XML's five entities and character references expanded. */
  private content(end: number): string {
    let ampersand = this.text.indexOf('&', this.index);
    if (ampersand === -1 || ampersand >= end) {
      const content = this.text.slice(this.index, end);
      this.index = end;
      return content;
    }
    let content = '';
    while (ampersand !== -1 && ampersand < end) {
      const semicolon = this.text.indexOf(';', ampersand + 1);
      if (semicolon === -1 || semicolon >= end) notPlain();
      content += this.text.slice(this.index, ampersand) + expansionOf(this.text.slice(ampersand + 1, semicolon));
      this.index = semicolon + 1;
      ampersand = this.text.indexOf('&', this.index);
    }
    content += this.text.slice(this.index, end);
    this.index = end;
    return content;
  }

  /** After `<`: a start tag, with its attributes, or an empty-element tag. */
  private element(): void {
    // A second root element is a fault; sax reads it, the rules refuse it.
    if (this.rootSeen && this.open.length === 0) notPlain();
    this.rootSeen = true;
    const name = this.name();
    this.events.openTagStart();
    const attributes: Record<string, string> = {};
    let empty = false;
    for (;;) {
      const code = this.text.charCodeAt(this.index);
      if (code === GREATER_THAN) {
        this.index += 1;
        break;
      }
      if (code === SLASH) {
        this.index += 1;
        this.expect(GREATER_THAN);
        empty = true;
        break;
      }
      // sax requires white space after the name and between attributes.
      if (!isXmlWhitespace(code)) notPlain();
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.index);
      if (next !== GREATER_THAN && next !== SLASH) this.attribute(attributes);
    }
    this.events.openTag(name, attributes);
    if (empty) this.events.closeTag();
    else this.open.push(name);
  }

  private attribute(attributes: Record<string, string>): void {
    const name = this.name();
    this.skipWhitespace();
    this.expect(EQUALS);
    this.skipWhitespace();
    const quote = this.text[this.index];
    if (quote !== '"' && quote !== "'") notPlain();
    const end = this.text.indexOf(quote, this.index + 1);
    if (end === -1) notPlain();
    const value = this.text.slice(this.index + 1, end);
    // An entity in a value, or a repeated name (which sax drops without an event), is sax's to read.
    if (value.includes('&') || Object.hasOwn(attributes, name)) notPlain();
    this.index = end + 1;
    this.events.attribute(name);
    attributes[name] = value;
  }

  /** After `<`, at `/`: an end tag, which must close the innermost open element. */
  private closeTag(): void {
    this.index += 1;
    const name = this.name();
    this.skipWhitespace();
    this.expect(GREATER_THAN);
    if (name !== this.open.at(-1)) notPlain();
    this.open.pop();
    this.events.closeTag();
  }
}

/**
 * The parts of a whole message of plain XML, read without sax: what PHP's SoapClient, zeep and the
 * soap package send (an XML declaration, elements with ASCII names, quoted attributes, text with XML's
 * five entities and character references) costs far less than a sax parse. Anything else returns
 * undefined: a comment, CDATA, a processing instruction, a document type, another entity, a name
 * beyond ASCII, an unexpected character, a message that is not whole, and any message that breaks a
 * rule of the call. The caller then reads it with sax, which answers it as it always did (the fault
 * included), so this path only ever gives the parts sax gives, the same events going to the same rules.
 *
 * Kept because reading every svcEval message with sax is a large part of a call's CPU
 * (docs/performance-costs.md, "Hand-written shortcuts on Node.js 24").
 */
export function readPlainEnvelope(text: string, limits: SurveyMessageLimits): SoapCallParts | undefined {
  try {
    return new PlainScan(text, envelopeRules(limits)).parts();
  } catch {
    // Whatever stopped the scan, a construct beyond plain XML or a broken rule, sax finds and names it.
    return undefined;
  }
}
