import { stat } from 'node:fs/promises';
import type { Rejection } from '../../admin/calls/call-import';
import type { AdminClient, ImportAnswer } from '../admin-client';
import { CliError } from '../cli-error';
import { fileBatches, type Batch } from './file-batches';
import type { Progress } from './progress';

export interface ImportTotals {
  readonly received: number;
  readonly inserted: number;
  readonly duplicates: number;
  readonly rejected: number;
  /** The first rejected lines of the file, in line order. */
  readonly listed: readonly Rejection[];
}

export const LISTED_REJECTIONS = 100;

class Tally {
  received = 0;
  inserted = 0;
  duplicates = 0;
  rejected = 0;
  readonly listed: Rejection[] = [];

  /** The server numbers the lines of the batch's body; they are mapped back to lines of the file. */
  add(batch: Batch, answer: ImportAnswer): void {
    this.received += answer.received + batch.rejected.length;
    this.inserted += answer.inserted;
    this.duplicates += answer.duplicates;
    this.rejected += answer.rejected.length + (answer.rejected_more ?? 0) + batch.rejected.length;
    const inFile = answer.rejected.map(({ line, error }) => ({ line: batch.fileLines[line - 1] ?? line, error }));
    const rejections = [...batch.rejected, ...inFile].sort((a, b) => a.line - b.line);
    this.listed.push(...rejections.slice(0, LISTED_REJECTIONS - this.listed.length));
  }
}

export async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Sends the file to POST /admin/calls batch by batch, one request at a time, so memory stays bounded
 * and the server is never asked for more than one batch's worth at once.
 */
export async function importFile(
  file: string,
  client: AdminClient,
  { batchSize, progress, onWait }: { batchSize: number; progress: Progress; onWait: (seconds: number) => void },
): Promise<ImportTotals> {
  const tally = new Tally();
  try {
    for await (const batch of fileBatches(file, batchSize)) {
      const answer =
        batch.fileLines.length === 0
          ? { received: 0, inserted: 0, duplicates: 0, rejected: [] }
          : await client.importCalls(batch.body, onWait);
      tally.add(batch, answer);
      progress.update(tally.received, batch.bytesRead);
    }
  } catch (error) {
    progress.finish();
    if (error instanceof CliError && tally.received > 0) {
      throw new CliError(
        `${error.message}\n${tally.received} records were sent before that; importing ${file} again is safe: records already stored count as duplicates`,
      );
    }
    throw error;
  }
  progress.finish();
  return tally;
}
