import { parseCallRecord, type CallRecord } from '../../domain/call-record';
import type { Store } from '../../storage/store';
import { describeIssues } from '../field-errors';
import type { RawRecord } from './raw-record';

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

const LISTED_REJECTIONS = 100;

/** A batch is also full at this many bytes of records, so that batches of long paths stay bounded in memory. */
const BATCH_BYTES = 16 * 1024 * 1024;

function parseRecord(raw: RawRecord): CallRecord | string {
  if ('problem' in raw) return raw.problem;
  let value: unknown;
  try {
    value = JSON.parse(raw.bytes.toString('utf8'));
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  const parsed = parseCallRecord(value);
  return 'record' in parsed ? parsed.record : describeIssues(parsed.issues);
}

/**
 * One import of call records: each record is validated as it arrives and kept in a batch, and batches
 * go to the store as they fill. A bad record is rejected alone; the good ones around it are kept.
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

  constructor(
    private readonly store: Store,
    private readonly batchSize: number,
  ) {}

  readonly take = (raw: RawRecord): void => {
    this.received += 1;
    if ('bytes' in raw) this.batchBytes += raw.bytes.length;
    const parsed = parseRecord(raw);
    if (typeof parsed === 'string') {
      this.batchRejections.push({ line: raw.line, error: parsed });
    } else {
      this.batch.push(parsed);
      this.batchLines.push(raw.line);
    }
  };

  get batchIsFull(): boolean {
    return this.batch.length + this.batchRejections.length >= this.batchSize || this.batchBytes >= BATCH_BYTES;
  }

  /** Stores the current batch; once it resolves, the batch's calls are in the store and its rollups. */
  async flush(): Promise<void> {
    const rejections = this.batchRejections;
    if (this.batch.length > 0) {
      const result = await this.store.calls.add(this.batch);
      this.inserted += result.inserted;
      this.duplicates += result.duplicates;
      for (const position of result.unknownPhone) {
        const record = this.batch[position] as CallRecord;
        rejections.push({ line: this.batchLines[position] as number, error: `phone ${record.phone} is on no account` });
      }
    }
    rejections.sort((a, b) => a.line - b.line);
    for (const rejection of rejections) {
      if (this.listed.length < LISTED_REJECTIONS) this.listed.push(rejection);
      else this.rejectedMore += 1;
    }
    this.batch = [];
    this.batchLines = [];
    this.batchBytes = 0;
    this.batchRejections = [];
  }

  summary(): ImportSummary {
    return {
      received: this.received,
      inserted: this.inserted,
      duplicates: this.duplicates,
      rejected: this.listed,
      rejectedMore: this.rejectedMore,
    };
  }
}
