import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON log lines; tokens and keys never reach them (they are not logged, and redacted anyway). */
export function createAdapterLogger(adapter: string, level: string): Logger {
  return pino({
    level,
    base: { service: `svc-${adapter}` },
    redact: { paths: ['token', '*.token', 'apiKey', '*.apiKey', 'authorization', '*.authorization'], censor: '[redacted]' },
  });
}
