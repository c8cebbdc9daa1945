/** The tools an account may belong to. */
import { z } from 'zod';

export const TOOLS = ['dev', 'fuse', 'insight', 'fuseplus'] as const;
export type Tool = (typeof TOOLS)[number];

/** The tools as a sentence names them: dev, fuse, insight or fuseplus. */
export const TOOLS_IN_WORDS = `${TOOLS.slice(0, -1).join(', ')} or ${TOOLS[TOOLS.length - 1]}`;

/** A tool, wherever one is read: a login, an admin path, a seed file. */
export const toolSchema = z.enum(TOOLS).meta({ description: 'The tool the account belongs to' });
