import pino, { type Logger, type LoggerOptions } from 'pino';

/** Structured JSON logs on standard output. */
export function createLogger(level: LoggerOptions['level'], destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'ivr-reporting' } }, destination ?? pino.destination(1));
}
