import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/store/migrations/index.js';
import { runCli } from './helpers/cli.js';

const env = { SVC_DATA_DIR: '/nonexistent/svc-version-test' };

describe('svc --version and the help', () => {
  it('--version prints the version and the newest migration it knows, touching no storage (it was "unknown command")', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const newest = Object.keys(migrations).sort().at(-1)!;
    expect(newest).toMatch(/^\d{3}_/);
    for (const word of ['--version', '-v', 'version']) {
      const r = await runCli([word], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`svc ${version} (database migrations up to ${newest})\n`);
      expect(r.stderr).toBe('');
    }
  }, 60_000);

  it('the help says how to get one command\'s usage, and the plan flags list the plans', async () => {
    const help = await runCli(['help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("\nsvc <command> --help prints that command's usage; svc --version the version and the newest database migration it knows.\n");
    const create = await runCli(['accounts', 'create', '--help'], env);
    expect(create.stdout).toBe('Usage: svc accounts create --email E [--plan free|plus|pro|enterprise] [--credits N]\n');
    const plan = await runCli(['accounts', 'set-plan', '--help'], env);
    expect(plan.stdout).toBe('Usage: svc accounts set-plan --account ID --plan free|plus|pro|enterprise\n');
  }, 60_000);
});
