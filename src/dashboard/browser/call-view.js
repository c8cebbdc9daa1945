import { element } from './dom.js';

/**
 * One survey call of the inspector (docs/admin-api.md, "Survey calls") as a row of the page's table.
 * Everything in it is text the caller sent: it goes in as text nodes (dom.js), never as markup.
 */

const muted = (text) => element('span', { class: 'empty' }, [text]);

/** 2018-02-07T15:00:00.000Z as 2018-02-07 15:00:00.000: the column's heading says UTC. */
const timeOf = (at) => at.replace('T', ' ').replace(/Z$/, '');

/** A text as the server kept it: whole, or its start and a note that the server cut it, with its length. */
function textNodes(shown) {
  if (typeof shown === 'string') return [shown === '' ? muted('empty') : shown];
  return [shown.text, element('span', { class: 'cut' }, [` [cut by the server: ${shown.length} characters in all]`])];
}

/** The server never keeps a recording whole: its size, its media type when known, its first bytes. */
function recordingText({ size, type, first_bytes: firstBytes }) {
  return ['recording', `${size} bytes`, type, `first bytes ${firstBytes}`].filter((part) => part !== undefined).join(', ');
}

function fileText({ name, content_type: contentType, size, first_bytes: firstBytes }) {
  return `${name}, ${size} bytes, ${contentType}, first bytes ${firstBytes}`;
}

function answerNodes(answer) {
  if (answer === undefined) return [muted('no answer')];
  if (typeof answer === 'object' && 'recording' in answer) return [element('span', { class: 'recording' }, [recordingText(answer.recording)])];
  return textNodes(answer);
}

/** Each question beside its answer: answers[i] answers question_texts[i], and a faulty call may have more of either. */
function questionsAndAnswers({ question_texts: questions, answers }) {
  const count = Math.max(questions.length, answers.length);
  if (count === 0) return muted('none');
  const pairs = Array.from({ length: count }, (_, index) =>
    element('div', { class: 'pair' }, [
      element('dt', {}, index < questions.length ? textNodes(questions[index]) : [muted('no question')]),
      element('dd', {}, answerNodes(answers[index])),
    ]),
  );
  return element('dl', { class: 'parts' }, pairs);
}

/** ani_ip, dnis and session_id by the names the WSDL and the REST form give them, when sent; then the files. */
function otherParts(parts) {
  const texts = ['ani_ip', 'dnis', 'session_id']
    .filter((name) => parts[name] !== null)
    .map((name) => element('div', { class: 'pair' }, [element('dt', {}, [name]), element('dd', {}, textNodes(parts[name]))]));
  const files = parts.files.map((file) => element('div', { class: 'pair' }, [element('dt', {}, ['file']), element('dd', {}, [fileText(file)])]));
  const all = [...texts, ...files];
  return all.length === 0 ? muted('none') : element('dl', { class: 'parts named-parts' }, all);
}

function outcomeNodes(outcome) {
  if ('answer' in outcome) return textNodes(outcome.answer);
  if ('connection' in outcome) return [element('span', { class: 'fault' }, [`Connection ${outcome.connection === 'reset' ? 'reset' : 'closed'} by a scenario, before any byte of the answer`])];
  const { code, message } = outcome.fault;
  return [element('span', { class: 'fault' }, ['Fault ', element('code', {}, [code]), `: ${message}`])];
}

/** A path that may break before each `/` (a <wbr>, which adds no text), not inside a segment. */
function pathNodes(path) {
  return path.split('/').flatMap((segment, index) => (index === 0 ? [segment] : [element('wbr'), `/${segment}`]));
}

/** The service's name, and the path the call came to. */
function serviceNodes({ service, path }) {
  return [service, ' at ', element('code', {}, pathNodes(path))];
}

/** The call's row: its seq heads it, and its id (`call-<seq>`) is unique in the page. */
export function callRow(call) {
  const cell = (children, className) => element('td', { class: className }, children);
  return element('tr', { id: `call-${call.seq}`, class: 'answer' in call.outcome ? undefined : 'faulty' }, [
    element('th', { scope: 'row', class: 'numeric' }, [String(call.seq)]),
    cell([element('time', { datetime: call.at }, [timeOf(call.at)])]),
    cell(serviceNodes(call)),
    cell([call.flavour]),
    cell([call.session === null ? muted('none') : element('code', {}, [call.session])], 'session'),
    cell([questionsAndAnswers(call.parts)], 'wraps'),
    cell([otherParts(call.parts)], 'wraps'),
    cell(outcomeNodes(call.outcome), 'wraps'),
    cell([call.handler_ms === null ? muted('not run') : `${call.handler_ms} ms`], 'numeric'),
  ]);
}
