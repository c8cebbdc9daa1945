import { Argument, InvalidArgumentError } from 'commander';
import { TOOLS, TOOLS_IN_WORDS, type Tool } from '../../domain/tool';

/** commander argument parser for TOOL, so a typo is refused before anything is sent. */
export function parseTool(value: string): Tool {
  const tool = TOOLS.find((known) => known === value);
  if (tool === undefined) throw new InvalidArgumentError(`must be one of ${TOOLS.join(', ')}`);
  return tool;
}

/** The TOOL argument of the account and phone commands, parsed by parseTool. */
export const toolArgument = () => new Argument('<tool>', TOOLS_IN_WORDS).argParser(parseTool);
