import { errors } from '../errors/catalogue';

/** Where the soap package puts an element's attributes and, when it has attributes, its text. */
export const ATTRIBUTES_KEY = 'attributes';
export const VALUE_KEY = '$value';

type Parsed = Record<string, unknown>;

function isParsedElement(value: unknown): value is Parsed {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childNames(element: Parsed): string[] {
  return Object.keys(element).filter((key) => key !== ATTRIBUTES_KEY && key !== VALUE_KEY);
}

/**
 * One text value as the soap package parsed it: plain text when the element had no attributes,
 * `{attributes, $value}` when it had some (xsi:type), `{attributes}` alone when it was empty, null when
 * it was empty without attributes or xsi:nil. Undefined means the element was not there at all.
 */
function text(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (isParsedElement(value) && childNames(value).length === 0) {
    const inner = value[VALUE_KEY];
    if (inner === undefined) return '';
    if (typeof inner === 'string') return inner;
  }
  throw errors.invalidSoapRequest(`${name} must be a string, not a structure`);
}

/** An optional string part (ani_ip, dnis, session_id); absent and xsi:nil both give undefined. */
export function optionalString(value: unknown, part: string): string | undefined {
  return value === null ? undefined : text(value, part);
}

/**
 * A SOAP-encoded array of strings, which the soap package does not decode: its items arrive as the
 * child elements of the part, under whatever element name the client chose (PHP: item; the soap
 * package's own client: the part's name), as an array for many items, a single value for one, and not
 * at all for none (only the arrayType attribute is left, or null). Items keep their positions; a nil
 * item becomes ''. Undefined means the part itself is missing.
 */
export function stringArray(value: unknown, part: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === null) return [];
  if (!isParsedElement(value) || typeof value[VALUE_KEY] === 'string') {
    throw errors.invalidSoapRequest(`${part} must be an array of strings (one child element per item), not text`);
  }
  const names = childNames(value);
  if (names.length > 1) {
    throw errors.invalidSoapRequest(`${part} mixes item element names (${names.join(', ')}); name every item alike`);
  }
  const name = names[0];
  if (name === undefined) return [];
  const items = value[name];
  return (Array.isArray(items) ? items : [items]).map((item, index) => text(item, `${part}[${index}]`) ?? '');
}
