import type { SurveyMessageLimits } from '../settings';
import { errors } from '../../errors/catalogue';
import { codePointLength } from '../../domain/storable-text';
import { ARRAY_PARTS, PART_NAMES, TEXT_PARTS, textTooLong, tooManyItems, type ArrayPart, type TextPart } from '../call-parts';
import type { ReceivedParts } from '../../domain/received-parts';
import { PIECED_TEXT_LENGTH, ropeOf, withTextPieces, type PartPieces } from '../text-pieces';
import { isSurveyOperation, SOAP_11_ENVELOPE, SURVEY_OPERATIONS, type SurveyOperation } from './wsdl';

const SOAP_12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
const NEXT_ACTOR = 'http://schemas.xmlsoap.org/soap/actor/next';
const XML_SCHEMA_INSTANCE = 'http://www.w3.org/2001/XMLSchema-instance';

const OPERATIONS_NAMED = SURVEY_OPERATIONS.join(' or ');
const ONE_CALL = `the SOAP Body must hold exactly one element, the ${OPERATIONS_NAMED} call`;

/** A SOAP call's parts and the operation it named. */
export interface SoapCallParts extends ReceivedParts {
  readonly operation: SurveyOperation;
}

/** Where an open element stands in the svcEval or plumEval message; what it may hold follows from it. */
type Place =
  | { readonly kind: 'envelope' | 'header' | 'body' | 'call' | 'ignored' }
  | { readonly kind: 'array'; readonly part: ArrayPart; readonly items: string[]; itemName?: string }
  | { readonly kind: 'string'; readonly part: TextPart; readonly text: TextCollector | undefined }
  | { readonly kind: 'item'; readonly name: string; readonly text: TextCollector | undefined };

interface Frame {
  readonly place: Place;
  /** Namespace prefixes this element declares ('' for the default namespace). */
  readonly declarations: ReadonlyMap<string, string> | undefined;
}

/** Throws the refusal of an envelope that is not one SOAP 1.1 call as the WSDL describes it. */
function refused(message: string): never {
  throw errors.invalidEnvelope(message);
}

/** Only a bounded piece of a name the client chose goes back to it in the faultstring. */
export function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}...` : name;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const prefixOf = (name: string) => (name.includes(':') ? name.slice(0, name.indexOf(':')) : '');

class TextCollector {
  private readonly pieces: string[] = [];
  private length = 0;

  constructor(
    private readonly what: string,
    private readonly maxLength: number,
  ) {}

  add(text: string): void {
    this.pieces.push(text);
    this.length += text.length;
    // Characters are code points, as the REST twin's form fields count them; UTF-16 units are never
    // fewer, so the count is taken only past the bound.
    if (this.length > this.maxLength && codePointLength(this.text()) > this.maxLength) throw textTooLong(this.what, this.maxLength);
  }

  text(): string {
    return this.length > PIECED_TEXT_LENGTH ? ropeOf(this.pieces) : this.pieces.join('');
  }

  /** The pieces of a long text (see text-pieces.ts); undefined for a short one. */
  longPieces(): readonly string[] | undefined {
    return this.length > PIECED_TEXT_LENGTH ? this.pieces : undefined;
  }
}

function declarationsOf(attributes: Readonly<Record<string, string>>): Map<string, string> | undefined {
  let declarations: Map<string, string> | undefined;
  for (const name in attributes) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) (declarations ??= new Map()).set(name === 'xmlns' ? '' : name.slice(6), attributes[name] ?? '');
  }
  return declarations;
}

/**
 * The events of one parse of a message, in document order, as sax reports them: an element's start,
 * each of its attributes (a repeated name once), the element with all its attributes, text (possibly
 * in several pieces, entities expanded), an element's end. Each throws the fault for the rule the
 * message breaks at that point.
 */
export interface EnvelopeEvents {
  openTagStart(): void;
  attribute(name: string): void;
  openTag(name: string, attributes: Readonly<Record<string, string>>): void;
  text(text: string): void;
  closeTag(): void;
  /** The parts, once the whole message was reported; throws the fault for what the message lacks. */
  end(): SoapCallParts;
}

/**
 * The rules of a SOAP 1.1 svcEval or plumEval message, applied as its events arrive, keeping only the
 * parts. Every structural bound is checked on the event that would cross it: depth and element count
 * when a tag opens, attributes one by one, text piece by piece. Lets through only an envelope with
 * exactly one Body holding one call of an operation and no header it must understand.
 */
export function envelopeRules(limits: SurveyMessageLimits): EnvelopeEvents {
  const stack: Frame[] = [];
  const received: ReceivedParts = {};
  let pieces: PartPieces | undefined;
  let elements = 0;
  let attributes = 0;
  let rootClosed = false;
  let bodies = 0;
  let operation: SurveyOperation | undefined;
  const partsSeen = new Set<string>();

  function namespaceOf(name: string, own: ReadonlyMap<string, string> | undefined): string | undefined {
    const prefix = prefixOf(name);
    const found = own?.get(prefix);
    if (found !== undefined) return found;
    for (let index = stack.length - 1; index >= 0; index -= 1) {
      const uri = stack[index]?.declarations?.get(prefix);
      if (uri !== undefined) return uri;
    }
    return undefined;
  }

  /** The value of an attribute in `namespace` named `local`, whatever its prefix. */
  function attributeIn(
    attributes: Readonly<Record<string, string>>,
    declarations: ReadonlyMap<string, string> | undefined,
    namespace: string,
    local: string,
  ): string | undefined {
    for (const name in attributes) {
      if (name.endsWith(`:${local}`) && namespaceOf(name, declarations) === namespace) return attributes[name]?.trim();
    }
    return undefined;
  }

  function isNil(attributes: Readonly<Record<string, string>>, declarations: ReadonlyMap<string, string> | undefined): boolean {
    const nil = attributeIn(attributes, declarations, XML_SCHEMA_INSTANCE, 'nil');
    return nil === 'true' || nil === '1';
  }

  function placeOf(name: string, attributes: Readonly<Record<string, string>>, declarations: ReadonlyMap<string, string> | undefined): Place {
    const parent = stack.at(-1)?.place;
    const local = localName(name);
    if (parent === undefined) {
      if (rootClosed) refused('the request holds more than the SOAP envelope; send one envelope per request');
      const namespace = namespaceOf(name, declarations);
      if (local === 'Envelope' && namespace === SOAP_11_ENVELOPE) return { kind: 'envelope' };
      return refused(
        namespace === SOAP_12_ENVELOPE
          ? `SOAP 1.2 is not supported; send a SOAP 1.1 envelope (namespace ${SOAP_11_ENVELOPE})`
          : `the request is not a SOAP 1.1 envelope (an Envelope element in namespace ${SOAP_11_ENVELOPE})`,
      );
    }
    switch (parent.kind) {
      case 'envelope': {
        if (namespaceOf(name, declarations) !== SOAP_11_ENVELOPE) return { kind: 'ignored' };
        if (local === 'Header') return { kind: 'header' };
        if (local !== 'Body') return { kind: 'ignored' };
        bodies += 1;
        if (bodies > 1) refused('the SOAP envelope must hold exactly one Body');
        return { kind: 'body' };
      }
      case 'header': {
        // SOAP 1.1, 4.2.3: an entry for this service (no actor, or the next one) marked mustUnderstand.
        const mustUnderstand = attributeIn(attributes, declarations, SOAP_11_ENVELOPE, 'mustUnderstand');
        const actor = attributeIn(attributes, declarations, SOAP_11_ENVELOPE, 'actor');
        if ((mustUnderstand === '1' || mustUnderstand === 'true') && (actor === undefined || actor === NEXT_ACTOR)) {
          throw errors.soapHeaderNotUnderstood(shown(name));
        }
        return { kind: 'ignored' };
      }
      case 'body': {
        if (operation !== undefined) refused(ONE_CALL);
        if (!isSurveyOperation(local)) throw errors.unknownOperation(shown(local), SURVEY_OPERATIONS);
        operation = local;
        return { kind: 'call' };
      }
      case 'call': {
        // Parts the WSDL does not declare are left alone, as SOAP processors leave unknown content.
        if (!ARRAY_PARTS.has(name) && !TEXT_PARTS.has(name)) return { kind: 'ignored' };
        if (partsSeen.has(name)) refused(`${operation} holds more than one ${name} part`);
        partsSeen.add(name);
        const arrayPart = ARRAY_PARTS.get(name);
        if (arrayPart !== undefined) return { kind: 'array', part: arrayPart, items: [] };
        const stringPart = TEXT_PARTS.get(name) as TextPart;
        return { kind: 'string', part: stringPart, text: isNil(attributes, declarations) ? undefined : new TextCollector(name, limits.maxTextLength) };
      }
      case 'array': {
        if (parent.itemName !== undefined && parent.itemName !== name) {
          refused(`${PART_NAMES[parent.part]} mixes item element names (${shown(parent.itemName)}, ${shown(name)}); name every item alike`);
        }
        parent.itemName = name;
        if (parent.items.length >= limits.maxItems) {
          throw tooManyItems(parent.part, limits.maxItems);
        }
        const what = `${PART_NAMES[parent.part]}[${parent.items.length}]`;
        return { kind: 'item', name: what, text: isNil(attributes, declarations) ? undefined : new TextCollector(what, limits.maxTextLength) };
      }
      case 'item':
        return refused(`${parent.name} must be a string, not a structure`);
      case 'string':
        return refused(`${PART_NAMES[parent.part]} must be a string, not a structure`);
      case 'ignored':
        return { kind: 'ignored' };
    }
  }

  return {
    openTagStart() {
      elements += 1;
      attributes = 0;
      if (elements > limits.maxElements) throw errors.surveyLimitExceeded('the number of elements', limits.maxElements, 'SURVEY_MAX_ELEMENTS');
      if (stack.length >= limits.maxDepth) throw errors.surveyLimitExceeded('the nesting of elements', limits.maxDepth, 'SURVEY_MAX_DEPTH');
    },
    attribute(name) {
      // sax keeps attributes in a plain object and calls its hasOwnProperty: an attribute of that name breaks it.
      if (name in Object.prototype) refused(`an attribute named ${name} is not accepted`);
      attributes += 1;
      if (attributes > limits.maxAttributes) {
        throw errors.surveyLimitExceeded('the number of attributes of one element', limits.maxAttributes, 'SURVEY_MAX_ATTRIBUTES');
      }
    },
    openTag(name, attributes) {
      const declarations = declarationsOf(attributes);
      stack.push({ place: placeOf(name, attributes, declarations), declarations });
    },
    text(text) {
      const place = stack.at(-1)?.place;
      if (place === undefined) return;
      switch (place.kind) {
        case 'item':
        case 'string':
          place.text?.add(text);
          return;
        case 'ignored':
          return;
        default:
          if (!/\S/.test(text)) return;
          if (place.kind === 'call') refused(`${operation} holds text between its parts; send only its part elements`);
          if (place.kind === 'array') {
            refused(`${PART_NAMES[place.part]} must be an array of strings (one child element per item), not text`);
          }
          refused('the SOAP envelope holds text outside its elements; send only the Envelope, Header and Body elements');
      }
    },
    closeTag() {
      const frame = stack.pop();
      const place = frame?.place;
      if (place === undefined) return;
      if (place.kind === 'envelope') rootClosed = true;
      else if (place.kind === 'array') received[place.part] = place.items;
      else if (place.kind === 'string') {
        received[place.part] = place.text?.text();
        const long = place.text?.longPieces();
        if (long !== undefined) (pieces ??= {})[place.part] = long;
      } else if (place.kind === 'item') {
        const parent = stack.at(-1)?.place;
        if (parent?.kind !== 'array') return;
        const long = place.text?.longPieces();
        if (long !== undefined) ((pieces ??= {})[parent.part] ??= new Map()).set(parent.items.length, long);
        parent.items.push(place.text?.text() ?? '');
      }
    },
    end() {
      if (elements === 0) refused(`the request body is empty; send a SOAP 1.1 envelope that calls ${OPERATIONS_NAMED}`);
      if (bodies === 0) refused('the SOAP envelope must hold exactly one Body');
      if (operation === undefined) return refused(ONE_CALL);
      return withTextPieces({ ...received, operation }, pieces);
    },
  };
}
