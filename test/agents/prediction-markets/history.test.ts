import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledObservations } from '../../../src/agents/prediction-markets/history.js';
import { KalshiClient } from '../../../src/data/kalshi/client.js';
import { LiveSource } from '../../../src/data/source.js';
import { WORLD_NOW } from '../../fixtures/kalshi-world.js';
import { startFakeKalshi } from '../../helpers/fake-kalshi.js';

let fake: Awaited<ReturnType<typeof startFakeKalshi>>;
let client: KalshiClient;

beforeAll(async () => {
  fake = await startFakeKalshi();
  client = new KalshiClient(new LiveSource({ name: 'Kalshi', baseUrl: fake.apiUrl, requestsPerSecond: 1000, timeoutMs: 5000, retries: 0 }), () => new Date(WORLD_NOW * 1000));
});
afterAll(() => fake.close());

describe('settledObservations', () => {
  it("takes whether outcomes exclude each other from the event, not from how many of them won", async () => {
    const ladder = await settledObservations(client, 'KXCPIYOY', { hours: 24, maxEvents: 50 });
    const events = [...ladder.exclusive.keys()];
    expect(events.length).toBeGreaterThan(2);
    // A strike ladder is never normalised, even in a month where exactly one strike resolved YES.
    const oneWinner = events.filter((e) => ladder.observations.filter((o) => o.eventTicker === e && o.outcome === 1).length === 1);
    expect(oneWinner.length).toBeGreaterThan(0);
    for (const e of events) expect(ladder.exclusive.get(e), e).toBe(false);
    for (const e of events) expect(ladder.exclusive.get(e)).toBe(fake.world.events.get(e)?.mutually_exclusive ?? false);

    const exclusive = await settledObservations(client, 'KXFEDDECISION', { hours: 24, maxEvents: 50 });
    expect([...exclusive.exclusive.values()].every(Boolean)).toBe(true);
  });

  it('when the exchange serves none of the settled events (a snapshot), takes the flag of the series\' open events', async () => {
    const open = new Set(fake.world.openEvents);
    const settledGone = await startFakeKalshi({ intercept: (req) => (/^\/trade-api\/v2\/events\/[^/]+$/.test(req.path) && !open.has(req.path.split('/').pop()!) ? { status: 404, json: { error: { code: 'not_found' } } } : undefined) });
    try {
      const gone = new KalshiClient(new LiveSource({ name: 'Kalshi', baseUrl: settledGone.apiUrl, requestsPerSecond: 1000, timeoutMs: 5000, retries: 0 }), () => new Date(WORLD_NOW * 1000));
      const fed = await settledObservations(gone, 'KXFEDDECISION', { hours: 24, maxEvents: 50 });
      expect(fed.exclusive.size).toBeGreaterThan(2);
      expect([...fed.exclusive.values()].every(Boolean)).toBe(true);
      const ladder = await settledObservations(gone, 'KXCPIYOY', { hours: 24, maxEvents: 50 });
      expect([...ladder.exclusive.values()].some(Boolean)).toBe(false);
    } finally {
      await settledGone.close();
    }
  });
});
