import busboy, { type Busboy, type FileInfo, type FieldInfo } from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { SurveyMessageLimits } from '../settings';
import { errors, type AppError } from '../../errors/catalogue';
import { codePointLength } from '../../domain/storable-text';
import type { HeavyTurns } from '../../http/heavy-turns';
import { readBody } from '../body-stream';
import { ARRAY_PARTS, PART_NAMES, TEXT_PARTS, textTooLong, tooManyItems, type ArrayPart, type SurveyCallBounds } from '../call-parts';
import type { ReceivedParts } from '../../domain/received-parts';
import type { SurveyFile } from '../../domain/survey-handler';

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** A form whose end costs a millisecond or more of joining and decoding (bench/survey.ts measures it). */
const HEAVY_FORM_BYTES = 1024 * 1024;

/** Array fields listed in form order by their names: PHP's `name[]` convention, or the bare name repeated. */
const LISTED_FIELDS = new Map([...ARRAY_PARTS, ...[...ARRAY_PARTS].map(([name, part]) => [`${name}[]`, part] as const)]);

/** `name[N]`, the indexed convention: items ordered by N, whatever the order of the fields. */
const INDEXED_FIELD = /^([a-z_]+)\[(0|[1-9][0-9]{0,8})\]$/;

/** How one array part's items arrived: listed in form order, or indexed; one form may not mix the two. */
type ArrayItems = { readonly kind: 'listed'; readonly items: string[] } | { readonly kind: 'indexed'; readonly items: Map<number, string> };

/**
 * The form as the API reference documents it, by the names the reader below takes, within the bounds of
 * the service (SURVEY_MAX_ITEMS, SURVEY_MAX_TEXT_LENGTH). Busboy reads the form, so this describes it
 * rather than validates it; `callParts` then checks the parts as for a SOAP call. Recordings are file
 * parts, which only a multipart form can carry.
 */
export function restCallFormSchemas(limits: Pick<SurveyMessageLimits, 'maxItems' | 'maxTextLength'>) {
  const text = () => z.string().meta({ maxLength: limits.maxTextLength });
  const items = (description: string) => z.array(text()).max(limits.maxItems).optional().meta({ description });
  const fields = {
    [PART_NAMES.questionTexts]: items(
      `The question texts of the current page, in page order; absent, none. The field may also be named ${PART_NAMES.questionTexts}[], ` +
        `or ${PART_NAMES.questionTexts}[0], ${PART_NAMES.questionTexts}[1], ... (ordered by index)`,
    ),
    [PART_NAMES.answers]: items(
      `answers[i] is the answer to question_texts[i], so as many as question_texts; absent, none. The field may also be named ${PART_NAMES.answers}[], ` +
        `or ${PART_NAMES.answers}[0], ${PART_NAMES.answers}[1], ... (ordered by index)`,
    ),
    [PART_NAMES.aniIp]: text().optional().meta({ description: "The caller's address, when the survey system sends it" }),
    [PART_NAMES.dnis]: text().optional().meta({ description: 'The number called, when the survey system sends it' }),
    [PART_NAMES.sessionId]: text()
      .optional()
      .meta({ description: 'The survey this call belongs to; else the survey_session cookie says; else a new survey' }),
  };
  return {
    form: z.object(fields).meta({ id: 'SurveyCallForm' }),
    multipart: z
      .object({
        ...fields,
        recording: z
          .array(z.string().meta({ format: 'binary' }))
          .max(limits.maxItems)
          .optional()
          .meta({ description: 'Recordings as file parts (any field name), each handed to the handler under its file name, or its field name when it has none (file-1.wav)' }),
      })
      .meta({ id: 'SurveyCallMultipartForm' }),
  };
}

/** Characters counted as the API reference counts them (code points); UTF-16 units are never fewer. */
const isLongerThan = (value: string, limit: number): boolean => value.length > limit && codePointLength(value) > limit;

export interface RestCall {
  readonly parts: ReceivedParts;
  readonly files: readonly SurveyFile[];
}

/**
 * Gathers a form's fields and file parts as busboy reports them. Busboy emits from inside its own
 * writes, so a refusal is kept as `failure` (the first one wins) and thrown by the reader between writes.
 */
class FormCollector {
  private readonly parts: ReceivedParts = {};
  private readonly arrays = new Map<ArrayPart, ArrayItems>();
  readonly files: SurveyFile[] = [];
  failure: AppError | undefined;

  constructor(private readonly limits: SurveyMessageLimits) {}

  fail(error: AppError): void {
    this.failure ??= error;
  }

  field(name: string, value: string, info: FieldInfo): void {
    if (this.failure !== undefined) return;
    if (info.valueTruncated || isLongerThan(value, this.limits.maxTextLength)) {
      this.fail(textTooLong(`the field ${name}`, this.limits.maxTextLength));
      return;
    }
    const listed = LISTED_FIELDS.get(name);
    if (listed !== undefined) {
      this.addItem(name, listed, undefined, value);
      return;
    }
    const indexed = INDEXED_FIELD.exec(name);
    const indexedPart = indexed === null ? undefined : ARRAY_PARTS.get(indexed[1] as string);
    if (indexedPart !== undefined) {
      this.addItem(name, indexedPart, Number(indexed?.[2]), value);
      return;
    }
    const bracketed = [...ARRAY_PARTS.keys()].find((part) => name.startsWith(`${part}[`));
    if (bracketed !== undefined) {
      this.fail(errors.invalidForm(`the field ${name.slice(0, 64)} is not an item of ${bracketed}; name items ${bracketed}[] or ${bracketed}[0], ${bracketed}[1], ...`));
      return;
    }
    const textField = TEXT_PARTS.get(name);
    if (textField === undefined) return;
    if (this.parts[textField] !== undefined) this.fail(errors.invalidForm(`the form holds more than one ${name} field`));
    else this.parts[textField] = value;
  }

  private addItem(field: string, part: ArrayPart, index: number | undefined, value: string): void {
    const arrived: ArrayItems = this.arrays.get(part) ?? (index === undefined ? { kind: 'listed', items: [] } : { kind: 'indexed', items: new Map() });
    this.arrays.set(part, arrived);
    if ((arrived.kind === 'indexed') !== (index !== undefined)) {
      const name = PART_NAMES[part];
      this.fail(errors.invalidForm(`the form names items of ${name} both as ${name}[] and as ${name}[N]; use one of the two`));
      return;
    }
    const count = arrived.kind === 'listed' ? arrived.items.length : arrived.items.size;
    if (count >= this.limits.maxItems) {
      this.fail(tooManyItems(part, this.limits.maxItems));
      return;
    }
    if (arrived.kind === 'listed') arrived.items.push(value);
    else if (arrived.items.has(index as number)) this.fail(errors.invalidForm(`the form holds the field ${field} twice`));
    else arrived.items.set(index as number, value);
  }

  /** The parts, the indexed arrays in the order of their indexes. */
  received(): ReceivedParts {
    const received: ReceivedParts = { ...this.parts };
    for (const [part, items] of this.arrays) {
      received[part] = items.kind === 'listed' ? items.items : [...items.items].sort(([a], [b]) => a - b).map(([, value]) => value);
    }
    return received;
  }

  /**
   * Every file goes to the handler, as the reference's sample saves every file it is sent; one sent
   * without a file name is named by its field (`file-1.wav`, as the survey system names recordings).
   */
  file(field: string, stream: Readable, { filename, mimeType }: FileInfo): void {
    if (this.failure !== undefined) {
      stream.resume();
      return;
    }
    const name = filename === undefined || filename === '' ? field : filename;
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => this.files.push({ name, contentType: mimeType, data: Buffer.concat(chunks) }));
    // A form cut short mid-file fails the file's stream as well as the parser: one refusal is enough.
    stream.on('error', (error: Error) => this.fail(errors.invalidForm(`the form could not be read: ${error.message}`)));
  }
}

function formParser(req: Request, limits: SurveyMessageLimits, maxBytes: number): Busboy {
  try {
    return busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // No count of fields: those the service reads are bounded one by one (items, one of each text part),
      // and others are ignored, as the reference's own sample ignores them, within the body's size.
      limits: {
        fieldSize: limits.maxTextLength * 4,
        files: limits.maxItems,
        fileSize: maxBytes,
      },
    });
  } catch {
    // Busboy refuses a Content-Type it cannot read (another type, or multipart without a boundary).
    throw errors.unsupportedMediaType(FORM_TYPES);
  }
}

/**
 * Reads the REST twin's form (multipart/form-data, or urlencoded without files) once, as it arrives,
 * with busboy: the same parts as the SOAP call, the same bounds, and the recordings sent as files.
 */
export async function readRestCall(req: Request, { maxBytes, limits, held }: SurveyCallBounds, heavy: HeavyTurns): Promise<RestCall> {
  if (!req.is(FORM_TYPES)) throw errors.unsupportedMediaType(FORM_TYPES);
  const parser = formParser(req, limits, maxBytes);
  const form = new FormCollector(limits);
  const tooMany = (what: string) => () =>
    form.fail(errors.invalidForm(`the form holds too many ${what}; see SURVEY_MAX_ITEMS`));
  // Busboy reports a part whose name attribute is empty with no name at all, whatever its types say.
  parser.on('field', (name: string | undefined, value, info) => form.field(name ?? '', value, info));
  parser.on('file', (name: string | undefined, stream, info) => form.file(name ?? '', stream, info));
  parser.on('filesLimit', tooMany('files'));
  // Settles when busboy is done, or failed: a malformed form is the caller's mistake. Busboy may report
  // more than one error for one form (a broken part, then the form's end): each must find a listener.
  const done = new Promise<void>((resolve) => {
    parser.once('close', resolve);
    parser.on('error', (error: Error) => {
      form.fail(errors.invalidForm(`the form could not be read: ${error.message}`));
      resolve();
    });
  });
  const write = (bytes: Buffer): void | Promise<void> => {
    const writable = parser.write(bytes);
    if (form.failure !== undefined) throw form.failure;
    if (!writable) return Promise.race([new Promise<void>((resolve) => parser.once('drain', resolve)), done]);
  };
  await readBody(req, { maxBytes, held }, (bytes, _wholeBody, lastOf) =>
    // The last piece of a large form is where busboy joins and decodes its fields and files: a heavy step.
    lastOf !== undefined && lastOf >= HEAVY_FORM_BYTES ? heavy.take().then(() => write(bytes)) : write(bytes),
  );
  parser.end();
  await done;
  if (form.failure !== undefined) throw form.failure;
  return { parts: form.received(), files: form.files };
}
