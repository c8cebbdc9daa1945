/**
 * Server-sent events read from text as it arrives, as EventSource reads them (the HTML standard's
 * "Interpreting an event stream"). The page cannot use EventSource itself: it sends no Authorization
 * header, and the admin API takes its token in no other place.
 */

/** The end of a line: CRLF, LF or CR alone. */
const LINE_END = /\r\n|\r|\n/;

/**
 * A parser to `push` the stream's text into (decoded: TextDecoder drops a byte order mark), chunk by
 * chunk as it comes, cut anywhere. `dispatch` gets each event, `{ type, data, lastEventId }`, once its
 * blank line has come; comments (`:` lines), fields it does not know and events without data are dropped.
 */
export function eventStreamParser(dispatch) {
  let pending = '';
  let type = '';
  let data = [];
  let lastEventId = '';

  const takeField = (name, value) => {
    if (name === 'event') type = value;
    else if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) lastEventId = value;
  };

  const takeLine = (line) => {
    if (line === '') {
      if (data.length > 0) dispatch({ type: type === '' ? 'message' : type, data: data.join('\n'), lastEventId });
      type = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    if (colon === -1) {
      takeField(line, '');
      return;
    }
    const value = line.slice(colon + 1);
    takeField(line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value);
  };

  return {
    push(text) {
      pending += text;
      // A CR at the end may be the first half of a CRLF: it waits for the next chunk to tell.
      const heldBack = pending.endsWith('\r') ? '\r' : '';
      const lines = pending.slice(0, pending.length - heldBack.length).split(LINE_END);
      pending = (lines.pop() ?? '') + heldBack;
      lines.forEach(takeLine);
    },
  };
}
