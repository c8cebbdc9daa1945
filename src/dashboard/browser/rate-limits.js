import { element } from './dom.js';

/**
 * The later of two limit states: a later window, or in the same window fewer requests left (answers
 * to requests sent together arrive in any order).
 */
export function laterRateLimit(known, seen) {
  if (known === undefined) return seen;
  if (seen === undefined) return known;
  if (seen.reset !== known.reset) return seen.reset > known.reset ? seen : known;
  return seen.remaining < known.remaining ? seen : known;
}

/** `144 of 150 requests left; a new window starts at 10:15.` */
export function showRateLimit(target, state) {
  if (state === undefined) {
    target.replaceChildren('Not asked yet.');
    return;
  }
  const reset = new Date(state.reset * 1000);
  const time = element('time', { datetime: reset.toISOString() }, [reset.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })]);
  target.replaceChildren(
    element('span', { class: 'remaining' }, [String(state.remaining)]),
    ` of ${state.limit} requests left; a new window starts at `,
    time,
    '.',
  );
}
