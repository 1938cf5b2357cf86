import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);

describe('per-request run objects', () => {
  // A getter written in an object literal turns the object into a dictionary-mode object (a
  // per-object accessor closure): measured, each request's run state then survived every minor GC
  // and was promoted (~2 MB per scavenge) until the next full GC, which cost about a third of a
  // small response's CPU time. Run objects must be ordinary fast objects of one shape.
  it('are fast-property objects sharing one hidden class', async () => {
    const script = path.join(import.meta.dirname, 'fixtures', 'run-shapes.ts');
    const { stdout } = await exec(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', script], { cwd: path.resolve(import.meta.dirname, '../..') });
    expect(JSON.parse(stdout)).toEqual({ runs: { fast: true, same: true }, requests: { fast: true, same: true }, signalWorks: true });
  });
});
