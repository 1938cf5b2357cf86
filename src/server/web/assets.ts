import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../config.js';

export interface Asset {
  body: Buffer;
  type: string;
  /** Content hash: the asset's URL carries it, so a cached copy may be kept for a year. */
  version: string;
}

const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/** The pages' stylesheet and scripts, read once at start-up (from src/, whether running from src/ or dist/). */
export function loadAssets(dir = path.join(PACKAGE_ROOT, 'src', 'server', 'web', 'assets')): Map<string, Asset> {
  const out = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = readFileSync(path.join(dir, name));
    out.set(name, { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) });
  }
  return out;
}
