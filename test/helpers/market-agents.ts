import type { Core } from '../../src/app.js';
import { marketAgentsFromCore, predictionMarketsFromCore } from '../../src/agents/index.js';
import type { Agent } from '../../src/agents/types.js';
import { KalshiClient } from '../../src/data/kalshi/client.js';
import { WORLD_NOW } from '../fixtures/kalshi-world.js';

/**
 * The Kalshi-facing agents (router, search, prediction markets) with their clock pinned to the
 * synthetic exchange's "now", so prices, moves and "as of" times are those of the fake world.
 */
export function pinnedMarketAgents(core: Core): Agent[] {
  const kalshi = new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000));
  const { router, search } = marketAgentsFromCore(core, kalshi);
  return [router, search, predictionMarketsFromCore(core, kalshi, router)];
}
