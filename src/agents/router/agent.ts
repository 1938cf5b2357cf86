import type { Logger } from 'pino';
import type { KalshiClient } from '../../data/kalshi/client.js';
import { confirmEventAddress, eventPageUrl, parseEventUrl } from '../../data/kalshi/url.js';
import type { ReportStore } from '../../reports/store.js';
import { classifyWithLlm, rewrite } from '../llm/writer.js';
import type { Llm } from '../llm/llm.js';
import { searchMarkets } from '../markets-search/agent.js';
import type { OpenEventsIndex } from '../markets-search/index.js';
import { liveSummary } from '../prediction-markets/summary.js';
import type { Agent, AgentEvent, AgentRequest, Answer, Citation, Usage } from '../types.js';
import { classify, type Route } from './classify.js';

export const ROUTER_ID = 'svc-agent';

export const HELP_TEXT = `I answer financial research questions, with numbered sources. For example:

- **Company filings**: “What was Apple's revenue in Q3 2024?”, “Microsoft diluted EPS for fiscal 2024”, “Apple vs Microsoft net income, Q2 2024”, “and the quarter before?”. Figures come from SEC EDGAR filings and cite the filing page.
- **Several periods at once**: “Apple revenue and net income for the last 8 quarters”, with growth rates.
- **Prediction markets**: “What are the odds of a Fed cut in December?” finds the open Kalshi events and their current prices. Paste a Kalshi event address (https://kalshi.com/markets/…) for its research report: a stored report is free; \`svc-prediction-markets-agent\` generates a new one (3 credits, Plus plan or above).

Specialised models: \`svc-sec-agent\`, \`svc-financials-agent\`, \`svc-markets-search-agent\`, \`svc-prediction-markets-agent\` (with \`:cache\` and \`:refresh\`). GET /v1/models lists them all.
`;

const HELP: Answer = Object.freeze({ text: HELP_TEXT, citations: Object.freeze([]) });

export interface RouterOptions {
  sec: Agent;
  financials: Agent;
  kalshi: KalshiClient;
  reports: ReportStore;
  index: OpenEventsIndex;
  apiUrl: string;
  llm: Llm | null;
  log: Logger;
}

function* answer(whole: Answer, usage?: Usage | null): Generator<AgentEvent> {
  yield { type: 'answer', answer: whole };
  if (usage) yield { type: 'usage', usage };
  yield { type: 'done' };
}

/** A specialist's events, its upstream usage counting the router's own call to the model too. */
async function* withUsage(events: AsyncIterable<AgentEvent>, extra: Usage | null): AsyncGenerator<AgentEvent> {
  for await (const event of events) yield event.type === 'usage' && extra ? { type: 'usage', usage: addUsage(event.usage, extra)! } : event;
}

const addUsage = (a: Usage | null, b: Usage | null): Usage | null => (a && b ? { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens } : (a ?? b));

/**
 * svc-agent: the general market-intelligence agent. Sends each question to the specialist
 * that can answer it (see classify) and passes its answer on, citations included. It never
 * spends credits: a Kalshi address gets the stored report when there is one, otherwise a free
 * summary of live prices that names the model that generates a full report.
 */
export function routerAgent(o: RouterOptions): Agent {
  async function route(req: AgentRequest, question: string, rule: Route): Promise<{ route: Route; usage: Usage | null }> {
    if (!o.llm || rule.kind === 'kalshi_url') return { route: rule, usage: null };
    const asked = await classifyWithLlm(o.llm, question, req.messages.slice(0, -1), req.signal);
    if (!asked) return { route: rule, usage: null };
    return { route: { kind: asked.kind, reason: `the language model's reading (rules said ${rule.kind})` }, usage: asked.usage };
  }

  /** The router's own answers, phrased by the LLM when one is configured (grounded; see llm/writer). */
  async function* written(req: AgentRequest, question: string, text: string, citations: Citation[], usage: Usage | null): AsyncGenerator<AgentEvent> {
    if (!o.llm) return yield* answer({ text, citations }, usage);
    yield { type: 'progress', message: 'Writing the answer.' };
    const out = await rewrite(o.llm, question, { text, citations }, req.signal);
    if (out.ok) return yield* answer({ text: out.text, citations: out.citations }, addUsage(usage, out.usage));
    yield* answer({ text: `${text.replace(/\n*$/, '')}\n\n_Note: the language model could not write this answer (${out.why}), so the built-in writer did._\n`, citations }, null);
  }

  return {
    id: ROUTER_ID,
    description:
      'General market-intelligence agent: sends a question to the right specialist (SEC filings, multi-period financials, prediction-market odds, Kalshi event reports) and keeps its citations. Never spends credits.',
    async *run(req) {
      const question = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const rule = classify(question, req.messages.slice(0, -1));
      // Asking the language model takes a while: a stream opens first (response.in_progress goes out now).
      if (o.llm && rule.kind !== 'kalshi_url') yield { type: 'progress', message: 'Reading the question.' };
      const { route: r, usage } = await route(req, question, rule);
      o.log.debug({ route: r.kind, reason: r.reason, request: req.requestId }, 'routed');
      switch (r.kind) {
        case 'filings':
          yield* withUsage(o.sec.run(req), usage);
          return;
        case 'financials':
          yield* withUsage(o.financials.run(req), usage);
          return;
        case 'odds': {
          yield { type: 'progress', message: 'Searching the open Kalshi events.' };
          // A follow-up ("and of a hold?") is searched with the question it continues.
          const found = await searchMarkets(o.kalshi, o.index, rule.context ? `${rule.context} ${question}` : question);
          yield* written(req, question, found.text, found.citations, usage);
          return;
        }
        case 'kalshi_url': {
          const address = parseEventUrl(r.url!);
          const stored = await o.reports.latest(address.eventTicker);
          if (stored) {
            yield { type: 'meta', meta: { reportCache: 'hit', reportGeneratedAt: new Date(stored.generatedAt).toISOString() } };
            yield* answer(stored, null);
            return;
          }
          await confirmEventAddress(address, o.kalshi);
          yield { type: 'progress', message: `No stored report for ${address.eventTicker}; reading its live prices.` };
          const summary = await liveSummary(o.kalshi, address.eventTicker, eventPageUrl(address), o.apiUrl);
          yield* written(req, question, summary.text, summary.citations, usage);
          return;
        }
        default:
          // Help is fixed text with no sources: nothing for the model to phrase.
          yield* answer(HELP, null);
      }
    },
  };
}
