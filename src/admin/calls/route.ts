import type { Request, RequestHandler } from 'express';
import { errors } from '../../errors/catalogue';
import type { Store } from '../../storage/store';
import { CallImport, type ImportSummary } from './call-import';
import { JsonArrayRecords } from './json-array-records';
import { NdjsonRecords } from './ndjson-records';
import { MAX_RECORD_BYTES, type RecordSplitter } from './raw-record';

/** Records per store.calls.add: few round trips to a networked store, a bounded statement each. */
const BATCH_SIZE = 5_000;

const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';

function splitterFor(req: Request): RecordSplitter {
  if (req.is(NDJSON)) return new NdjsonRecords(MAX_RECORD_BYTES);
  if (req.is(JSON_TYPE)) return new JsonArrayRecords(MAX_RECORD_BYTES);
  throw errors.unsupportedMediaType([NDJSON, JSON_TYPE]);
}

function summaryBody(summary: ImportSummary): Record<string, unknown> {
  const body: Record<string, unknown> = {
    received: summary.received,
    inserted: summary.inserted,
    duplicates: summary.duplicates,
    rejected: summary.rejected,
  };
  if (summary.rejectedMore > 0) body.rejected_more = summary.rejectedMore;
  return body;
}

/**
 * POST /admin/calls: the body is read chunk by chunk and never held whole; reading pauses while a batch
 * is stored, so a slow store slows the sender instead of filling memory. The answer is sent once every
 * batch is stored, so the event tracker already shows the calls when the sender reads it.
 */
export function importCallsRoute(store: Store): RequestHandler {
  return async (req, res) => {
    const splitter = splitterFor(req);
    const callImport = new CallImport(store, BATCH_SIZE);
    for await (const chunk of req as AsyncIterable<Buffer>) {
      splitter.push(chunk, callImport.take);
      if (callImport.batchIsFull) await callImport.flush();
    }
    splitter.end(callImport.take);
    await callImport.flush();
    res.status(200).json(summaryBody(callImport.summary()));
  };
}
