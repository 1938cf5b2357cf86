import pino, { type Logger } from 'pino';

/** JSON logs on stdout. Secrets never reach a log line: headers are not logged, and these paths are redacted anyway. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'svc' },
      redact: { paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'api_key', '*.api_key', 'secret', '*.secret'], censor: '[redacted]' },
    },
    destination,
  );
}
