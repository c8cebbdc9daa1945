import editDistance from 'damerau-levenshtein';

/**
 * A variable of the environment that is no setting but looks meant as one, since a misspelling is
 * otherwise ignored in silence: with the setting it probably means, or, when it only begins with one of
 * the project's words, the settings that begin so.
 */
export interface StrayVariable {
  readonly name: string;
  readonly meant: { readonly setting: string } | { readonly word: string; readonly settings: readonly string[] };
}

/**
 * The first words of settings that other software's variables rarely begin with: a variable that starts
 * with one (SURVEY_TIMEOUT, REDIS_HOST) was written for this server, however far from a setting it is.
 * HOST, PORT, LOG, NODE, MAX and the like are left out: a shell's environment is full of them.
 */
export const PROJECT_WORDS: readonly string[] = [
  'ADMIN',
  'CREDENTIAL',
  'DATABASE',
  'DEMO',
  'METRICS',
  'READINESS',
  'REDIS',
  'REPORT',
  'RETENTION',
  'SANDBOX',
  'SEED',
  'SHUTDOWN',
  'SOAP',
  'SURVEY',
  'WEEK',
];

/**
 * How many edits (a letter added, dropped, changed, or two swapped) a name may be from a setting to be
 * taken for it: one for a short name, where two edits turn HOME into HOST; two from eight letters on.
 */
const closeEnough = (name: string) => (name.length >= 8 ? 2 : 1);

/** The environment's variables that are not among `settings` but close to one, or carry the project's words; in name order. */
export function strayVariables(env: NodeJS.ProcessEnv, settings: readonly string[]): StrayVariable[] {
  const known = new Set(settings);
  return Object.keys(env)
    .filter((name) => !known.has(name))
    .sort()
    .flatMap((name) => {
      const meant = meantSettings(name, settings);
      return meant === undefined ? [] : [{ name, meant }];
    });
}

function meantSettings(name: string, settings: readonly string[]): StrayVariable['meant'] | undefined {
  // Names are case-sensitive: week_start is not WEEK_START, but it was surely meant as it.
  const written = name.toUpperCase();
  const nearest = minimumOf(settings, (setting) => editDistance(written, setting).steps);
  if (nearest !== undefined && nearest.score <= closeEnough(written)) return { setting: nearest.item };
  const [word = '', ...otherWords] = written.split('_');
  if (!PROJECT_WORDS.includes(word)) return undefined;
  const family = settings.filter((setting) => setting.startsWith(`${word}_`));
  // Another word in common (SURVEY_TIMEOUT, SURVEY_HANDLER_TIMEOUT_SECONDS) says which; the first word alone says only the family.
  const sharing = minimumOf(family, (setting) => -otherWords.filter((other) => setting.split('_').includes(other)).length);
  return sharing !== undefined && sharing.score < 0 ? { setting: sharing.item } : { word, settings: family };
}

/** The first item of least score. */
function minimumOf<Item>(items: readonly Item[], score: (item: Item) => number): { item: Item; score: number } | undefined {
  let least: { item: Item; score: number } | undefined;
  for (const item of items) {
    const itemScore = score(item);
    if (least === undefined || itemScore < least.score) least = { item, score: itemScore };
  }
  return least;
}

export function strayVariableWarning({ name, meant }: StrayVariable): string {
  if ('setting' in meant) return `${name} is not a setting and is ignored: did you mean ${meant.setting}?`;
  return `${name} is not a setting and is ignored; the ${meant.word}_ settings are ${listed(meant.settings)}`;
}

function listed(names: readonly string[]): string {
  return names.length === 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}
