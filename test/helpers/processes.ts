import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children = new Set<ChildProcess>();

/** Starts test/helpers/child-service.ts in a new process; resolves once it listens. */
export function startChildService(env: Record<string, string>): Promise<{ url: string; adminKey: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/child-service.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve({ ...(JSON.parse(out.slice(0, nl)) as { url: string; adminKey: string }), child });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      children.delete(child);
      reject(new Error(`child service exited (${code}): ${err}`));
    });
  });
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, 'SIGKILL')));
}
