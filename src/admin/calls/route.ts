import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { errors } from '../../errors/catalogue';
import type { ImportedCallsCounter } from '../../operations/app-metrics';
import type { Store } from '../../storage/store';
import { CallImport, LISTED_REJECTIONS, type CallRecordReader, type ImportSummary } from './call-import';
import { JsonArrayRecords } from './json-array-records';
import { NdjsonRecords } from './ndjson-records';
import { MAX_RECORD_BYTES, type RecordSplitter } from './raw-record';

/**
 * Records per store.calls.add, and how many of them are stored at once: a networked store works on some
 * batches (PostgreSQL: each on a connection of its own, its own transaction) while the next is read and
 * validated; batches still few round trips each, and a bounded statement.
 */
const BATCH_SIZE = 1_250;
const BATCHES_IN_FLIGHT = 3;

const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';

function splitterFor(req: Request): RecordSplitter {
  if (req.is(NDJSON)) return new NdjsonRecords(MAX_RECORD_BYTES);
  if (req.is(JSON_TYPE)) return new JsonArrayRecords(MAX_RECORD_BYTES);
  throw errors.unsupportedMediaType([NDJSON, JSON_TYPE]);
}

/**
 * A compressed body is refused, not decoded: the import bounds each record but not the whole body, so a
 * small compressed body could expand to any size, where every other route refuses one as soon as its
 * decompressed bytes pass the route's limit.
 */
function requireUncompressed(req: Request): void {
  const encoding = (req.get('Content-Encoding') ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') throw errors.unsupportedImportEncoding();
}

const count = z.number().int().min(0);

/** The answer of POST /admin/calls, once every batch is stored. */
export const importSummarySchema = z
  .strictObject({
    received: count.meta({ description: 'Records in the body' }),
    inserted: count.meta({ description: 'Records stored' }),
    duplicates: count.meta({ description: 'Records whose call_id was stored already, counted once' }),
    rejected: z
      .array(
        z.strictObject({
          line: z.number().int().min(1).meta({ description: 'NDJSON: the line in the body; JSON array: the position in the array; both 1-based' }),
          error: z.string().meta({ description: 'Why, naming the field' }),
        }),
      )
      .max(LISTED_REJECTIONS)
      .readonly()
      .meta({ description: `The first ${LISTED_REJECTIONS} rejected records, in body order` }),
    rejected_more: count.optional().meta({ description: 'Rejections beyond those listed; absent when there are none' }),
  })
  .meta({ id: 'ImportSummary' });

function summaryBody(summary: ImportSummary): z.input<typeof importSummarySchema> {
  const body: z.input<typeof importSummarySchema> = {
    received: summary.received,
    inserted: summary.inserted,
    duplicates: summary.duplicates,
    rejected: summary.rejected,
  };
  if (summary.rejectedMore > 0) body.rejected_more = summary.rejectedMore;
  return body;
}

/**
 * POST /admin/calls: the body is read chunk by chunk and never held whole; reading pauses while
 * BATCHES_IN_FLIGHT batches are being stored, so a slow store slows the sender instead of filling memory.
 * The answer is sent once every batch is stored, so the event tracker already shows the calls when the
 * sender reads it.
 */
export function importCallsRoute(store: Store, counter: ImportedCallsCounter, readRecord: CallRecordReader): RequestHandler {
  return async (req, res) => {
    const splitter = splitterFor(req);
    requireUncompressed(req);
    const callImport = new CallImport(store, counter, readRecord, BATCH_SIZE, BATCHES_IN_FLIGHT);
    for await (const chunk of req as AsyncIterable<Buffer>) {
      splitter.push(chunk, callImport.take);
      if (callImport.batchIsFull) await callImport.flush();
    }
    splitter.end(callImport.take);
    const summary = await callImport.finish();
    res.status(200).json(summaryBody(summary));
  };
}
