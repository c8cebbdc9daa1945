import type { Logger } from 'pino';
import { NotReadyError } from '../storage/dependency-error';
import type { StoreDependency } from '../storage/store';
import type { ShutdownState } from './shutdown-state';

export type ReadinessStatus = 'ready' | 'unavailable';

export interface CheckResult {
  readonly status: ReadinessStatus;
  /** Why not, when unavailable: words that name no host, address or credential. */
  readonly reason?: string;
  /** Set for a dependency the server serves without (a read replica): its check does not count towards the status. */
  readonly optional?: true;
}

/** The body of GET /readyz: ready only when every check is. */
export interface ReadinessReport {
  readonly status: ReadinessStatus;
  readonly checks: Readonly<Record<string, CheckResult>>;
}

export type Readiness = () => Promise<ReadinessReport>;

export interface ReadinessSettings {
  /** READINESS_TIMEOUT_SECONDS: a check not answered by then is unavailable. */
  readonly timeoutSeconds: number;
  readonly logger: Logger;
  /** While it shuts down, the server is not ready whatever its dependencies say. */
  readonly shutdown: ShutdownState;
}

/** The check that appears, unavailable, once the server is shutting down. */
const SHUTDOWN_CHECK = 'server';
const SHUTTING_DOWN: CheckResult = { status: 'unavailable', reason: 'the server is shutting down' };

type Outcome = { readonly ok: true } | { readonly ok: false; readonly error?: unknown };

/** The check's outcome, or a failure once `timeoutMs` have passed, whichever comes first: never a hang. */
function bounded(check: () => Promise<void>, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false }), timeoutMs);
    Promise.resolve()
      .then(check)
      .then(
        () => resolve({ ok: true }),
        (error: unknown) => resolve({ ok: false, error }),
      )
      .finally(() => clearTimeout(timer));
  });
}

/**
 * GET /readyz's work: every dependency of the store checked at once, each bounded by the readiness
 * timeout; ready when every one that is not optional is (a read replica down leaves the server ready:
 * the primary answers its reads). Probes that arrive while a dependency's check is under way share its
 * answer, so however often /readyz is asked (it has no rate limit), each dependency has at most one
 * check in flight from here. The answer names no cause; the log does, once per change: a warning when a check starts failing
 * (with the error), a line when it passes again.
 */
export function readiness(dependencies: readonly StoreDependency[], { timeoutSeconds, logger, shutdown }: ReadinessSettings): Readiness {
  const timeoutMs = timeoutSeconds * 1000;
  const inFlight = new Map<string, Promise<CheckResult>>();
  const lastStatus = new Map<string, ReadinessStatus>();

  async function run(dependency: StoreDependency): Promise<CheckResult> {
    const { name } = dependency;
    const outcome = await bounded(() => dependency.check(), timeoutMs);
    const result: CheckResult = {
      ...(outcome.ok
        ? { status: 'ready' }
        : {
            status: 'unavailable',
            reason: !('error' in outcome)
              ? `no answer within ${timeoutSeconds} s (READINESS_TIMEOUT_SECONDS)`
              : outcome.error instanceof NotReadyError
                ? outcome.error.message
                : 'the check failed; the server log has the cause',
          }),
      ...(dependency.optional === true ? { optional: true } : {}),
    };
    const previous = lastStatus.get(name);
    lastStatus.set(name, result.status);
    if (result.status === 'unavailable' && previous !== 'unavailable') {
      logger.warn({ check: name, reason: result.reason, ...('error' in outcome ? { err: outcome.error } : {}) }, 'readiness check failed');
    } else if (result.status === 'ready' && previous === 'unavailable') {
      logger.info({ check: name }, 'readiness check passes again');
    }
    return result;
  }

  function checked(dependency: StoreDependency): Promise<CheckResult> {
    let pending = inFlight.get(dependency.name);
    if (pending === undefined) {
      pending = run(dependency).finally(() => inFlight.delete(dependency.name));
      inFlight.set(dependency.name, pending);
    }
    return pending;
  }

  return async () => {
    const results = await Promise.all(dependencies.map(checked));
    const checks = Object.fromEntries(dependencies.map(({ name }, index) => [name, results[index] as CheckResult]));
    if (shutdown.shuttingDown) return { status: 'unavailable', checks: { ...checks, [SHUTDOWN_CHECK]: SHUTTING_DOWN } };
    return { status: results.every((result) => result.optional === true || result.status === 'ready') ? 'ready' : 'unavailable', checks };
  };
}
