import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Secrets that travel inside URLs: a Discord interaction's token (webhook and callback paths,
 * valid for 15 minutes) and a Slack `response_url`. Errors carry the URL they failed on.
 */
const SECRET_IN_URL: [RegExp, string][] = [
  [/(\/(?:webhooks|interactions)\/\d+\/)[^/?#\s"']+/g, '$1[redacted]'],
  [/(hooks\.slack\.com\/[a-z]+\/)[^?#\s"']+/gi, '$1[redacted]'],
];

export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_IN_URL) out = out.replace(pattern, replacement);
  return out;
}

/**
 * pino's error serializer, minus what an HTTP library's error carries that may not be logged: the
 * request body (an answer's text, a user's question) and tokens inside the URL.
 */
function serializeError(err: unknown): unknown {
  const plain = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown> | undefined;
  if (!plain || typeof plain !== 'object') return plain;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plain)) {
    if (k === 'requestBody' || k === 'rawError') continue;
    out[k] = typeof v === 'string' ? scrubSecrets(v) : k === 'cause' ? serializeError(v) : v;
  }
  return out;
}

/** JSON log lines (to stdout unless `destination`); tokens and keys never reach them (they are not logged, and redacted anyway). */
export function createAdapterLogger(adapter: string, level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    base: { service: `svc-${adapter}` },
    serializers: { err: serializeError },
    redact: { paths: ['token', '*.token', 'apiKey', '*.apiKey', 'authorization', '*.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
