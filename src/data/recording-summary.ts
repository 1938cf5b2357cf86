import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One recorded thing: an event or a company, by its ticker and name, with what was kept of it. */
export interface RecordedItem {
  id: string;
  name: string;
  [detail: string]: unknown;
}

/**
 * What `svc snapshot record` and `svc snapshot record-sec` print, in one shape: which source
 * was recorded, where (the folder, its manifest, the setting that serves it), when, how many
 * answers and what was recorded, with counts.
 */
export function recordingSummary(o: { source: 'kalshi' | 'sec'; out: string; manifest: string; recordedAt: Date; recorded: RecordedItem[]; counts: Record<string, number> }) {
  const manifest = JSON.parse(readFileSync(o.manifest, 'utf8')) as { entries?: Record<string, unknown> };
  const env = o.source === 'kalshi' ? 'SVC_KALSHI_SNAPSHOT_DIR' : 'SVC_SEC_SNAPSHOT_DIR';
  return {
    source: o.source,
    out: path.resolve(o.out),
    manifest: path.resolve(o.manifest),
    recorded_at: o.recordedAt.toISOString(),
    counts: { ...o.counts, responses: Object.keys(manifest.entries ?? {}).length },
    recorded: o.recorded,
    use: `${env}=${path.resolve(o.out)}`,
  };
}
