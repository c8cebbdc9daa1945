import type { z } from 'zod';
import type { ReportTarget } from '../sandbox/sandbox';
import type { rangePathSchema, seriesPathSchema } from './query/params';
import type { ResourceAnswer, ResourceContext } from './resource-route';

/** A raw-data resource's own part of its OpenAPI operation, written in its folder; the rest every resource shares (openapi.ts). */
export interface DataResourceOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  /** The path it is served at under /api, as Express matches it. */
  readonly expressPath: string;
  readonly params: typeof rangePathSchema | typeof seriesPathSchema;
  readonly json: z.ZodType;
  readonly xml: z.ZodType;
}

/**
 * A raw-data resource as its folder declares it, once: what the router serves (at its operation's path,
 * GET and HEAD behind Basic auth, in the shared data limit group), what the OpenAPI document describes, and
 * what a scenario targets it by.
 */
export interface DataResourceDeclaration {
  /** Its name as a scenario targets it (POST /admin/scenarios). */
  readonly name: ReportTarget;
  readonly operation: DataResourceOperation;
  /** Its answer over the store and settings the composition root gives (resource-route.ts). */
  readonly answer: (context: ResourceContext) => ResourceAnswer;
}
