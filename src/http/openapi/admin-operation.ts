import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { errorResponse, jsonOnly, type SharedHeaders } from './components';

/**
 * An operation of the admin API as the folder of its route writes it (the admin features' and the
 * sandbox's): admin/openapi.ts adds the tag, the Bearer scheme and the answers every operation of the
 * admin API may give.
 */
export type AdminOperation = Omit<RouteConfig, 'responses' | 'tags' | 'security'> & { readonly responses: Record<number, ResponseConfig> };

/** What the admin API's answers are written with: JSON only, every one counted in the admin limit group. */
export interface AdminAnswers {
  /** The limit group's headers, which every answer carries. */
  readonly limited: SharedHeaders['rateLimit'];
  /** An answer with a JSON body of `schema`. */
  readonly json: (description: string, schema: ZodType) => ResponseConfig;
  /** A refusal, with the error body. */
  readonly failure: (description: string) => ResponseConfig;
}

export function adminAnswers(headers: SharedHeaders): AdminAnswers {
  const limited = headers.rateLimit;
  return {
    limited,
    json: (description, schema) => ({ description, headers: { ...limited }, content: jsonOnly(schema) }),
    failure: (description) => errorResponse(description, { xml: false, headers: limited }),
  };
}
