import type { Answer, Turn } from '../types.js';
import { utcMinute } from '../citations.js';

// Questions about svc itself rather than about a company or a market: whether its answers are
// advice, how fresh its data is and where it comes from, what it is. Each is answered from what
// this server actually runs on (live sources or the snapshots it was started with), never from
// words a search would read as a company ("advice") or an event ("weather").

/** "Is this financial advice?", "are you a financial advisor?", "can I trust your numbers?". */
const ADVICE_META =
  /\b(?:is|are|was) (?:this|that|these|those|it|your (?:answers?|reports?|numbers|figures)|svc)\b[^?.!]{0,20}\b(?:financial|investment|trading|tax|legal) advice\b|\bare you (?:a |an |my )?(?:licensed |registered |certified )?(?:financial |investment )?(?:advis[eo]r|planner|broker|fiduciary)\b|\bcan i (?:trust|rely on) (?:this|you|your (?:answers?|reports?|numbers|figures|data))\b/i;

/** "How fresh is your data?", "are these prices live?", "where does your data come from?". */
const FRESHNESS =
  /\bhow (?:fresh|current|recent|up[- ]to[- ]date|old|stale|live) (?:is|are) (?:your|the|this|these|that) (?:data|prices|quotes|odds|figures|numbers|info\w*)\b|\bwhen (?:was|were|is|are) (?:your|the|this|these) (?:data|prices|quotes|figures|numbers|info\w*) (?:last )?(?:updated|refreshed|recorded|pulled|fetched|from)\b|\b(?:is|are) (?:this|it|that|your data|the data|the (?:prices|quotes|odds|figures|numbers)|these (?:prices|quotes|odds|figures|numbers)|your (?:prices|quotes|odds|figures|numbers)) (?:live|real[- ]?time|delayed|current|up[- ]to[- ]date|stale|old)\b|\bwhere (?:does|do) (?:your|the|this|these) (?:data|numbers|figures|prices|odds|info\w*) come from\b|\bwhat (?:are |is )?(?:your|the) (?:data )?sources?(?: of (?:your|the) data)?\s*\??\s*$|\bhow (?:often|frequently) (?:is|are|do you) (?:your |the )?(?:data|prices|quotes|figures)?\s*(?:updated|refreshed|update|refresh)\b/i;

/** "Who made you?", "what are you?", "are you ChatGPT?". */
const IDENTITY = /^\W*(?:who (?:made|built|created|runs|operates|owns|are) you|what are you|who am i talking to|are you (?:an? )?(?:ai|bot|robot|human|person|real person|chatgpt|gpt|llm|language model))\b[^?]{0,20}\??\s*$/i;

export interface AboutSources {
  /** Kalshi's data: read live, or from a snapshot recorded at a time. */
  kalshi: { mode: 'live' | 'snapshot'; recordedAt: Date | null; note?: string };
  /** SEC EDGAR's data: read live, or from a snapshot recorded at a time (the shipped demo's figures are illustrative). */
  sec: { mode: 'live' | 'snapshot'; recordedAt: Date | null; demo: boolean };
  /** How long the list of open Kalshi events is kept before it is read again (ms). */
  searchRefreshMs: number;
  /** Whether a language model phrases answers (SVC_LLM_*). */
  llm: boolean;
}

/** What the question asks about svc itself, if that is what it asks. */
export function aboutAsked(question: string): 'advice' | 'freshness' | 'identity' | null {
  if (ADVICE_META.test(question)) return 'advice';
  if (FRESHNESS.test(question)) return 'freshness';
  if (IDENTITY.test(question)) return 'identity';
  return null;
}

export function aboutAnswer(kind: 'advice' | 'freshness' | 'identity', sources: AboutSources): Answer {
  switch (kind) {
    case 'advice':
      return {
        text:
          'No. svc gives research, not investment advice: company figures read from SEC filings and prices read from Kalshi, each with its source numbered so you can check it, and for a Kalshi event a research report with a model probability beside the market’s. ' +
          'It knows nothing of your finances, goals or risk tolerance and does not tell you what to buy or sell; a model probability is an estimate that can be wrong. ' +
          'Weigh the answers yourself, or with a licensed adviser.\n\n' +
          dataLines(sources) +
          '\n',
        citations: [],
      };
    case 'freshness': {
      const live = sources.kalshi.mode === 'live' && sources.sec.mode === 'live';
      const offline = sources.kalshi.mode === 'snapshot' && sources.sec.mode === 'snapshot';
      const lead = live ? 'Live: this server reads its data from the sources when you ask.' : offline ? 'Not live: this server answers offline, from recorded snapshots.' : 'Partly live: this server reads one source live and the other from a recorded snapshot.';
      return { text: `${lead}\n\n${dataLines(sources)}\n`, citations: [] };
    }
    case 'identity':
      return {
        text:
          `I am \`svc-agent\`, the router of svc, a self-hosted Agent Research API run by whoever operates this server: I send each question to a specialist (SEC filings, multi-period financials, prediction-market odds, Kalshi event reports) and keep its numbered sources. ` +
          (sources.llm
            ? 'A language model helps route questions and phrase answers here, but every figure and price comes from the data and is checked against it.'
            : 'No language model writes these answers here: they are composed from the data itself.') +
          '\n\n' +
          dataLines(sources) +
          '\n',
        citations: [],
      };
  }
}

/** Where each kind of answer's data comes from and how fresh it is, on this server. */
function dataLines(sources: AboutSources): string {
  const { kalshi } = sources;
  const kalshiLine =
    kalshi.mode === 'live'
      ? `- **Prediction markets**: prices are read live from Kalshi's public Trade API when you ask (the list of open events a search looks through is read again every ${duration(sources.searchRefreshMs)}); every answer says the time its prices are as of.`
      : `- **Prediction markets**: prices come from a snapshot of Kalshi recorded ${kalshi.recordedAt ? utcMinute(kalshi.recordedAt) : 'at an unknown time'}${kalshi.note ? ` (${kalshi.note})` : ''}: offline, not live prices.`;
  const { sec } = sources;
  const secLine =
    sec.mode === 'snapshot'
      ? `- **Company figures**: from a ${sec.demo ? 'demo ' : ''}snapshot of SEC EDGAR recorded ${sec.recordedAt?.toISOString().slice(0, 10) ?? 'at an unknown date'}${sec.demo ? ' (illustrative figures)' : ''}: offline, so filings made since are not in it; each figure names the filing and page it comes from.`
      : "- **Company figures**: read from SEC EDGAR (the companies' XBRL financial data and their filings) when you ask, so as fresh as each company's latest 10-Q or 10-K; each figure names the filing and page it comes from.";
  const reportLine =
    '- **Research reports**: a stored report (`svc-prediction-markets-agent:cache`) is as of when it was generated, which its header says; `svc-prediction-markets-agent` or `:refresh` generates a new one on current prices.';
  return [kalshiLine, secLine, reportLine].join('\n');
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} seconds`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} minutes` : `${Math.round(m / 60)} hours`;
}

/** How each answer about svc begins: such an answer, and the question it answered, are no topic a later turn follows up. */
const ABOUT_ANSWER = /^(?:No\. svc gives research, not investment advice|(?:Live|Not live|Partly live): this server |I am `svc-agent`, the router of svc)/;

/**
 * The conversation without its exchanges about svc itself: "what's the edge on hike?" after a
 * report, then "is this financial advice?", follows up the report, not the answer about svc (whose
 * words of SEC filings read as a thread on company figures).
 */
export function withoutAboutTurns(messages: Turn[]): Turn[] {
  const dropped = new Set<number>();
  messages.forEach((t, i) => {
    if (t.role !== 'assistant' || !ABOUT_ANSWER.test(t.content.trimStart())) return;
    dropped.add(i);
    if (messages[i - 1]?.role === 'user') dropped.add(i - 1);
  });
  return dropped.size ? messages.filter((_, i) => !dropped.has(i)) : messages;
}
