import { createHash } from 'node:crypto';

/**
 * An Idempotency-Key from a platform's own ids (`slack`, team, channel, ts…): a retried delivery
 * of the same event sends the same key, so the service answers it from its record instead of
 * running (and charging) again. Keys are visible ASCII, at most 255 characters.
 */
export function idempotencyKey(platform: string, ...ids: Array<string | number>): string {
  const raw = ['svc', platform, ...ids.map(String)].join(':').replace(/[^\x21-\x7e]/g, '_');
  if (raw.length <= 200) return raw;
  return `svc:${platform}:sha256:${createHash('sha256').update(raw).digest('hex')}`;
}
