import { ApiError, getReport, requestCredentials } from './api.js';
import { element } from './dom.js';
import { flowView } from './flow-view.js';
import { geographicView } from './geographic-view.js';
import { ALL_NUMBERS, defaultQuery, describeQuery, fillQueryForm, readQueryForm } from './query.js';
import { laterRateLimit, showRateLimit } from './rate-limits.js';
import { reportSection } from './report-section.js';
import { REPORTS, reportPath } from './reports.js';
import { showSandboxBanner, withScenarioNote } from './sandbox.js';
import { serverClock } from './server-clock.js';
import { seriesView } from './series-view.js';

const VIEWS = { series: seriesView, geographic: geographicView, flow: flowView };

const byId = (id) => document.getElementById(id);
const page = {
  signInSection: byId('sign-in-section'),
  signInForm: byId('sign-in'),
  signInError: byId('sign-in-error'),
  session: byId('session'),
  sessionAccount: byId('session-account'),
  signOut: byId('sign-out'),
  reports: byId('reports'),
  reportsTitle: byId('reports-title'),
  queryForm: byId('query'),
  queryError: byId('query-error'),
  knownNumbers: byId('known-numbers'),
  status: byId('status'),
  dataLimit: byId('data-limit'),
  authLimit: byId('auth-limit'),
  reportList: byId('report-list'),
  sandboxBanner: byId('sandbox-banner'),
};

/**
 * What the page knows while it is open, and nowhere else: the temporary credentials live in this object
 * only (no cookie, no storage), so closing or reloading the page forgets them.
 */
const session = {
  credentials: undefined,
  dataLimit: undefined,
  authLimit: undefined,
  loading: 0,
  signingIn: false,
  /**
   * The sandbox's scenarios still active for the account, as the latest answers tell (sandbox.js): those
   * of auth requests from the last sign-in's answer, those of data requests from the last reports' (the
   * most any one gave: each answer counts the scenarios of its own resource). No scenario matches both.
   */
  scenarios: { auth: 0, reports: 0 },
  /** The query the form was last filled with by default, to know whether it was changed since. */
  defaultQuery: undefined,
};

/** "Now" and "today" are the server's, as the answers' Date headers tell (server-clock.js). */
const clock = serverClock();

const sections = REPORTS.map((report) => ({ report, section: reportSection(report) }));
page.reportList.append(...sections.map(({ section }) => section.node));

function noteDataLimit(state) {
  session.dataLimit = laterRateLimit(session.dataLimit, state);
  showRateLimit(page.dataLimit, session.dataLimit);
}

function noteAuthLimit(state) {
  session.authLimit = laterRateLimit(session.authLimit, state);
  showRateLimit(page.authLimit, session.authLimit);
}

function noteScenarios(part, count) {
  session.scenarios[part] = count;
  showSandboxBanner(page.sandboxBanner, session.scenarios.auth + session.scenarios.reports);
}

/** What the page says of a failure: the API's words, and the sandbox scenario that forced it, if one did. */
function messageOf(failure) {
  return failure instanceof ApiError ? withScenarioNote(failure.message, failure.sandbox?.scenario) : failure.message;
}

/**
 * The four weeks to the server's today, once an answer told the server's time, unless the form was
 * changed since it was last filled so: a range someone chose stays across signing out and in again.
 */
function fillDefaultQuery() {
  const { elements } = page.queryForm;
  const changed = ['start', 'end', 'period', 'phone'].some((name) => elements[name].value !== session.defaultQuery?.[name]);
  if (session.defaultQuery !== undefined && changed) return;
  session.defaultQuery = defaultQuery(clock.today());
  fillQueryForm(page.queryForm, session.defaultQuery);
}

function rememberNumber(phone) {
  const known = [...page.knownNumbers.options].some((option) => option.value === phone);
  if (!known) page.knownNumbers.append(element('option', { value: phone }));
}

function signOut(message = '') {
  session.credentials = undefined;
  session.dataLimit = undefined;
  noteScenarios('reports', 0);
  // Answers still on their way belong to the ended session: a load checks this number before it shows them.
  session.loading += 1;
  sections.forEach(({ section }) => section.clear());
  showRateLimit(page.dataLimit, undefined);
  page.status.textContent = '';
  page.queryError.textContent = '';
  page.reportList.setAttribute('aria-busy', 'false');
  page.reports.hidden = true;
  page.session.hidden = true;
  page.signInSection.hidden = false;
  page.signInError.textContent = message;
  page.signInForm.elements.login.focus();
}

/** Every report for one query, asked together; each shows its answer or the API's message. */
async function load(query) {
  const loading = (session.loading += 1);
  page.queryError.textContent = '';
  page.reportList.setAttribute('aria-busy', 'true');
  page.status.textContent = `Loading ${describeQuery(query)}…`;
  const answers = await Promise.allSettled(REPORTS.map((report) => getReport(session.credentials, reportPath(report, query))));
  if (loading !== session.loading) return;

  const told = answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : answer.reason));
  told.forEach(({ clockOffset }) => clock.note(clockOffset));
  // Answers that never came (the server out of reach) tell nothing of the scenarios.
  const counts = told.filter(({ sandbox }) => sandbox !== undefined).map(({ sandbox }) => sandbox.active);
  if (counts.length > 0) noteScenarios('reports', Math.max(...counts));
  const now = clock.now();

  const failures = [];
  answers.forEach((answer, index) => {
    const { report, section } = sections[index];
    noteDataLimit(told[index].rateLimit);
    if (answer.status === 'rejected') {
      failures.push(answer.reason);
      section.showError(messageOf(answer.reason));
      return;
    }
    try {
      section.show(VIEWS[report.view](report, answer.value.body, query, now), query);
    } catch (error) {
      failures.push(error);
      section.showError(`This report could not be shown: ${error.message}`);
    }
  });
  page.reportList.setAttribute('aria-busy', 'false');

  const expired = failures.find((failure) => failure instanceof ApiError && failure.status === 401);
  if (expired !== undefined) {
    signOut(`Signed out: ${messageOf(expired)}`);
    return;
  }
  const messages = [...new Set(failures.map(messageOf))];
  if (failures.length === REPORTS.length && messages.length === 1) page.queryError.textContent = messages[0];
  if (failures.length < REPORTS.length && query.phone !== ALL_NUMBERS) rememberNumber(query.phone);
  page.status.textContent =
    failures.length === 0
      ? `Showing ${describeQuery(query)}.`
      : `Asked for ${describeQuery(query)}: ${failures.length} of ${REPORTS.length} reports could not be shown.`;
}

/** Shows the reports the query form asks for, or says what is wrong with it. */
async function loadFromForm() {
  const read = readQueryForm(page.queryForm);
  if (read.problem !== undefined) page.queryError.textContent = read.problem;
  else await load(read.query);
}

page.signInForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (session.signingIn) return;
  session.signingIn = true;
  const { tool, login, password } = page.signInForm.elements;
  page.signInError.textContent = '';
  try {
    const answer = await requestCredentials({ tool: tool.value, login: login.value, password: password.value });
    const { body, rateLimit, sandbox, clockOffset } = answer;
    noteAuthLimit(rateLimit);
    noteScenarios('auth', sandbox.active);
    clock.note(clockOffset);
    fillDefaultQuery();
    session.credentials = { login: body.login, password: body.password };
    password.value = '';
    page.sessionAccount.textContent = `Signed in as ${login.value} (${tool.value})`;
    page.signInSection.hidden = true;
    page.session.hidden = false;
    page.reports.hidden = false;
    page.reportsTitle.focus();
    await loadFromForm();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    noteAuthLimit(error.rateLimit);
    if (error.sandbox !== undefined) noteScenarios('auth', error.sandbox.active);
    clock.note(error.clockOffset);
    page.signInError.textContent = messageOf(error);
  } finally {
    session.signingIn = false;
  }
});

page.queryForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void loadFromForm();
});

page.signOut.addEventListener('click', () => signOut());

// The browser's today until the sign-in's answer tells the server's, before the form is shown.
fillDefaultQuery();
byId('script-needed').hidden = true;
page.signInSection.hidden = false;
