import pg from 'pg';
import { describe } from 'vitest';
import { randomToken } from '../../src/ids.js';

/** Postgres for the two-backend suites; CI sets it (see .ci/run). */
export const PG_URL = process.env.SVC_TEST_DATABASE_URL ?? '';

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** Environment for a service on this backend; Postgres gets a fresh schema per call. */
  env(): Promise<Record<string, string>>;
}

const schemas: string[] = [];

/** A new schema in the test database; the URL pins it through search_path. */
export async function freshPostgres(): Promise<string> {
  const schema = `svc_test_${randomToken(10).toLowerCase()}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
  schemas.push(schema);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export async function dropTestSchemas(): Promise<void> {
  if (!PG_URL || !schemas.length) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const s of schemas.splice(0)) await client.query(`drop schema if exists ${s} cascade`);
  } finally {
    await client.end();
  }
}

const sqlite: Backend = { name: 'sqlite', env: async () => ({}) };
const postgres: Backend = { name: 'postgres', env: async () => ({ SVC_DATABASE_URL: await freshPostgres() }) };

/**
 * Runs a suite on SQLite and on Postgres. Without SVC_TEST_DATABASE_URL the Postgres run is
 * reported as skipped, with the way to enable it in its name.
 */
export function describeBackends(name: string, suite: (backend: Backend) => void): void {
  describe(`${name} [sqlite]`, () => suite(sqlite));
  if (PG_URL) describe(`${name} [postgres]`, () => suite(postgres));
  else describe.skip(`${name} [postgres] (skipped: set SVC_TEST_DATABASE_URL=postgres://… to run)`, () => suite(postgres));
}
