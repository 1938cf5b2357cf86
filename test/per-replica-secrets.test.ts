import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { perReplicaSecretsWarning } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { PG_URL, dropTestSchemas, freshPostgres } from './helpers/backends.js';
import { startService } from './helpers/service.js';

afterAll(() => dropTestSchemas());

// Replicas on Postgres without SVC_ADMIN_KEY / SVC_SIGNING_SECRET each generated their own into
// their own data dir, with only an info line: on several machines the admin API then answered on
// one replica only and document links from one were refused by the others.
const PG = 'postgres://svc:secret@db.internal:5432/svc';
const config = (env: Record<string, string>) => loadConfig({ SVC_DATA_DIR: '/srv/svc', ...env });

describe('perReplicaSecretsWarning', () => {
  it('names both settings and the files used, on Postgres', () => {
    expect(perReplicaSecretsWarning(config({ SVC_DATABASE_URL: PG }), { adminKeyFile: '/srv/svc/admin.key', signingFile: '/srv/svc/signing.key' })).toBe(
      'svc: SVC_DATABASE_URL is set, so other replicas may share this database, but SVC_ADMIN_KEY and SVC_SIGNING_SECRET are not: this replica uses /srv/svc/admin.key and /srv/svc/signing.key from its own data dir, and a replica with another data dir holds others (the admin API answers on one replica only; a document link one replica signed is refused by the others). Give every replica the same SVC_ADMIN_KEY and the same SVC_SIGNING_SECRET (`openssl rand -hex 32` each), or ignore this if every replica uses this data dir.',
    );
  });

  it('names only the one left unset', () => {
    expect(perReplicaSecretsWarning(config({ SVC_DATABASE_URL: PG }), { adminKeyFile: null, signingFile: '/srv/svc/signing.key' })).toBe(
      'svc: SVC_DATABASE_URL is set, so other replicas may share this database, but SVC_SIGNING_SECRET is not: this replica uses /srv/svc/signing.key from its own data dir, and a replica with another data dir holds another (a document link one replica signed is refused by the others). Give every replica the same SVC_SIGNING_SECRET (`openssl rand -hex 32`), or ignore this if every replica uses this data dir.',
    );
  });

  it('says nothing on SQLite (one process), or when both are set', () => {
    expect(perReplicaSecretsWarning(config({}), { adminKeyFile: '/srv/svc/admin.key', signingFile: '/srv/svc/signing.key' })).toBeNull();
    expect(perReplicaSecretsWarning(config({ SVC_DATABASE_URL: PG }), { adminKeyFile: null, signingFile: null })).toBeNull();
  });
});

/** A logger whose warnings are collected. */
function capturingLog() {
  const warnings: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { level: number; msg: string };
        if (entry.level === 40) warnings.push(entry.msg);
      }
      done();
    },
  });
  return { log: createLogger('warn', sink), warnings };
}

describe('at start-up', () => {
  it('a SQLite server warns of nothing of the kind', async () => {
    const { log, warnings } = capturingLog();
    const svc = await startService({ log });
    try {
      expect(warnings.filter((w) => w.includes('SVC_ADMIN_KEY'))).toEqual([]);
    } finally {
      await svc.close();
    }
  });

  it.skipIf(!PG_URL)('a Postgres server with neither setting warns once, naming its data dir files; with both set, not', async () => {
    const url = await freshPostgres();
    const first = capturingLog();
    const svc = await startService({ log: first.log, env: { SVC_DATABASE_URL: url } });
    try {
      const lines = first.warnings.filter((w) => w.includes('SVC_DATABASE_URL is set'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`this replica uses ${svc.dataDir}/admin.key and ${svc.dataDir}/signing.key from its own data dir`);
    } finally {
      await svc.close();
    }
    const second = capturingLog();
    const set = await startService({ log: second.log, env: { SVC_DATABASE_URL: url, SVC_ADMIN_KEY: 'a'.repeat(32), SVC_SIGNING_SECRET: 'b'.repeat(32) } });
    try {
      expect(second.warnings.filter((w) => w.includes('SVC_DATABASE_URL is set'))).toEqual([]);
    } finally {
      await set.close();
    }
  });
});
