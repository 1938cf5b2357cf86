import type { Core } from '../app.js';
import { KalshiClient } from '../data/kalshi/client.js';
import { predictionMarketsAgent } from './prediction-markets/agent.js';
import { secAgent } from './sec/agent.js';
import { secLibrary } from '../data/sec/index.js';
import { financialsAgent } from './financials/agent.js';
import { llmFrom } from './llm/llm.js';
import { writtenWithLlm } from './llm/writer.js';
import { marketsSearchAgent } from './markets-search/agent.js';
import { OpenEventsIndex } from './markets-search/index.js';
import { routerAgent } from './router/agent.js';
import type { Agent } from './types.js';
import { withInstructions, type FormRestater, type QuestionForm } from './instructed.js';
import { oddsFormAsked, periodsFormAsked, periodsInstructed, reportFormAsked, restatedAsInstructed, shapeFormAsked } from './router/instructed.js';
import { restated } from './router/restate.js';

/** The prediction-markets agent over the core's services; `kalshi` may be replaced (tests pin its clock); `followUps` answers turns that continue a conversation about a report (svc-agent). */
export const predictionMarketsFromCore = (core: Core, kalshi = new KalshiClient(core.kalshi), followUps?: Agent) =>
  predictionMarketsAgent({
    followUps,
    kalshi,
    reports: core.reports,
    flights: core.flights,
    billing: core.billing,
    costCredits: core.config.billing.reportCostCredits,
    apiUrl: core.config.kalshi.apiUrl,
    log: core.log,
  });

/** The router and the markets-search agent over the core's services; `kalshi` may be replaced (tests pin its clock). */
export function marketAgentsFromCore(core: Core, kalshi = new KalshiClient(core.kalshi)) {
  const llm = llmFrom(core.config.llm);
  const written = (agent: Agent) => (llm ? writtenWithLlm(agent, llm) : agent);
  const index = new OpenEventsIndex(kalshi, core.config.search.refreshMs, core.log);
  const sec = written(secAgent(core));
  const financials = written(financialsAgent(core));
  const reportCost = core.config.billing.reportCostCredits;
  const router = routerAgent({ sec, financials, kalshi, reports: core.reports, index, apiUrl: core.config.kalshi.apiUrl, reportCost, llm, log: core.log, companies: () => secLibrary(core).companyIndex(), secOrigin: () => secLibrary(core).origin, searchRefreshMs: core.config.search.refreshMs });
  return { router, sec, financials, search: written(marketsSearchAgent({ client: kalshi, index, reportCost })) };
}

/** The agents every server runs, in the order GET /v1/models lists them. */
export function builtinAgents(core: Core): Agent[] {
  const kalshi = new KalshiClient(core.kalshi);
  const { router, sec, financials, search } = marketAgentsFromCore(core, kalshi);
  // What the instructions ask of the answer's form and language (agents/instructed.ts); the SEC and financials agents apply a form themselves.
  // A summary asked first: the router's answers summed up as their form restates them (a stored report by its own one-sentence summary), others as "summarize in one sentence" says them.
  const inOneSentence: FormRestater = (answer) => restated(answer, 'sentence');
  const summarise: FormRestater = async (answer, form, question) => (await restatedAsInstructed(answer, form, question)) ?? inOneSentence(answer, form, question);
  // A form asked in the question: of odds (the router), of a table of periods (every agent with company figures).
  // (And one sentence, plain words or bullets of the router's other answers: odds, a listing, a report.)
  const oddsOrPeriods: QuestionForm = (question, plain) => {
    const odds = oddsFormAsked(question);
    const periods = periodsFormAsked(question, plain);
    const shape = shapeFormAsked(question, plain);
    if (odds) return { form: odds.form, restate: (answer) => odds.restate(answer) ?? periods?.restate(answer) ?? null };
    if (periods) return { form: periods.form, restate: (answer) => periods.restate(answer) ?? shape?.restate(answer) ?? null };
    return shape;
  };
  return [
    withInstructions(router, restatedAsInstructed, summarise, oddsOrPeriods),
    withInstructions(sec, periodsInstructed, inOneSentence, periodsFormAsked),
    withInstructions(financials, periodsInstructed, inOneSentence, periodsFormAsked),
    withInstructions(search, restatedAsInstructed, summarise),
    withInstructions(predictionMarketsFromCore(core, kalshi, router), restatedAsInstructed, summarise, reportFormAsked),
  ];
}
