import { isBlankLine, LineSplitter } from '../../streams/line-splitter';
import { tooLarge, type RecordHandler, type RecordSplitter } from './raw-record';

/** NDJSON: one record per line, numbered by its line in the body; blank lines are skipped. */
export class NdjsonRecords implements RecordSplitter {
  private readonly lines: LineSplitter;

  constructor(private readonly maxRecordBytes: number) {
    this.lines = new LineSplitter(maxRecordBytes);
  }

  push(chunk: Buffer, take: RecordHandler): void {
    this.lines.push(chunk, this.toRecords(take));
  }

  end(take: RecordHandler): void {
    this.lines.end(this.toRecords(take));
  }

  private toRecords(take: RecordHandler) {
    return (line: number, bytes: Buffer | undefined): void => {
      if (bytes === undefined) take({ line, problem: tooLarge(this.maxRecordBytes) });
      else if (!isBlankLine(bytes)) take({ line, bytes });
    };
  }
}
