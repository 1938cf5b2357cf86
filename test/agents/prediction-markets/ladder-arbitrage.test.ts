import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';

// A ladder whose quotes cross (CPI: Above 2.8 bid over Above 2.6 ask) is an arbitrage the report
// states, as the Fed report states NO on every outcome; its takeaway gives the model's best buy too.
let svc: TestService;
let payer: OpenAI;

beforeAll(async () => {
  svc = await startService({ env: { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') } });
  payer = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account({ plan: 'pro', credits: 6 })).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

const report = async (input: string) => (await payer.responses.create({ model: 'svc-prediction-markets-agent', input })).output_text;

describe('a crossed ladder in the report', () => {
  it('the CPI report gives the lock-in on the crossing and the best buy on the model', async () => {
    const text = await report('KXCPIYOY-26DEC');
    const takeaway = text.split('## Key takeaway')[1]!.split('\n## ')[0]!;
    expect(takeaway).toContain("At the quoted prices the model's best buy is NO on **Above 3.0** at $0.14 against its 26.6%, +$0.126 per $1 contract before fees; YES on Above 2.6 and NO on Above 2.8 lock in 2¢ whatever happens [3].");
    expect(text).toContain(
      '**Arbitrage on these quotes:** YES on Above 2.6 at the ask and NO on Above 2.8 at 1 minus its YES bid cost $0.98 and pay at least $1 whatever happens (YES on Above 2.8 means YES on Above 2.6; both pay if the result lands between them), 2¢ locked in before fees; the best prices are good for 493 pairs (the contract snapshot has each size), more filling at worse prices.',
    );
  });

  it('a ladder whose quotes cross without a lock-in (Bitcoin: a pair costs $1.01) states none', async () => {
    const text = await report('https://kalshi.com/markets/kxbtcd/bitcoin-price-end-of-day/kxbtcd-26nov20');
    expect(text).toContain('The market prices its strikes out of order');
    expect(text).not.toContain('**Arbitrage on these quotes:**');
    expect(text).not.toMatch(/lock in \d+¢/);
  });
});
