import { textOf, trackedFiles } from './tracked-text';

/**
 * A comment, a document or a test name says the rule or the reason itself, never the number of the ticket
 * that asked for it: a reader of the tree has the tree, not the tracker, and a number tells them nothing.
 */
const TICKET = /\bissues? #?\d+/i;

describe('the tracked files', () => {
  test('name no issue by its number', () => {
    const found = trackedFiles().flatMap((file) =>
      (textOf(file) ?? '').split('\n').flatMap((line, index) => (TICKET.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  test('are held to a pattern that finds the ways a number is written, and not the word alone', () => {
    // Written with a placeholder, so that this file holds none of them.
    const tickets = ['see issue $', '(Issue $/30)', 'issues $ and 42', 'issue #$'].map((line) => line.replace('$', '29'));
    const words = ['zod issues as one message', 'a credential issued', 'issue: the title'];
    expect([...tickets, ...words].filter((line) => TICKET.test(line))).toEqual(tickets);
  });
});
