import pino, { type Logger, type LoggerOptions } from 'pino';
import { ACCESS_LOG_REDACTIONS } from './http/access-log/access-log';

/**
 * Structured JSON logs on standard output, written synchronously: pino's asynchronous default can put the
 * lines written just before an exit out of order, when a busy machine delays a pending write until after
 * the exit's own flush.
 */
export function createLogger(level: LoggerOptions['level'], destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: { service: 'ivr-reporting' }, redact: { paths: [...ACCESS_LOG_REDACTIONS], censor: '[Redacted]' } },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
