const CARRIAGE_RETURN = 0x0d;
const LINE_FEED = 0x0a;
const HELD_CARRIAGE_RETURN = Buffer.from([CARRIAGE_RETURN]);

/**
 * Turns each CRLF of a byte stream into LF as chunks arrive. csv-parse counts a CRLF inside a quoted
 * field as two lines, which would shift the line of every later record; with LF alone its line count is
 * the file's. A quoted value loses only the CR of a line break, which no field of a call record may hold.
 */
export class CrlfToLf {
  private carriageReturnHeld = false;

  push(chunk: Buffer): Buffer {
    const data = this.carriageReturnHeld ? Buffer.concat([HELD_CARRIAGE_RETURN, chunk]) : chunk;
    // Whether a CR that ends the chunk starts a CRLF shows only in the next chunk.
    this.carriageReturnHeld = data.at(-1) === CARRIAGE_RETURN;
    const end = this.carriageReturnHeld ? data.length - 1 : data.length;
    const kept: Buffer[] = [];
    let start = 0;
    for (let at = data.indexOf(CARRIAGE_RETURN); at !== -1 && at < end; at = data.indexOf(CARRIAGE_RETURN, at + 1)) {
      if (data[at + 1] === LINE_FEED) {
        kept.push(data.subarray(start, at));
        start = at + 1;
      }
    }
    if (start === 0 && end === data.length) return data;
    kept.push(data.subarray(start, end));
    return Buffer.concat(kept);
  }

  /** The stream ended: a CR held back ends no CRLF. */
  end(): Buffer {
    const rest = this.carriageReturnHeld ? HELD_CARRIAGE_RETURN : Buffer.alloc(0);
    this.carriageReturnHeld = false;
    return rest;
  }
}
