import type { EpochDay } from '../../time/calendar';
import { COUNTERS, type DayTotalsTable, type Sums } from '../day-totals';

/** Days per chunk: a year's report reads seven chunks of a phone, and a phone's lone day costs 5.5 kB. */
const CHUNK_SHIFT = 6;
const CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;
const WIDTH = COUNTERS.length;

/**
 * One phone's sums per local day, in Float64Arrays of consecutive days, a day's counters side by side in
 * the order of COUNTERS. A report reads a year of them as numbers in a row: with an object per day, each
 * day of each phone was a cache miss, the largest part of building a year's report that is not kept.
 */
export class DayTotalsChunks {
  private readonly chunks = new Map<number, Float64Array>();
  /** Calls arrive mostly in order of time: most of them fall in the chunk of the call before. */
  private lastChunkNumber = Number.NaN;
  private lastChunk: Float64Array | undefined;

  /** Adds a call's counters to its day. */
  add(day: EpochDay, sums: Readonly<Sums>): void {
    // Arithmetic shift: a local day before 1970 (-1 in a zone west of UTC) falls in chunk -1, at its end.
    const chunkNumber = day >> CHUNK_SHIFT;
    let chunk = chunkNumber === this.lastChunkNumber ? this.lastChunk : this.chunks.get(chunkNumber);
    if (chunk === undefined) {
      chunk = new Float64Array((CHUNK_MASK + 1) * WIDTH);
      this.chunks.set(chunkNumber, chunk);
    }
    this.lastChunkNumber = chunkNumber;
    this.lastChunk = chunk;
    const at = (day & CHUNK_MASK) * WIDTH;
    chunk[at] = (chunk[at] as number) + sums.calls;
    chunk[at + 1] = (chunk[at + 1] as number) + sums.logEvents;
    chunk[at + 2] = (chunk[at + 2] as number) + sums.loops;
    chunk[at + 3] = (chunk[at + 3] as number) + sums.formItems;
    chunk[at + 4] = (chunk[at + 4] as number) + sums.durationMs;
    chunk[at + 5] = (chunk[at + 5] as number) + sums.transfers;
    chunk[at + 6] = (chunk[at + 6] as number) + sums.transferMs;
    chunk[at + 7] = (chunk[at + 7] as number) + sums.jsErrors;
    chunk[at + 8] = (chunk[at + 8] as number) + sums.fetchErrors;
    chunk[at + 9] = (chunk[at + 9] as number) + sums.pageLoads;
    chunk[at + 10] = (chunk[at + 10] as number) + sums.pageLoadMs;
  }

  /** Sets `first` and every later day back to no calls. */
  clearFrom(first: EpochDay): void {
    for (const [chunkNumber, chunk] of this.chunks) {
      if (chunkNumber > first >> CHUNK_SHIFT) this.chunks.delete(chunkNumber);
      else if (chunkNumber === first >> CHUNK_SHIFT) chunk.fill(0, (first & CHUNK_MASK) * WIDTH);
    }
    this.lastChunkNumber = Number.NaN;
    this.lastChunk = undefined;
  }

  /** Adds the sums of every day of `table` to its rows; a day without calls (all zeros) is skipped. */
  addInto(table: DayTotalsTable): void {
    const { values, days, from, to } = table;
    for (let chunkNumber = from >> CHUNK_SHIFT; chunkNumber <= to >> CHUNK_SHIFT; chunkNumber += 1) {
      const chunk = this.chunks.get(chunkNumber);
      if (chunk === undefined) continue;
      const last = Math.min(to, chunkNumber * (CHUNK_MASK + 1) + CHUNK_MASK);
      for (let day = Math.max(from, chunkNumber * (CHUNK_MASK + 1)); day <= last; day += 1) {
        const at = (day & CHUNK_MASK) * WIDTH;
        if (chunk[at] === 0) continue;
        // Counter by counter, written out: faster than a loop over the eleven (docs/performance-costs.md,
        // "A report built on every request").
        let row = day - from;
        values[row] = (values[row] as number) + (chunk[at] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 1] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 2] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 3] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 4] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 5] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 6] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 7] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 8] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 9] as number);
        row += days;
        values[row] = (values[row] as number) + (chunk[at + 10] as number);
      }
    }
  }
}
