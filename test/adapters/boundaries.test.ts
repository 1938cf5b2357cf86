import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('adapters', () => {
  it('are clients of the API: nothing under adapters/ imports the core (src/)', () => {
    const files = sources(path.join(ROOT, 'adapters'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const imports = [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
      for (const spec of imports) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        expect(path.relative(path.join(ROOT, 'adapters'), target).startsWith('..'), `${path.relative(ROOT, file)} imports ${spec}`).toBe(false);
      }
    }
  });
});
