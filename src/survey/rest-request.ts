import busboy, { type Busboy, type FileInfo, type FieldInfo } from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { SurveyMessageLimits } from '../config/config';
import { errors, type AppError } from '../errors/catalogue';
import { readBody } from './body-stream';
import { ARRAY_PARTS, PART_NAMES, TEXT_PARTS, textTooLong, tooManyItems, type ReceivedParts, type SurveyCallBounds } from './call-parts';
import type { SurveyFile } from './survey-handler';

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** Array fields by their form names: PHP's `name[]` convention, or the bare name repeated. */
const ARRAY_FIELDS = new Map([...ARRAY_PARTS, ...[...ARRAY_PARTS].map(([name, part]) => [`${name}[]`, part] as const)]);

/**
 * The form as the API reference documents it, by the names the reader below takes. Busboy reads the form,
 * so this describes it rather than validates it; `callParts` then checks the parts as for a SOAP call.
 */
export const restCallFormSchema = z
  .object({
    [PART_NAMES.questionTexts]: z
      .array(z.string())
      .meta({ description: `The question texts of the current page, in page order (the field may also be named ${PART_NAMES.questionTexts}[])` }),
    [PART_NAMES.answers]: z
      .array(z.string())
      .meta({ description: `answers[i] is the answer to question_texts[i] (the field may also be named ${PART_NAMES.answers}[])` }),
    [PART_NAMES.aniIp]: z.string().optional().meta({ description: "The caller's address, when the survey system sends it" }),
    [PART_NAMES.dnis]: z.string().optional().meta({ description: 'The number called, when the survey system sends it' }),
    [PART_NAMES.sessionId]: z
      .string()
      .optional()
      .meta({ description: 'The survey this call belongs to; else the survey_session cookie says; else a new survey' }),
    recording: z
      .array(z.string().meta({ format: 'binary' }))
      .optional()
      .meta({ description: 'Recordings as file parts (multipart only; any field name), each named as the answer that refers to it (file-1.wav)' }),
  })
  .meta({ id: 'SurveyCallForm' });

export interface RestCall {
  readonly parts: ReceivedParts;
  readonly files: readonly SurveyFile[];
}

/**
 * Gathers a form's fields and file parts as busboy reports them. Busboy emits from inside its own
 * writes, so a refusal is kept as `failure` (the first one wins) and thrown by the reader between writes.
 */
class FormCollector {
  readonly parts: ReceivedParts = {};
  readonly files: SurveyFile[] = [];
  failure: AppError | undefined;

  constructor(private readonly limits: SurveyMessageLimits) {}

  fail(error: AppError): void {
    this.failure ??= error;
  }

  field(name: string, value: string, info: FieldInfo): void {
    if (this.failure !== undefined) return;
    if (info.valueTruncated || value.length > this.limits.maxTextLength) {
      this.fail(textTooLong(`the field ${name}`, this.limits.maxTextLength));
      return;
    }
    const arrayField = ARRAY_FIELDS.get(name);
    if (arrayField !== undefined) {
      const items = (this.parts[arrayField] ??= []);
      if (items.length >= this.limits.maxItems) {
        this.fail(tooManyItems(arrayField, this.limits.maxItems));
        return;
      }
      items.push(value);
      return;
    }
    const textField = TEXT_PARTS.get(name);
    if (textField === undefined) return;
    if (this.parts[textField] !== undefined) this.fail(errors.invalidSurveyCall(`the form holds more than one ${name} field`));
    else this.parts[textField] = value;
  }

  file(stream: Readable, { filename, mimeType }: FileInfo): void {
    if (this.failure !== undefined || filename === undefined || filename === '') {
      if (this.failure === undefined) this.fail(errors.invalidSurveyCall('a file part has no file name; name it as its answer does (file-1.wav)'));
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => this.files.push({ name: filename, contentType: mimeType, data: Buffer.concat(chunks) }));
    // A form cut short mid-file fails the file's stream as well as the parser: one refusal is enough.
    stream.on('error', (error: Error) => this.fail(errors.invalidSurveyCall(`the form could not be read: ${error.message}`)));
  }

  /** Every file must be the recording of an answer that names it; two files of one name would be ambiguous. */
  checkFiles(): void {
    const names = new Set<string>();
    for (const { name } of this.files) {
      if (names.has(name)) throw errors.invalidSurveyCall(`the form holds two files named ${name}`);
      names.add(name);
      if (!(this.parts.answers ?? []).includes(name)) {
        throw errors.invalidSurveyCall(`the file ${name} is named by no answer; an answer names the recording it carries`);
      }
    }
  }
}

function formParser(req: Request, limits: SurveyMessageLimits, maxBytes: number): Busboy {
  try {
    return busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: {
        fieldSize: limits.maxTextLength * 4,
        fields: 2 * limits.maxItems + TEXT_PARTS.size,
        files: limits.maxItems,
        fileSize: maxBytes,
        parts: 3 * limits.maxItems + TEXT_PARTS.size,
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
export async function readRestCall(req: Request, { maxBytes, limits }: SurveyCallBounds): Promise<RestCall> {
  if (!req.is(FORM_TYPES)) throw errors.unsupportedMediaType(FORM_TYPES);
  const parser = formParser(req, limits, maxBytes);
  const form = new FormCollector(limits);
  const tooMany = (what: string) => () =>
    form.fail(errors.invalidSurveyCall(`the form holds too many ${what}; see SURVEY_MAX_ITEMS`));
  parser.on('field', (name, value, info) => form.field(name, value, info));
  parser.on('file', (_name, stream, info) => form.file(stream, info));
  parser.on('fieldsLimit', tooMany('fields'));
  parser.on('filesLimit', tooMany('files'));
  parser.on('partsLimit', tooMany('parts'));
  // Settles when busboy is done, or failed: a malformed form is the caller's mistake. Busboy may report
  // more than one error for one form (a broken part, then the form's end): each must find a listener.
  const done = new Promise<void>((resolve) => {
    parser.once('close', resolve);
    parser.on('error', (error: Error) => {
      form.fail(errors.invalidSurveyCall(`the form could not be read: ${error.message}`));
      resolve();
    });
  });
  await readBody(req, maxBytes, (bytes) => {
    const writable = parser.write(bytes);
    if (form.failure !== undefined) throw form.failure;
    if (!writable) return Promise.race([new Promise<void>((resolve) => parser.once('drain', resolve)), done]);
  });
  parser.end();
  await done;
  if (form.failure !== undefined) throw form.failure;
  form.checkFiles();
  return { parts: form.parts, files: form.files };
}
