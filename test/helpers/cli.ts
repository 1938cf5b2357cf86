import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `svc <args>` from the TypeScript sources (through tsx); its standard input is `input`, or empty. */
export function svcProcess(args: string[], env: Record<string, string>, input = '') {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/run-cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, SVC_LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input);
  return child;
}

/** Runs `svc <args>`; `input`, when given, is written to its standard input. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = svcProcess(args, env, input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
