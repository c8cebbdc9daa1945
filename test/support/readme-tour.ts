import { DateTime } from 'luxon';
import { codeBlocks, docSection, fencedBlocks } from './doc-section';

/*
 * The README's five-minute tour, run verbatim against a server at any address: the README's own test
 * runs it against `npm start`, the container's test against the image run with compose.yaml.
 */

export const TOUR = docSection('README.md', 'A five-minute tour');
/** The address the tour's commands name, replaced by the address of the server under test. */
const README_BASE = 'http://127.0.0.1:3000';

/** Runs a shell script and resolves with its standard output. */
export type Shell = (script: string) => Promise<string>;

const [authenticate, byWeek, byWeekInXml, plumEval] = codeBlocks(TOUR, 'sh') as [string, string, string, string];

/** The tour's blocks as they run against `base`. */
const at = (block: string, base: string) => block.replaceAll(README_BASE, base);

export async function expectLoginAsShown(shell: Shell, base: string): Promise<void> {
  const [shown] = fencedBlocks(TOUR).filter(({ language }) => language === 'json');
  const answer = JSON.parse(await shell(at(authenticate, base))) as Record<string, string>;
  expect(answer).toEqual({ login: expect.stringMatching(/^[0-9a-f]{32}$/), password: expect.stringMatching(/^[0-9a-f]{32}$/) });
  expect(Object.keys(JSON.parse(shown!.text) as object)).toEqual(Object.keys(answer));
}

export async function expectWeeklyReportsAsShown(shell: Shell, base: string): Promise<void> {
  const weekly = JSON.parse(await shell(at(byWeek, base))) as Record<string, Record<string, number>>;
  expect(Object.keys(weekly)).toEqual(['calls', 'log_events', 'loops_per_call', 'form_items', 'loops', 'average_form_items']);
  // The last four weeks of the demo account's days: four periods, each from a Monday in its zone, the whole ones with calls.
  const weekStarts = Object.keys(weekly.calls!).map((key) => DateTime.fromSeconds(Number(key), { zone: 'America/New_York' }));
  expect(weekStarts.map((start) => [start.weekday, start.hour])).toEqual([
    [1, 0],
    [1, 0],
    [1, 0],
    [1, 0],
  ]);
  // This week's are so far: in its first hours, Monday night in New York, there may be none yet.
  expect(Object.values(weekly.calls!).slice(0, 3).every((calls) => calls > 0)).toBe(true);

  const weeklyXml = await shell(at(`${byWeek}\n${byWeekInXml}`, base));
  expect(weeklyXml).toMatch(/^\{.*\}<\?xml version="1\.0" encoding="UTF-8"\?>\n<result>\n {2}<calls>\n {4}<period timestamp="\d+">\d+<\/period>\n/s);
  expect(weeklyXml.length).toBeLessThan(4_000);
}

/** Needs PHP's SoapClient. */
export async function expectSurveyCallAsShown(shell: Shell, base: string): Promise<void> {
  expect(TOUR).toContain('prints `rejected`, `accepted`, then `accepted again`');
  expect(await shell(at(plumEval, base))).toBe('rejected\naccepted\naccepted again\n');
}
