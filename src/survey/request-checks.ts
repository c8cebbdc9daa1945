import { Parser } from 'xml2js';
import { errors } from '../errors/catalogue';
import { SOAP_11_ENVELOPE, SURVEY_SERVICE } from './wsdl';

const SOAP_12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
const NEXT_ACTOR = 'http://schemas.xmlsoap.org/soap/actor/next';

/** An element as xml2js gives it: attributes under `$`, text under `_`, child elements by name. */
interface ParsedElement {
  readonly $?: Readonly<Record<string, string>>;
  readonly [child: string]: readonly ParsedElement[] | Readonly<Record<string, string>> | string | undefined;
}

interface NamedElement {
  readonly name: string;
  readonly element: ParsedElement;
}

const DECLARATION = /<!(DOCTYPE|ENTITY)/i;

/**
 * Start tags named like a property every JavaScript object has (constructor, __proto__, toString, ...),
 * whatever their prefix. Parsers that build plain objects from XML, the soap package's included, break
 * on them (xml2js even turns __proto__ into a prototype), so they are found on the text itself, in one
 * pass: CDATA sections and comments, where a `<` is text, match first and are passed over.
 */
const OBJECT_PROPERTY_ELEMENT = new RegExp(
  `<!\\[CDATA\\[[\\s\\S]*?\\]\\]>|<!--[\\s\\S]*?-->|<(?:[\\w.-]+:)?(${Object.getOwnPropertyNames(Object.prototype).join('|')})(?=[\\s/>])`,
  'g',
);

function objectPropertyElement(xml: string): string | undefined {
  for (const match of xml.matchAll(OBJECT_PROPERTY_ELEMENT)) {
    if (match[1] !== undefined) return match[1];
  }
  return undefined;
}

function rejected(message: string): never {
  throw errors.invalidSoapRequest(message);
}

/** Only the element local name clients chose, shortened: it goes back to them in the faultstring. */
function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}...` : name;
}

/** The child elements, in no particular order across names (the checks below need none). */
function childElements(element: ParsedElement): NamedElement[] {
  return Object.entries(element)
    .filter(([name]) => name !== '$' && name !== '_')
    .flatMap(([name, children]) => (Array.isArray(children) ? (children as ParsedElement[]) : []).map((child) => ({ name, element: child })));
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The namespace of a prefixed name, looked up from the innermost element outwards. */
function namespaceOf(name: string, scopes: readonly ParsedElement[]): string | undefined {
  const separator = name.indexOf(':');
  const declaration = separator === -1 ? 'xmlns' : `xmlns:${name.slice(0, separator)}`;
  return scopes.map((scope) => scope.$?.[declaration]).find((uri) => uri !== undefined);
}

// Plain xml2js (no xmlns objects, no ordered children) costs half as much on large bodies, and the
// few namespaces checked here are resolved by hand.
async function parse(xml: string): Promise<NamedElement> {
  let root: Record<string, ParsedElement> | null;
  try {
    root = (await new Parser({ explicitRoot: true }).parseStringPromise(xml)) as Record<string, ParsedElement> | null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
    return rejected(`the request is not well-formed XML: ${reason}`);
  }
  const [name, element] = Object.entries(root ?? {})[0] ?? [];
  if (name === undefined || element === undefined) {
    return rejected('the request body holds no XML element; send a SOAP 1.1 envelope that calls svcEval');
  }
  return { name, element };
}

/**
 * Lets through only a well-formed SOAP 1.1 envelope whose Body holds one svcEval element. The soap
 * package answers anything else wrongly: an unknown operation with a stack trace, a non-SOAP body by
 * running the handler with no arguments. Document type declarations are refused outright, before any
 * parser runs, so no entity is ever declared, expanded or fetched.
 */
export async function checkEnvelope(xml: string): Promise<void> {
  if (xml.trim() === '') rejected('the request body is empty; send a SOAP 1.1 envelope that calls svcEval');
  if (DECLARATION.test(xml)) rejected('document type and entity declarations are not accepted');
  const objectProperty = objectPropertyElement(xml);
  if (objectProperty !== undefined) rejected(`an element named ${objectProperty} is not accepted; svcEval has no such part or item`);
  const envelope = await parse(xml);
  const envelopeNamespace = namespaceOf(envelope.name, [envelope.element]);
  if (localName(envelope.name) !== 'Envelope' || envelopeNamespace !== SOAP_11_ENVELOPE) {
    rejected(
      envelopeNamespace === SOAP_12_ENVELOPE
        ? `SOAP 1.2 is not supported; send a SOAP 1.1 envelope (namespace ${SOAP_11_ENVELOPE})`
        : `the request is not a SOAP 1.1 envelope (an Envelope element in namespace ${SOAP_11_ENVELOPE})`,
    );
  }
  checkHeaders(envelope);
  const bodies = envelopeParts(envelope, 'Body');
  if (bodies.length !== 1) rejected('the SOAP envelope must hold exactly one Body');
  const calls = bodies[0] === undefined ? [] : childElements(bodies[0].element);
  if (calls.length !== 1) rejected(`the SOAP Body must hold exactly one element, the ${SURVEY_SERVICE.operation} call`);
  const operation = localName(calls[0]?.name ?? '');
  if (operation !== SURVEY_SERVICE.operation) {
    rejected(`unknown operation ${shown(operation)}; this service has one operation, ${SURVEY_SERVICE.operation}`);
  }
  if (typeof calls[0]?.element._ === 'string' && calls[0].element._.trim() !== '') {
    rejected(`${SURVEY_SERVICE.operation} holds text between its parts; send only its part elements`);
  }
}

/** The envelope's children named `part` (Header or Body) in the SOAP 1.1 namespace, whatever their prefix. */
function envelopeParts(envelope: NamedElement, part: 'Header' | 'Body'): NamedElement[] {
  return childElements(envelope.element).filter(
    (child) => localName(child.name) === part && namespaceOf(child.name, [child.element, envelope.element]) === SOAP_11_ENVELOPE,
  );
}

/** The value of the SOAP 1.1 envelope attribute `name` (e.g. mustUnderstand) on an element, whatever its prefix. */
function envelopeAttribute(element: ParsedElement, name: string, scopes: readonly ParsedElement[]): string | undefined {
  const attributes = Object.entries(element.$ ?? {});
  const found = attributes.find(
    ([attribute]) => attribute.includes(':') && localName(attribute) === name && namespaceOf(attribute, scopes) === SOAP_11_ENVELOPE,
  );
  return found?.[1];
}

/**
 * SOAP 1.1 (section 4.2.3): a header entry meant for this service (no actor, or the next one) and
 * marked mustUnderstand="1" must be refused with a MustUnderstand fault; svcEval defines no headers.
 */
function checkHeaders(envelope: NamedElement): void {
  for (const header of envelopeParts(envelope, 'Header')) {
    for (const entry of childElements(header.element)) {
      const scopes = [entry.element, header.element, envelope.element];
      const mustUnderstand = envelopeAttribute(entry.element, 'mustUnderstand', scopes)?.trim();
      const actor = envelopeAttribute(entry.element, 'actor', scopes)?.trim();
      if ((mustUnderstand === '1' || mustUnderstand === 'true') && (actor === undefined || actor === NEXT_ACTOR)) {
        throw errors.soapHeaderNotUnderstood(shown(entry.name));
      }
    }
  }
}

/**
 * SOAP 1.1 callers name the operation in the SOAPAction header; this service accepts its own action,
 * or none (absent or empty), since the Body already names svcEval.
 */
export function checkSoapAction(header: string | undefined): void {
  const action = header?.trim().replace(/^"(.*)"$/, '$1') ?? '';
  if (action !== '' && action !== SURVEY_SERVICE.soapAction) {
    rejected(`unknown SOAPAction ${shown(action)}; this service answers ${SURVEY_SERVICE.soapAction}`);
  }
}
