/**
 * The calls the page holds: newest first, each once (by seq: a stream that reconnects, or a list asked
 * for again, sends some calls twice), and no more than the server's ring keeps (`capacity`), so a page
 * left open for days holds no more rows than the server does.
 */
export function callList(capacity) {
  let calls = [];
  return {
    /** Newest first. */
    get calls() {
      return calls;
    },
    /** Adds the calls it does not hold yet; those of them it keeps, newest first. */
    add(incoming) {
      const held = new Set(calls.map(({ seq }) => seq));
      const fresh = new Map(incoming.filter(({ seq }) => !held.has(seq)).map((call) => [call.seq, call]));
      if (fresh.size === 0) return [];
      calls = [...calls, ...fresh.values()].sort((a, b) => b.seq - a.seq).slice(0, capacity);
      return calls.filter(({ seq }) => fresh.has(seq));
    },
    /** Lets go of the calls for which `keep` is false. */
    retain(keep) {
      calls = calls.filter(keep);
    },
  };
}
