import { AdminApiError, listCalls } from './admin-api.js';
import { followCalls, POLL_SECONDS } from './call-feed.js';
import { callList } from './call-list.js';
import { callRow } from './call-view.js';
import { element } from './dom.js';

const byId = (id) => document.getElementById(id);
const page = {
  signInSection: byId('sign-in-section'),
  signInForm: byId('sign-in'),
  signInError: byId('sign-in-error'),
  session: byId('session'),
  signOut: byId('sign-out'),
  calls: byId('calls'),
  callsTitle: byId('calls-title'),
  inspectorOff: byId('inspector-off'),
  inspectorOn: byId('inspector-on'),
  filters: byId('filters'),
  sessionFilter: byId('session-filter'),
  serviceFilter: byId('service-filter'),
  filterError: byId('filter-error'),
  pause: byId('pause'),
  summary: byId('summary'),
  feedState: byId('feed-state'),
  announcement: byId('announcement'),
  rows: byId('call-rows'),
};

/** What the server takes as ?session= (src/sandbox/survey-calls/routes.ts): checked here first, see `showSession`. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * What the page knows while it is open, and nowhere else. The admin token lives in this object only, not
 * in sessionStorage: it never expires and opens the whole admin API, so it must not outlive the page, nor
 * sit in the tab's storage (which a browser may write to disk to restore the session, and which every
 * script of this origin can read). Reloading or closing the page forgets it, as the reports page forgets
 * its credentials.
 */
const inspector = {
  token: undefined,
  capacity: 0,
  /** The calls held (call-list.js): those of `session` only, when it is set. */
  list: callList(0),
  /** The session whose calls are held and loaded; '' for every session. */
  session: '',
  /** Every service a call came to since signing in, for the service filter. */
  services: new Set(),
  feed: undefined,
  /** What call-feed.js said it is doing last; connecting until it says. */
  feedState: { kind: 'connecting' },
  paused: false,
  /** New calls not shown yet because the page is paused, newest first. */
  unshown: [],
  /** Loads of calls asked for: an answer to an older one, or to one before signing out, is dropped. */
  loads: 0,
  signingIn: false,
};

/** Each call's row, built once: a call does not change once kept. */
const rows = new WeakMap();

function rowOf(call) {
  if (!rows.has(call)) rows.set(call, callRow(call));
  return rows.get(call);
}

const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const ofSession = (session) => (call) => session === '' || call.session === session;

const shownService = (call) => page.serviceFilter.value === '' || call.service === page.serviceFilter.value;

function describeShown(shown, heldCount) {
  const kept = `this server keeps its last ${inspector.capacity}`;
  const whose = inspector.session === '' ? '' : ` of session ${inspector.session}`;
  if (heldCount === 0) return `No calls${whose} yet; ${kept}.`;
  const count = shown === heldCount ? plural(shown, 'call') : `${shown} of ${heldCount} calls`;
  return `${count}${whose} shown; ${kept}.`;
}

function describeFeed() {
  if (inspector.paused) {
    return inspector.unshown.length === 0
      ? 'Paused: new calls are held until you resume.'
      : `Paused: ${plural(inspector.unshown.length, 'new call')} held until you resume.`;
  }
  const state = inspector.feedState;
  if (state.kind === 'connecting') return 'Connecting to the stream of calls…';
  if (state.kind === 'reconnecting') return `The stream of calls dropped; reconnecting in ${state.seconds} s.`;
  if (state.kind === 'polling') {
    const polling = `Polling every ${POLL_SECONDS} s: the server has as many streams of calls open as it allows.`;
    return state.failure === undefined ? polling : `${polling} The last poll failed: ${state.failure}`;
  }
  return 'Live: new calls appear as they come.';
}

/** The services seen, sorted, as the filter's options after "All services"; the one chosen stays chosen. */
function updateServiceOptions() {
  const services = [...inspector.services].sort();
  const listed = [...page.serviceFilter.options].slice(1).map((option) => option.value);
  if (services.join('\n') === listed.join('\n')) return;
  const chosen = page.serviceFilter.value;
  page.serviceFilter.replaceChildren(
    element('option', { value: '' }, ['All services']),
    ...services.map((service) => element('option', { value: service }, [service])),
  );
  page.serviceFilter.value = chosen;
}

/** Shows the calls held that the service filter lets through, those that came while paused too. */
function render() {
  inspector.unshown = [];
  const shown = inspector.list.calls.filter(shownService);
  page.rows.replaceChildren(...shown.map(rowOf));
  updateServiceOptions();
  page.summary.textContent = describeShown(shown.length, inspector.list.calls.length);
  page.feedState.textContent = describeFeed();
}

/** Tells screen readers of new calls shown; the newest's seq makes each announcement differ from the last. */
function announce(calls) {
  const shown = calls.filter(shownService);
  if (shown.length > 0) page.announcement.textContent = `${plural(shown.length, 'new call')}, the newest #${shown[0].seq}.`;
}

/** Holds the calls of the session shown, and notes their services; the calls newly held, newest first. */
function holdCalls(calls) {
  calls.forEach(({ service }) => inspector.services.add(service));
  return inspector.list.add(calls.filter(ofSession(inspector.session)));
}

/** New calls from the feed: shown and announced, or held while the page is paused. */
function receive(calls) {
  const added = holdCalls(calls);
  if (inspector.paused) {
    inspector.unshown = [...added, ...inspector.unshown];
    updateServiceOptions();
    page.feedState.textContent = describeFeed();
    return;
  }
  render();
  announce(added);
}

function noteFeedState(state) {
  inspector.feedState = state;
  page.feedState.textContent = describeFeed();
}

function signOut(message = '') {
  inspector.feed?.stop();
  inspector.feed = undefined;
  inspector.token = undefined;
  inspector.loads += 1;
  inspector.list = callList(0);
  inspector.session = '';
  inspector.services = new Set();
  inspector.paused = false;
  inspector.unshown = [];
  page.filters.reset();
  page.pause.setAttribute('aria-pressed', 'false');
  page.filterError.textContent = '';
  page.announcement.textContent = '';
  page.rows.replaceChildren();
  updateServiceOptions();
  page.calls.hidden = true;
  page.session.hidden = true;
  page.signInSection.hidden = false;
  page.signInError.textContent = message;
  page.signInForm.elements.token.focus();
}

/** The feed's refusals that end it (a token no longer taken, an admin API gone) sign out, in the API's words. */
function follow(afterSeq) {
  noteFeedState({ kind: 'connecting' });
  inspector.feed = followCalls({
    token: inspector.token,
    afterSeq,
    session: () => inspector.session,
    onCalls: receive,
    onState: noteFeedState,
    onRefused: (error) => signOut(`Signed out: ${error.message}`),
  });
}

/**
 * Holds and shows the calls of `session` only ('' for all), as kept by the server now. The session is
 * taken at once, before the answer, so that no call the stream brings meanwhile is dropped as another
 * session's; the calls held of that session stay, the answer adds the rest.
 */
async function showSession(session) {
  page.filterError.textContent = '';
  if (session !== '' && !SESSION_ID.test(session)) {
    page.filterError.textContent = 'A session id is 1 to 128 letters, digits, _ or -.';
    return;
  }
  const load = (inspector.loads += 1);
  inspector.session = session;
  inspector.list.retain(ofSession(session));
  render();
  try {
    const { calls } = await listCalls(inspector.token, { session });
    if (load !== inspector.loads) return;
    inspector.list.add(calls);
    render();
  } catch (error) {
    if (load !== inspector.loads) return;
    if (!(error instanceof AdminApiError)) throw error;
    if (error.status === 401 || error.status === 404) signOut(`Signed out: ${error.message}`);
    else page.filterError.textContent = error.message;
  }
}

page.signInForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (inspector.signingIn) return;
  inspector.signingIn = true;
  const { token } = page.signInForm.elements;
  page.signInError.textContent = '';
  try {
    const { capacity, calls } = await listCalls(token.value);
    inspector.token = token.value;
    token.value = '';
    inspector.capacity = capacity;
    page.signInSection.hidden = true;
    page.session.hidden = false;
    page.calls.hidden = false;
    page.inspectorOff.hidden = capacity > 0;
    page.inspectorOn.hidden = capacity === 0;
    page.callsTitle.focus();
    if (capacity === 0) return;
    inspector.list = callList(capacity);
    holdCalls(calls);
    // The newest seq of every session: the stream sends the calls kept after it, 0 for all of them.
    follow(calls[0]?.seq ?? 0);
    render();
  } catch (error) {
    if (!(error instanceof AdminApiError)) throw error;
    page.signInError.textContent = error.message;
  } finally {
    inspector.signingIn = false;
  }
});

page.filters.addEventListener('submit', (event) => {
  event.preventDefault();
  const session = page.sessionFilter.value.trim();
  if (session === inspector.session) render();
  else void showSession(session);
});

page.serviceFilter.addEventListener('change', () => render());

page.pause.addEventListener('click', () => {
  inspector.paused = !inspector.paused;
  page.pause.setAttribute('aria-pressed', String(inspector.paused));
  const unshown = inspector.unshown;
  render();
  announce(unshown);
});

page.signOut.addEventListener('click', () => signOut());

byId('script-needed').hidden = true;
page.signInSection.hidden = false;
