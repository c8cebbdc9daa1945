import { parseCallRecord, type CallRecord } from '../../domain/call-record';
import { readPlainCallRecord } from '../../domain/plain-call-record';
import type { AddCallsResult, Store } from '../../storage/store';
import { BatchesInFlight } from './batches-in-flight';
import { describeIssues } from '../../http/field-errors';
import type { RawRecord } from './raw-record';
import type { ImportedCalls, ImportedCallsCounter } from '../../operations/app-metrics';

export interface Rejection {
  /** NDJSON: the line in the body; JSON array: the position in the array. Both 1-based. */
  readonly line: number;
  readonly error: string;
}

export interface ImportSummary {
  readonly received: number;
  readonly inserted: number;
  readonly duplicates: number;
  /** The first rejections, in body order. */
  readonly rejected: readonly Rejection[];
  /** Rejections beyond those listed. */
  readonly rejectedMore: number;
}

export const LISTED_REJECTIONS = 100;

const REJECTED_ONE: ImportedCalls = { inserted: 0, duplicates: 0, rejected: 1 };

/**
 * A batch is also full at this many bytes of records, so that batches of long paths stay bounded in
 * memory: with the batches being stored, an import holds about 16 MiB of them at most.
 */
const BATCH_BYTES = 4 * 1024 * 1024;

/** How a line's parsed JSON becomes a call, or why it is refused (naming the field). */
export type CallRecordReader = (value: unknown) => CallRecord | string;

/** The plain reading of a record, and zod's schema for whatever it does not take, so that every refusal is zod's. */
export const readCallRecord: CallRecordReader = (value) => {
  const plain = readPlainCallRecord(value);
  if (plain !== undefined) return plain;
  const parsed = parseCallRecord(value);
  return 'record' in parsed ? parsed.record : describeIssues(parsed.issues);
};

function parseRecord(raw: RawRecord, read: CallRecordReader): CallRecord | string {
  if ('problem' in raw) return raw.problem;
  let value: unknown;
  try {
    value = JSON.parse(raw.bytes.toString('utf8'));
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  return read(value);
}

/**
 * One import of call records: each record is validated as it arrives and kept in a batch, and batches
 * go to the store as they fill, several at once (BatchesInFlight), their results taken in body order. A
 * bad record is rejected alone; the good ones around it are kept.
 */
export class CallImport {
  private received = 0;
  private inserted = 0;
  private duplicates = 0;
  private batch: CallRecord[] = [];
  private batchLines: number[] = [];
  private batchBytes = 0;
  /** Rejections found while the current batch filled; merged with its unknown phones at the flush. */
  private batchRejections: Rejection[] = [];
  private readonly listed: Rejection[] = [];
  private rejectedMore = 0;
  private readonly batches: BatchesInFlight;

  /**
   * `counter` hears of every record as it is settled, whatever becomes of the request: the metrics count
   * the calls an import stored even when a later batch fails or the sender goes away.
   */
  constructor(
    store: Store,
    private readonly counter: ImportedCallsCounter,
    private readonly readRecord: CallRecordReader,
    private readonly batchSize: number,
    batchesInFlight: number,
  ) {
    const countedCalls = {
      add: async (records: readonly CallRecord[]): Promise<AddCallsResult> => {
        const result = await store.calls.add(records);
        counter.callsImported({ inserted: result.inserted, duplicates: result.duplicates, rejected: result.unknownPhone.length });
        return result;
      },
    };
    this.batches = new BatchesInFlight(countedCalls, batchesInFlight);
  }

  readonly take = (raw: RawRecord): void => {
    this.received += 1;
    if ('bytes' in raw) this.batchBytes += raw.bytes.length;
    const parsed = parseRecord(raw, this.readRecord);
    if (typeof parsed === 'string') {
      this.batchRejections.push({ line: raw.line, error: parsed });
      this.counter.callsImported(REJECTED_ONE);
    } else {
      this.batch.push(parsed);
      this.batchLines.push(raw.line);
    }
  };

  get batchIsFull(): boolean {
    return this.batch.length + this.batchRejections.length >= this.batchSize || this.batchBytes >= BATCH_BYTES;
  }

  /** Sends the current batch to the store, once there is room for it, and starts the next. */
  async flush(): Promise<void> {
    const batch = this.batch;
    const lines = this.batchLines;
    const rejections = this.batchRejections;
    this.batch = [];
    this.batchLines = [];
    this.batchBytes = 0;
    this.batchRejections = [];
    await this.batches.send(batch, (result) => this.count(result, batch, lines, rejections));
  }

  /** Sends the last batch; resolves once every batch's calls are in the store and its rollups. */
  async finish(): Promise<ImportSummary> {
    await this.flush();
    await this.batches.finish();
    return {
      received: this.received,
      inserted: this.inserted,
      duplicates: this.duplicates,
      rejected: this.listed,
      rejectedMore: this.rejectedMore,
    };
  }

  /** A stored batch's counts and rejections, taken batch after batch in body order. */
  private count(result: AddCallsResult, batch: readonly CallRecord[], lines: readonly number[], rejections: Rejection[]): void {
    this.inserted += result.inserted;
    this.duplicates += result.duplicates;
    for (const position of result.unknownPhone) {
      const record = batch[position] as CallRecord;
      rejections.push({ line: lines[position] as number, error: `phone ${record.phone} is on no account` });
    }
    rejections.sort((a, b) => a.line - b.line);
    for (const rejection of rejections) {
      if (this.listed.length < LISTED_REJECTIONS) this.listed.push(rejection);
      else this.rejectedMore += 1;
    }
  }
}
