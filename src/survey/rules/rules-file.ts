import path from 'node:path';
import { readPositioned, readPositionedFile, type FileFormat, type FileMistake } from '../../config/positioned-file';
import { rulesFile, type RulesFile } from './rules-schema';

export { mistakeText } from '../../config/positioned-file';

/** The extensions of a handler path that name a rules file rather than a module. */
const RULES_EXTENSIONS = ['.json', '.yaml', '.yml'] as const;

export function isRulesFile(filePath: string): boolean {
  return (RULES_EXTENSIONS as readonly string[]).includes(path.extname(filePath).toLowerCase());
}

export type RulesReading = { readonly ok: true; readonly rules: RulesFile } | { readonly ok: false; readonly mistakes: FileMistake[] };

function asRulesReading(reading: ReturnType<typeof readPositioned<typeof rulesFile>>): RulesReading {
  return reading.ok ? { ok: true, rules: reading.value } : reading;
}

/** Reads a rules file's text; every mistake comes with its line and column, so a survey builder can find it. */
export function readRules(text: string, format: FileFormat): RulesReading {
  return asRulesReading(readPositioned(text, format, rulesFile));
}

export function readRulesFile(filePath: string): RulesReading {
  return asRulesReading(readPositionedFile(filePath, rulesFile));
}
