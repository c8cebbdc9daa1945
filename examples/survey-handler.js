/*
 * An example survey handler for the svcEval web service: it scores a satisfaction page.
 *
 * Run the server with it:   SURVEY_HANDLER=examples/survey-handler.js npm start
 * (the path is resolved from the directory the server is started in).
 *
 * The interface. A handler module exports one function, as `module.exports = fn`, as a default
 * export, or as an export named `evaluate`. The server loads it once at start (with SURVEY_RELOAD=true,
 * again after each change) and calls it for every svcEval call with one object:
 *
 *   questionTexts  string[]  the question texts of the current page, in page order
 *   answers        string[]  answers[i] answers questionTexts[i] (same length; '' when unanswered)
 *   aniIp, dnis, sessionId   strings, present only when the survey system sends those parts
 *   state          what this function returned as `state` on the survey's previous call (after a JSON
 *                  round trip, so undefined became null), or undefined on a survey's first call
 *
 * It returns, or resolves to, `{ response, state }`: `response` (a string) is stored by the survey
 * system as the answer of the question that called the service, and its skip logic can branch on it;
 * `state` (anything JSON can hold) is kept for the same survey's next call. A survey is one caller
 * keeping the service's session cookie; state is forgotten after SURVEY_SESSION_TTL_SECONDS idle.
 * If the function throws, rejects or returns something else, the caller gets a soap:Server fault
 * (the survey system stores 'SOAPFault') and the cause goes to the server log.
 *
 * This one reads every answer that is a whole number from 1 to 5 as a score, keeps the running
 * totals of the survey's pages in its state, and answers with the survey-wide category so far:
 * 'promoter' (average 4.5 or more), 'passive' (3.5 or more), 'detractor' (below), or 'unscored'
 * while no page has carried a score.
 */

const FIRST_SURVEY_STATE = { scoreSum: 0, scoreCount: 0 };

function scoresOf(answers) {
  return answers.filter((answer) => /^[1-5]$/.test(answer.trim())).map(Number);
}

function category(state) {
  if (state.scoreCount === 0) return 'unscored';
  const average = state.scoreSum / state.scoreCount;
  if (average >= 4.5) return 'promoter';
  if (average >= 3.5) return 'passive';
  return 'detractor';
}

function scoreSatisfactionPage({ answers, state }) {
  const before = state ?? FIRST_SURVEY_STATE;
  const scores = scoresOf(answers);
  const after = {
    scoreSum: before.scoreSum + scores.reduce((sum, score) => sum + score, 0),
    scoreCount: before.scoreCount + scores.length,
  };
  return { response: category(after), state: after };
}

module.exports = scoreSatisfactionPage;
