import busboy, { type Busboy, type FileInfo } from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { SurveyMessageLimits } from '../settings';
import { errors, type AppError } from '../../errors/catalogue';
import { codePointLength } from '../../domain/storable-text';
import type { HeavyTurns } from '../../http/heavy-turns';
import { declaredCharset, readBody } from '../body-stream';
import { withTextPieces, type PartPieces, type WithTextPieces } from '../text-pieces';
import { MalformedForm, UrlencodedFieldReader } from './urlencoded-fields';
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

/**
 * How one array part's items arrived: listed in form order, or indexed; one form may not mix the two.
 * `pieces` holds the pieces of the long items (text-pieces.ts), by position when listed, by index when indexed.
 */
type ArrayItems = { readonly pieces: Map<number, readonly string[]> } & (
  | { readonly kind: 'listed'; readonly items: string[] }
  | { readonly kind: 'indexed'; readonly items: Map<number, string> }
);

/**
 * The form as the API reference documents it, by the names the reader below takes, within the bounds of
 * the service (SURVEY_MAX_ITEMS, SURVEY_MAX_TEXT_LENGTH). The readers read the form as it arrives, so
 * this describes it rather than validates it; `callParts` then checks the parts as for a SOAP call. Recordings are file
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
  private readonly textPieces: PartPieces = {};
  readonly files: SurveyFile[] = [];
  failure: AppError | undefined;

  constructor(private readonly limits: SurveyMessageLimits) {}

  fail(error: AppError): void {
    this.failure ??= error;
  }

  /** A field as it arrived; `pieces`, those of a long value (text-pieces.ts). */
  field(name: string, value: string, valueTruncated: boolean, pieces?: readonly string[]): void {
    if (this.failure !== undefined) return;
    if (valueTruncated || isLongerThan(value, this.limits.maxTextLength)) {
      this.fail(textTooLong(`the field ${name}`, this.limits.maxTextLength));
      return;
    }
    const listed = LISTED_FIELDS.get(name);
    if (listed !== undefined) {
      this.addItem(name, listed, undefined, value, pieces);
      return;
    }
    const indexed = INDEXED_FIELD.exec(name);
    const indexedPart = indexed === null ? undefined : ARRAY_PARTS.get(indexed[1] as string);
    if (indexedPart !== undefined) {
      this.addItem(name, indexedPart, Number(indexed?.[2]), value, pieces);
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
    else {
      this.parts[textField] = value;
      if (pieces !== undefined) this.textPieces[textField] = pieces;
    }
  }

  private addItem(field: string, part: ArrayPart, index: number | undefined, value: string, pieces: readonly string[] | undefined): void {
    const arrived: ArrayItems =
      this.arrays.get(part) ?? (index === undefined ? { kind: 'listed', items: [], pieces: new Map() } : { kind: 'indexed', items: new Map(), pieces: new Map() });
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
    const key = arrived.kind === 'listed' ? arrived.items.length : (index as number);
    if (arrived.kind === 'listed') arrived.items.push(value);
    else if (arrived.items.has(key)) return this.fail(errors.invalidForm(`the form holds the field ${field} twice`));
    else arrived.items.set(key, value);
    if (pieces !== undefined) arrived.pieces.set(key, pieces);
  }

  /** The parts, the indexed arrays in the order of their indexes. */
  received(): ReceivedParts & WithTextPieces {
    const received: ReceivedParts = { ...this.parts };
    const pieces: PartPieces = { ...this.textPieces };
    for (const [part, items] of this.arrays) {
      if (items.kind === 'listed') {
        received[part] = items.items;
        if (items.pieces.size > 0) pieces[part] = items.pieces;
        continue;
      }
      const ordered = [...items.items].sort(([a], [b]) => a - b);
      received[part] = ordered.map(([, value]) => value);
      for (const [position, [index]] of ordered.entries()) {
        const long = items.pieces.get(index);
        if (long !== undefined) (pieces[part] ??= new Map()).set(position, long);
      }
    }
    return withTextPieces(received, Object.keys(pieces).length > 0 ? pieces : undefined);
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
    stream.on('error', (error: Error) => this.fail(unreadableForm(error)));
  }
}

/** A form a reader could not read (busboy's errors, a malformed escape): the caller's mistake. */
const unreadableForm = (error: Error): AppError => errors.invalidForm(`the form could not be read: ${error.message}`);

/** The bytes a field's value may have: SURVEY_MAX_TEXT_LENGTH characters of up to 4 bytes in UTF-8. */
const maxFieldBytes = (limits: SurveyMessageLimits): number => limits.maxTextLength * 4;

/** Bytes of a field's name kept, as busboy keeps them: the names the service reads are short. */
const MAX_FIELD_NAME_BYTES = 100;

function formParser(req: Request, limits: SurveyMessageLimits, maxBytes: number): Busboy {
  try {
    return busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // No count of fields: those the service reads are bounded one by one (items, one of each text part),
      // and others are ignored, as the reference's own sample ignores them, within the body's size.
      limits: {
        fieldSize: maxFieldBytes(limits),
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
 * Reads the REST twin's form (multipart/form-data, or urlencoded without files) once, as it arrives:
 * the same parts as the SOAP call, the same bounds, and the recordings sent as files. A urlencoded form
 * in UTF-8 (the usual one) is read by urlencoded-fields.ts, which keeps a long answer in its pieces;
 * any other form by busboy.
 */
export async function readRestCall(req: Request, bounds: SurveyCallBounds, heavy: HeavyTurns): Promise<RestCall> {
  if (!req.is(FORM_TYPES)) throw errors.unsupportedMediaType(FORM_TYPES);
  const form = new FormCollector(bounds.limits);
  const charset = declaredCharset(req)?.toLowerCase() ?? 'utf-8';
  if (req.is('application/x-www-form-urlencoded') !== false && (charset === 'utf-8' || charset === 'utf8')) await readUrlencoded(req, bounds, form);
  else await readWithBusboy(req, bounds, heavy, form);
  if (form.failure !== undefined) throw form.failure;
  return { parts: form.received(), files: form.files };
}

async function readUrlencoded(req: Request, { maxBytes, limits, held }: SurveyCallBounds, form: FormCollector): Promise<void> {
  const reader = new UrlencodedFieldReader({ maxNameBytes: MAX_FIELD_NAME_BYTES, maxValueBytes: maxFieldBytes(limits) }, (field) =>
    form.field(field.name, field.value, field.valueTruncated, field.pieces),
  );
  const read = (step: () => void): void => {
    try {
      step();
    } catch (error) {
      if (!(error instanceof MalformedForm)) throw error;
      form.fail(unreadableForm(error));
    }
    if (form.failure !== undefined) throw form.failure;
  };
  await readBody(req, { maxBytes, held }, (bytes) => read(() => reader.write(bytes)));
  read(() => reader.end());
}

async function readWithBusboy(req: Request, { maxBytes, limits, held }: SurveyCallBounds, heavy: HeavyTurns, form: FormCollector): Promise<void> {
  const parser = formParser(req, limits, maxBytes);
  const tooMany = (what: string) => () =>
    form.fail(errors.invalidForm(`the form holds too many ${what}; see SURVEY_MAX_ITEMS`));
  // Busboy reports a part whose name attribute is empty with no name at all, whatever its types say.
  parser.on('field', (name: string | undefined, value, info) => form.field(name ?? '', value, info.valueTruncated));
  parser.on('file', (name: string | undefined, stream, info) => form.file(name ?? '', stream, info));
  parser.on('filesLimit', tooMany('files'));
  // Settles when busboy is done, or failed: a malformed form is the caller's mistake. Busboy may report
  // more than one error for one form (a broken part, then the form's end): each must find a listener.
  const done = new Promise<void>((resolve) => {
    parser.once('close', resolve);
    parser.on('error', (error: Error) => {
      form.fail(unreadableForm(error));
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
}
