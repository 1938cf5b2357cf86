import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMarkets } from '../../../src/agents/markets-search/agent.js';
import { OpenEventsIndex } from '../../../src/agents/markets-search/index.js';
import { KalshiClient } from '../../../src/data/kalshi/client.js';
import { LiveSource } from '../../../src/data/source.js';
import { WORLD_NOW } from '../../fixtures/kalshi-world.js';
import { startFakeKalshi } from '../../helpers/fake-kalshi.js';
import type { FakeReply, FakeRequest } from '../../helpers/fake-http.js';

let fake: Awaited<ReturnType<typeof startFakeKalshi>>;
let intercept: ((req: FakeRequest) => FakeReply | undefined) | undefined;

beforeAll(async () => {
  fake = await startFakeKalshi({ intercept: (req) => intercept?.(req) });
});
afterAll(() => fake.close());

describe('an event whose prices cannot be read', () => {
  it('is listed as unread, not as having no prices yet; the others keep theirs', async () => {
    const client = new KalshiClient(new LiveSource({ name: 'Kalshi', baseUrl: fake.apiUrl, requestsPerSecond: 1000, timeoutMs: 2000, retries: 0 }), () => new Date(WORLD_NOW * 1000));
    const index = new OpenEventsIndex(client, 60_000, pino({ level: 'silent' }));
    const fed = fake.world.openEvents.find((t) => t.startsWith('KXFEDDECISION-'))!;
    // The index is built first; then reading that event's prices fails.
    await index.get();
    intercept = (req) => (req.path.endsWith(`/events/${fed}`) ? { status: 503, json: {} } : undefined);
    const found = await searchMarkets(client, index, 'fed decision odds', { reportCost: 3 });
    expect(found.text).toContain(`(${fed}, Economics) [1]: its prices could not be read just now (the exchange did not answer); ask again shortly.`);
    expect(found.text).not.toContain('no prices yet');
    intercept = undefined;
    const listed = await searchMarkets(client, index, 'which kalshi events do you have?', { reportCost: 3 });
    expect(listed.text).not.toContain('could not be read');
  });
});
