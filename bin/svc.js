#!/usr/bin/env node
// The compiled CLI lives in dist/; `npm start`, `npm run demo` and `npm run bench` build it first.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('svc: not built yet; run `npm run build` (npm start does this for you)');
  process.exit(1);
}
const { main } = await import(entry.href);
const [command] = process.argv.slice(2);
process.exitCode = await main(process.argv.slice(2));
// A server that has shut down exits now: work detached from requests (an upstream call of a report
// generation stopped at the deadline) must not keep the process alive until its own timeout.
if (command === 'serve' || command === 'demo') process.exit();
