import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

// An operator's first guess is often `svc serve --port 9000`: it said only "this command takes no
// flags", leaving them to find that settings are environment variables.
describe('a flag named after a setting', () => {
  const env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-setting-flags-')) };

  it.each([
    [['serve', '--port', '9000'], 'svc: unknown flag --port; this command takes no flags; settings are environment variables, not flags: SVC_PORT=9000 before the command'],
    [['demo', '--data-dir=/srv/svc'], 'svc: unknown flag --data-dir; this command takes no flags; settings are environment variables, not flags: SVC_DATA_DIR=/srv/svc before the command'],
    [['accounts', 'create', '--email', 'a@example.com', '--log-level', 'debug'], 'svc: unknown flag --log-level; this command takes --email, --plan, --credits; settings are environment variables, not flags: SVC_LOG_LEVEL=debug before the command'],
    // A secret, or a URL that may hold a password, is never repeated.
    [['serve', '--admin-key', 'abcdefabcdefabcdef00'], 'svc: unknown flag --admin-key; this command takes no flags; settings are environment variables, not flags: SVC_ADMIN_KEY=… before the command'],
    [['serve', '--database-url', 'postgres://svc:secret@db/svc'], 'svc: unknown flag --database-url; this command takes no flags; settings are environment variables, not flags: SVC_DATABASE_URL=… before the command'],
    // A flag that is no setting is refused as before.
    [['serve', '--verbose'], 'svc: unknown flag --verbose; this command takes no flags'],
  ])('svc %j names the variable', async (args, line) => {
    const r = await runCli(args, env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
  });
});
