import type { Core } from '../app.js';
import { KalshiClient } from '../data/kalshi/client.js';
import { predictionMarketsAgent } from './prediction-markets/agent.js';
import { secAgent } from './sec/agent.js';
import type { Agent } from './types.js';

/** The prediction-markets agent over the core's services; `kalshi` may be replaced (tests pin its clock). */
export const predictionMarketsFromCore = (core: Core, kalshi = new KalshiClient(core.kalshi)) =>
  predictionMarketsAgent({
    kalshi,
    reports: core.reports,
    flights: core.flights,
    billing: core.billing,
    costCredits: core.config.billing.reportCostCredits,
    apiUrl: core.config.kalshi.apiUrl,
    log: core.log,
  });

/** The agents every server runs, in the order GET /v1/models lists them. */
export function builtinAgents(core: Core): Agent[] {
  return [secAgent(core), predictionMarketsFromCore(core)];
}
