import { openStore } from '../../src/store/db.js';

/** Opens (and so migrates) the SQLite store in the data dir given, then says "ok" or why not. */
try {
  const store = await openStore({ dataDir: process.argv[2]! });
  await store.close();
  process.stdout.write('ok\n');
} catch (err) {
  process.stdout.write(`failed: ${(err as Error).message}\n`);
}
