import { Writable } from 'node:stream';

type LogLine = Record<string, unknown>;

/** A pino destination that keeps every JSON log line, parsed, for assertions. */
export class LogLines extends Writable {
  readonly lines: LogLine[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      const parsed = JSON.parse(line) as LogLine;
      this.lines.push(parsed);
      this.emit('line', parsed);
    }
    done();
  }

  /** Resolves with the first line, logged already or later, that has this message or passes this test. */
  waitFor(match: string | ((line: LogLine) => boolean)): Promise<LogLine> {
    const matches = typeof match === 'string' ? (line: LogLine) => line.msg === match : match;
    const logged = this.lines.find(matches);
    if (logged !== undefined) return Promise.resolve(logged);
    return new Promise((resolve) => {
      const check = (line: LogLine) => {
        if (!matches(line)) return;
        this.off('line', check);
        resolve(line);
      };
      this.on('line', check);
    });
  }
}
