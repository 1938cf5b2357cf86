import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';

describe('opening storage', () => {
  it('SQLite: a new data dir and its database are readable by this user only', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'svc-modes-'));
    const dataDir = path.join(parent, 'data');
    try {
      const store = await openStore({ dataDir });
      await store.close();
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(dataDir, 'svc.db')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('Postgres that accepts the connection but never answers: start-up fails after 10 s instead of hanging', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const started = Date.now();
    try {
      await expect(openStore({ dataDir: os.tmpdir(), databaseUrl: `postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/test` })).rejects.toThrow(/timeout/i);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  }, 30_000);
});
