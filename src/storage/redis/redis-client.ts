import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DependencyUnavailableError } from '../dependency-error';

/**
 * Bounds on every wait (DEPENDENCY_TIMEOUT_SECONDS, as for PostgreSQL): while Redis is away or frozen,
 * commands fail at once (no offline queue) or within the command timeout instead of piling up, and the
 * client keeps reconnecting in the background, so service resumes by itself when Redis is back.
 */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** Connects and resolves once Redis answers; throws DependencyUnavailableError when it does not. */
export async function connectRedis(url: string, logger: Logger, timeoutSeconds: number): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutSeconds * 1000,
    commandTimeout: timeoutSeconds * 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
  });
  let connected = false;
  let connectionError: unknown;
  // Without a listener, a connection error would be an unhandled 'error' event; the client reconnects.
  redis.on('error', (error) => {
    if (connected) logger.warn({ err: error }, 'Redis connection error');
    else connectionError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    // ioredis rejects with "Connection is closed"; the error event said why.
    throw new DependencyUnavailableError('Redis (REDIS_URL)', connectionError ?? error);
  }
  connected = true;
  return redis;
}
