import type { Core } from '../../../src/app.js';
import type { Agent, AgentEvent, AgentRequest, Citation } from '../../../src/agents/types.js';
import { SvcError } from '../../../src/errors.js';
import { answer, scriptedAgent } from '../../helpers/scripted-agent.js';

/**
 * Scripted stand-ins for svc-agent and svc-prediction-markets-agent (registered under the real
 * ids, replacing the built-ins), driven by what the question or link says.
 */

export const CITATIONS: Citation[] = [
  { order: 1, name: 'Fed statement, December', url: 'https://www.federalreserve.gov/newsevents/pressreleases/monetary20251210a.htm' },
  { order: 2, name: 'Kalshi market page', url: 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec' },
];

/** A long Markdown report of about `length` characters: headings, paragraphs with links and markers, tables and code. */
export function longReport(length: number, title = 'Report'): string {
  const blocks: string[] = [`# ${title}`];
  let i = 0;
  while (blocks.join('\n\n').length < length) {
    i++;
    switch (i % 5) {
      case 0:
        blocks.push(['| Outcome | Model | Market | Spread |', '|---|---:|---:|---:|', ...Array.from({ length: 6 }, (_, r) => `| Outcome ${i}.${r} | ${(r * 7) % 100}% | ${(r * 11) % 100}% | ${r}¢ |`)].join('\n'));
        break;
      case 3:
        blocks.push(['```python', ...Array.from({ length: 12 }, (_, r) => `probability_${i}_${r} = model.estimate(event="KXFED-${i}", horizon=${r})  # note ${r}`), '```'].join('\n'));
        break;
      default:
        blocks.push(
          `## Section ${i}\n\nParagraph ${i}: the market prices a ${i % 100}% chance while our model says ${(i * 3) % 100}% [1]. ` +
            `See [the statement for section ${i}](https://example.com/docs/${i}?page=${i}&view=full) and the **key claim** that *rates* move [2]. `.repeat(4) +
            `Words words words, closing sentence number ${i}.`,
        );
    }
  }
  return blocks.join('\n\n');
}

/** Text fed to a waiting agent by the test, piece by piece. */
export class Feed {
  #queue: Array<AgentEvent> = [];
  #wake: (() => void) | null = null;

  push(...events: AgentEvent[]): void {
    this.#queue.push(...events);
    this.#wake?.();
    this.#wake = null;
  }

  text(delta: string): void {
    this.push({ type: 'text', delta });
  }

  done(citations: Citation[] = []): void {
    this.push(...citations.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' });
  }

  async *events(): AsyncGenerator<AgentEvent> {
    for (;;) {
      while (!this.#queue.length) await new Promise<void>((r) => (this.#wake = r));
      const event = this.#queue.shift()!;
      yield event;
      if (event.type === 'done' || event.type === 'failed') return;
    }
  }
}

export interface AgentLog {
  /** Every request the agents received, in order. */
  requests: AgentRequest[];
  /** The feed for questions starting with "feed:". */
  feed: Feed;
  /** The feeds for questions starting with "feed <name>:", one per name (answers streaming at once). */
  feeds: Map<string, Feed>;
}

/** The feed of questions starting with "feed <name>:" (made on first use, by the test or the agent). */
export function namedFeed(log: AgentLog, name: string): Feed {
  let feed = log.feeds.get(name);
  if (!feed) log.feeds.set(name, (feed = new Feed()));
  return feed;
}

function reportFor(url: string): AgentEvent[] {
  if (url.includes('free-plan')) throw new SvcError('permission', { code: 'plan_required', message: 'Generating a new report needs the Plus, Pro or Enterprise plan.' });
  if (url.includes('no-credits')) throw new SvcError('payment_required', { code: 'insufficient_credits', message: 'Not enough credits: a new report costs 3.' });
  if (url.includes('unknown-event')) throw new SvcError('not_found', { code: 'event_not_found', message: 'No Kalshi event KXNOPE.' });
  if (!/^https:\/\/kalshi\.com\/markets\//.test(url)) throw new SvcError('invalid_request', { code: 'invalid_event_url', message: 'input must be a Kalshi event URL.', param: 'input' });
  const slug = url.split('/')[5] ?? '';
  const size = /long-(\d+)/.exec(slug)?.[1];
  const text = size ? longReport(Number(size), `Report for ${slug}`) : `# Report for ${slug}\n\n| Outcome | Model | Market |\n|---|---:|---:|\n| Yes | 62% | 55% |\n| No | 38% | 45% |\n\nThe market underprices *Yes* [1][2].`;
  return answer(text, CITATIONS, 97);
}

export function researchAgents(log: AgentLog): Agent[] {
  return [
    scriptedAgent('svc-agent', (req) => {
      log.requests.push(req);
      const q = req.messages.at(-1)!.content;
      if (q.startsWith('feed:')) return log.feed.events();
      const named = /^feed (\S+):/.exec(q);
      if (named) return namedFeed(log, named[1]!).events();
      if (q.includes('long answer')) return answer(longReport(15_000, 'Long answer'), CITATIONS, 211);
      if (q.includes('break')) {
        return (async function* (): AsyncGenerator<AgentEvent> {
          yield { type: 'text', delta: 'The first half of the answer' };
          throw new SvcError('upstream', { code: 'upstream_error', message: 'The SEC did not answer.' });
        })();
      }
      return answer(`Answer to "${q}" [1].`, CITATIONS.slice(0, 1));
    }),
    scriptedAgent('svc-prediction-markets-agent', (req) => {
      log.requests.push(req);
      return reportFor(req.messages.at(-1)!.content);
    }),
  ];
}

/** The report agent paying through real billing, like report generation: hold 3 credits, capture on delivery. */
export function paidReportAgent(core: Core, log: AgentLog): Agent {
  return scriptedAgent('svc-prediction-markets-agent', async function* (req): AsyncGenerator<AgentEvent> {
    log.requests.push(req);
    const jobId = `${req.caller.accountId}:${req.idempotencyKey ?? req.requestId}`;
    const { hold, remaining } = await core.billing.hold({ accountId: req.caller.accountId, amount: 3, jobId, what: 'Generating a test report', requestId: req.requestId });
    yield { type: 'meta', meta: { credits: { charged: 3, remaining } } };
    const events = reportFor(req.messages.at(-1)!.content);
    yield* events.slice(0, -1);
    await core.billing.capture(hold.id, req.requestId);
    yield { type: 'done' };
  });
}

export function newAgentLog(): AgentLog {
  return { requests: [], feed: new Feed(), feeds: new Map() };
}
