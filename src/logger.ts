import pino, { type Logger, type LoggerOptions } from 'pino';

/** Request logs carry headers; credentials and session cookies in them must never reach a log. */
const REDACTED = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** Structured JSON logs on standard output. */
export function createLogger(level: LoggerOptions['level'], destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'ivr-reporting' }, redact: REDACTED }, destination ?? pino.destination(1));
}
