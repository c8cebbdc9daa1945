import pino, { type Logger, type LoggerOptions } from 'pino';

/**
 * Structured JSON logs on standard output, written asynchronously: a line is queued and the lines queued
 * while a write is in progress go out together in the next one, so a server under load makes one write
 * call per batch of access lines rather than one per request (docs/performance-costs.md, "What changed at
 * the edge, and why"; the access line as a whole, built and written, is measured by `npm run bench`,
 * docs/performance.md). What is queued when the process ends must be written in order
 * before it exits: see `flushLogs`.
 */
export function createLogger(level: LoggerOptions['level'], destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: { service: 'ivr-reporting' } },
    // minLength 1 writes each line at once as 0 would, but only with a minimum does sonic-boom's flush wait for the write in progress.
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 1 }),
  );
}

/**
 * Resolves once every line logged so far is written, the write in progress included. Called before the
 * process exits: the exit's own synchronous flush (pino's) would write the queued lines while an earlier
 * write may still be in flight, so a busy machine could put the last lines out of order.
 */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    logger.flush(() => resolve());
  });
}
