import type { CallRecord } from '../../domain/call-record';
import type { AddCallsResult, CallRepository } from '../../storage/store';

const NOTHING_ADDED: AddCallsResult = { inserted: 0, duplicates: 0, unknownPhone: [] };

const ignore = (): void => undefined;

interface Batch {
  readonly records: readonly CallRecord[];
  /** Resolves once the store has answered, whatever it answered. */
  readonly settled: Promise<void>;
  /** Made when a later batch is checked against this one. */
  callIds?: ReadonlySet<string>;
}

/**
 * The batches of one import, stored side by side, at most `limit` at once: a database stores one while
 * the next is read and validated, and several on as many connections. Each batch's result is handed on in
 * the order the batches were sent, so an import reads as if they were stored one after the other; and a
 * batch sharing a call id with one still being stored waits for it, so the record earlier in the body is
 * the one kept, as it would be then.
 */
export class BatchesInFlight {
  private readonly storing = new Set<Batch>();
  /** Settles once every batch sent so far is handed on; rejects with the first failure in sending order. */
  private handedOn: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly calls: Pick<CallRepository, 'add'>,
    private readonly limit: number,
  ) {}

  /**
   * Sends a batch once there is room for it (so a slow store slows the reader); `stored` gets its result
   * after every batch sent before it was handed on. After a failure nothing more is sent: this waits for
   * the batches still being stored and rejects with the failure.
   */
  async send(records: readonly CallRecord[], stored: (result: AddCallsResult) => void): Promise<void> {
    await this.roomFor(records);
    if (this.failed) await this.finish();
    const added = records.length === 0 ? Promise.resolve(NOTHING_ADDED) : this.calls.add(records);
    const batch: Batch = {
      records,
      settled: added.then(ignore, () => {
        this.failed = true;
      }),
    };
    this.storing.add(batch);
    void batch.settled.then(() => this.storing.delete(batch));
    this.handedOn = Promise.all([added, this.handedOn]).then(([result]) => stored(result));
    // Marked as handled here, and awaited by finish: a request that fails before then must not leave a
    // rejection nobody listens to.
    this.handedOn.catch(ignore);
  }

  /** Resolves once every batch is stored and handed on; after a failure, rejects once none is still being stored. */
  async finish(): Promise<void> {
    await Promise.all([...this.storing].map((batch) => batch.settled));
    await this.handedOn;
  }

  private async roomFor(records: readonly CallRecord[]): Promise<void> {
    for (const batch of [...this.storing]) {
      if (sharesCallId(batch, records)) await batch.settled;
    }
    while (this.storing.size >= this.limit) await Promise.race([...this.storing].map((batch) => batch.settled));
  }
}

function sharesCallId(batch: Batch, records: readonly CallRecord[]): boolean {
  batch.callIds ??= new Set(batch.records.map((record) => record.callId));
  const callIds = batch.callIds;
  return records.some((record) => callIds.has(record.callId));
}
