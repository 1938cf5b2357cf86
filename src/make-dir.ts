import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p`, one level at a time. Node's own recursive mkdir never returns under a kernel
 * filesystem such as /proc (mkdir there fails with ENOENT and it retries forever); this fails
 * with that error instead, which start-up turns into one line naming the setting.
 */
export function makeDir(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if (statSync(d).isDirectory()) break;
      const code = d === path.resolve(dir) ? 'EEXIST' : 'ENOTDIR';
      throw Object.assign(new Error(`${code}: a file is in the way, mkdir '${dir}'`), { code, path: d, syscall: 'mkdir' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || d === path.dirname(d)) throw err;
      missing.unshift(d);
    }
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode });
    } catch (err) {
      // Made meanwhile by another process (two replicas starting together).
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
