/**
 * A service the configuration points at (PostgreSQL, Redis) could not be reached at start. The server
 * process prints the message, which names the service, and exits non-zero.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';

  constructor(service: string, cause: unknown) {
    super(`${service} is unreachable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
