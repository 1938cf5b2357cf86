import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';

/** Runs `svc <args>` in this process: its exit code and what it wrote to stderr. */
async function svc(args: string[]): Promise<[number, string]> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const code = await main(args);
  vi.restoreAllMocks();
  return [code, stderr];
}

afterEach(() => vi.restoreAllMocks());

// A mistyped command was only "unknown command …; run svc help", which then listed all sixteen.
describe('a mistyped command is answered with the one meant', () => {
  it.each([
    [['acounts', 'create', '--email', 'a@example.com'], 'acounts create', 'svc accounts create'],
    [['accounts', 'creat'], 'accounts creat', 'svc accounts create'],
    [['keys', 'revok', 'key_1'], 'keys revok', 'svc keys revoke'],
    [['ledger', 'verfy'], 'ledger verfy', 'svc ledger verify'],
    [['credits', 'grnat', '--amount', '5'], 'credits grnat', 'svc credits grant'],
    [['sevre'], 'sevre', 'svc serve'],
    [['backtset', '--series', 'KXFED'], 'backtset', 'svc backtest'],
    [['acount'], 'acount', 'svc accounts'],
  ])('svc %j', async (args, asked, meant) => {
    const [code, stderr] = await svc(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^svc: unknown command "${asked}"; did you mean "${meant}"\\? svc (\\S+ )?has: .*; run svc (\\S+ --help|help) for their usage\n$`));
  });

  it('nothing is suggested when nothing is close (a word of a known group alone is not a guess at it)', async () => {
    for (const [args, asked] of [
      [['xyzzy'], 'xyzzy'],
      [['accounts', 'rename'], 'accounts rename'],
      [['nothing', '--x', '1'], 'nothing'],
      [['constructor'], 'constructor'],
    ] as const) {
      const [code, stderr] = await svc([...args]);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^svc: unknown command "${asked}"; svc (accounts )?has: `));
    }
  });
});
