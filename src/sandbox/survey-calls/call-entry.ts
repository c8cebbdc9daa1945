import { z } from 'zod';
import type { AppError } from '../../errors/catalogue';
import type { ReceivedParts } from '../../domain/received-parts';
import type { SurveyFile } from '../../domain/survey-handler';

/** Characters of one text an entry keeps; the rest is counted, not kept. */
export const MOST_TEXT_CHARACTERS = 1000;
/** Bytes of a recording an entry shows, in hex. */
export const FIRST_BYTES = 16;
/** An answer this long or longer that is all Base64 is taken for a recording. */
const RECORDING_MIN_CHARACTERS = 128;
const BASE64_WHITESPACE = '\r\n\t ';
/** A character that Base64 text, wrapped in lines or not, never holds before its padding. */
const NOT_BASE64 = /[^A-Za-z0-9+/\r\n\t ]/;

/**
 * Whether the text is Base64 (letters, digits, + and /, wrapped in lines or not), padded with at most two
 * `=`, then perhaps whitespace. Checked by a search for a character that does not belong, not by one
 * pattern anchored at both ends: its backtracking stack overflowed on an answer of 10 Mi characters.
 */
function isBase64Text(text: string): boolean {
  let end = text.length;
  while (end > 0 && BASE64_WHITESPACE.includes(text[end - 1] ?? '')) end -= 1;
  for (let padding = 0; padding < 2 && text[end - 1] === '='; padding += 1) end -= 1;
  return end > 0 && !NOT_BASE64.test(text.slice(0, end));
}

const shownTextSchema = z
  .union([
    z.string().meta({ description: `The text whole (at most ${MOST_TEXT_CHARACTERS} characters)` }),
    z
      .strictObject({
        text: z.string().meta({ description: `Its first ${MOST_TEXT_CHARACTERS} characters` }),
        length: z.number().int().meta({ description: 'Its length in UTF-16 code units' }),
        truncated: z.literal(true),
      })
      .meta({ description: 'A longer text, cut' }),
  ])
  .meta({ id: 'InspectedText' });

const recordingSchema = z
  .strictObject({
    recording: z.strictObject({
      size: z.number().int().meta({ description: 'Its size in bytes, once decoded from Base64' }),
      type: z.string().optional().meta({ description: 'Its media type, when its first bytes tell it (audio/wav, audio/mpeg, audio/ogg, audio/flac, audio/amr)' }),
      first_bytes: z.string().meta({ description: `Its first ${FIRST_BYTES} bytes in hex` }),
    }),
  })
  .meta({ id: 'InspectedRecording', description: 'An answer that is a recording as Base64 text: never kept whole' });

const fileSchema = z
  .strictObject({
    name: z.string(),
    content_type: z.string(),
    size: z.number().int().meta({ description: 'Bytes' }),
    first_bytes: z.string().meta({ description: `The first ${FIRST_BYTES} bytes in hex` }),
  })
  .meta({ id: 'InspectedFile', description: 'A file part of a REST call: never kept whole' });

const faultSchema = z.strictObject({
  fault: z.strictObject({
    code: z.string().meta({ description: 'The error catalogue code (docs/errors.md)' }),
    message: z.string().meta({ description: 'The faultstring, or the REST error body, sent' }),
  }),
});

/** One call as GET /admin/survey/calls shows it. */
export const surveyCallEntrySchema = z
  .strictObject({
    seq: z.number().int().min(1).meta({ description: 'Its number in this instance, from 1 up since the start' }),
    at: z.iso.datetime().meta({ description: "When it was read, by the server's clock" }),
    service: z.string().meta({ description: "The service's name: survey for the single service of SOAP_PATH, else its name in SURVEY_SERVICES's file" }),
    path: z.string().meta({ description: "The path it came to: the service's svcEval, plumEval or REST path" }),
    flavour: z.enum(['svcEval', 'plumEval', 'rest']),
    session: z
      .string()
      .nullable()
      .meta({ description: "The survey session the call belonged to (the survey_session cookie sent back); for a fault, the cookie the caller sent, or null" }),
    parts: z.strictObject({
      question_texts: z.array(shownTextSchema),
      answers: z.array(z.union([shownTextSchema, recordingSchema])),
      ani_ip: shownTextSchema.nullable(),
      dnis: shownTextSchema.nullable(),
      session_id: shownTextSchema.nullable(),
      files: z.array(fileSchema).meta({ description: 'File parts of a REST call; none for SOAP' }),
    }),
    outcome: z.union([
      z.strictObject({ answer: shownTextSchema }),
      faultSchema,
      z.strictObject({
        connection: z.enum(['reset', 'empty']).meta({ description: 'A scenario dropped the connection before any byte of the answer: reset, or closed' }),
      }),
    ]),
    handler_ms: z
      .number()
      .nullable()
      .meta({ description: 'How long answering it took (the handler, with its session read and kept), in milliseconds; null when a scenario forced the fault, or dropped the connection, before' }),
  })
  .meta({ id: 'SurveyCallEntry' });

export type SurveyCallEntry = z.output<typeof surveyCallEntrySchema>;
export type ShownText = z.output<typeof shownTextSchema>;
type ShownAnswer = SurveyCallEntry['parts']['answers'][number];

/**
 * A copy of a text that holds only its own characters. V8 makes a slice of a string (`slice`, and the
 * strings parsers hand out, busboy's among them) a view that keeps the whole string it was cut from
 * alive: an entry that kept 1,000 characters of a 10,000,000-character answer held all 10,000,000.
 * Going through a buffer makes a new flat string; an entry keeps nothing else of a call's texts.
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** A text within MOST_TEXT_CHARACTERS, else its start and length (never half of a surrogate pair): a copy either way. */
export function shownText(text: string): ShownText {
  if (text.length <= MOST_TEXT_CHARACTERS) return ownCopy(text);
  let end = MOST_TEXT_CHARACTERS;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: ownCopy(text.slice(0, end)), length: text.length, truncated: true };
}

const MAGIC: readonly (readonly [string, (bytes: Buffer) => boolean])[] = [
  ['audio/wav', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE'],
  ['audio/ogg', (b) => b.toString('latin1', 0, 4) === 'OggS'],
  ['audio/flac', (b) => b.toString('latin1', 0, 4) === 'fLaC'],
  ['audio/amr', (b) => b.toString('latin1', 0, 5) === '#!AMR'],
  ['audio/mpeg', (b) => b.toString('latin1', 0, 3) === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0)],
];

function mediaTypeOf(firstBytes: Buffer): string | undefined {
  return MAGIC.find(([, matches]) => matches(firstBytes))?.[0];
}

/** An answer as an entry keeps it: a recording (long Base64 text) by its size, type and first bytes; a text cut. */
export function shownAnswer(answer: string): ShownAnswer {
  if (answer.length < RECORDING_MIN_CHARACTERS || !isBase64Text(answer)) return shownText(answer);
  // SOAP clients may wrap Base64 in lines: a copy without them only when there are some.
  const compact = /\s/.test(answer) ? answer.replace(/\s/g, '') : answer;
  const firstBytes = Buffer.from(compact.slice(0, 64), 'base64').subarray(0, FIRST_BYTES);
  const type = mediaTypeOf(firstBytes);
  return {
    recording: {
      size: Buffer.byteLength(compact, 'base64'),
      ...(type === undefined ? {} : { type }),
      first_bytes: firstBytes.toString('hex'),
    },
  };
}

/** What the survey router knows of a call once it is read. */
export interface ReadCall {
  /** The service's name. */
  readonly service: string;
  readonly path: string;
  readonly flavour: SurveyCallEntry['flavour'];
  readonly parts: ReceivedParts;
  readonly files: readonly SurveyFile[];
}

/** The parts of a call as an entry keeps them. */
export function shownParts({ parts, files }: Pick<ReadCall, 'parts' | 'files'>): SurveyCallEntry['parts'] {
  const optional = (text: string | undefined) => (text === undefined ? null : shownText(text));
  return {
    question_texts: (parts.questionTexts ?? []).map(shownText),
    answers: (parts.answers ?? []).map(shownAnswer),
    ani_ip: optional(parts.aniIp),
    dnis: optional(parts.dnis),
    session_id: optional(parts.sessionId),
    files: files.map((file) => ({
      name: ownCopy(file.name),
      content_type: ownCopy(file.contentType),
      size: file.data.length,
      first_bytes: file.data.subarray(0, FIRST_BYTES).toString('hex'),
    })),
  };
}

export function faultOutcome(error: AppError): SurveyCallEntry['outcome'] {
  return { fault: { code: error.code, message: ownCopy(error.message) } };
}
