import type { Core } from '../../app.js';
import { secLibrary } from '../../data/sec/index.js';
import { parseConversation } from '../../data/sec/question.js';
import { answerSecQuestion } from '../sec/agent.js';
import type { Agent, AgentEvent, AgentRequest } from '../types.js';
import { answerTables, asksTotal, movedSpan, spanOf, tabulable } from './table.js';

export { spanOf, type Span } from './table.js';

export const FINANCIALS_AGENT_ID = 'svc-financials-agent';

/**
 * svc-financials-agent: several periods of a company's figures as a table, with growth rates,
 * every column cited to the filing pages it was read from. Questions about one period are
 * answered by the SEC agent's writer; companies it cannot resolve, and figures it does not know
 * ("EBITDA for the last 8 quarters"), are explained the same way.
 */
export function financialsAgent(core: Core): Agent {
  const lib = secLibrary(core);
  return {
    id: FINANCIALS_AGENT_ID,
    description:
      'Multi-period tables from SEC XBRL facts ("Apple revenue and net income for the last 8 quarters"), by fiscal quarter or year, with year-over-year and quarter-over-quarter growth; every column cites the filing pages through signed PDF links.',
    async *run(req: AgentRequest): AsyncGenerator<AgentEvent> {
      const index = await lib.companyIndex();
      const question = parseConversation(req.messages, index);
      const users = req.messages.filter((m) => m.role === 'user').map((m) => m.content);
      const last = users.at(-1) ?? '';
      const own = spanOf(last);
      const earlier = own ? null : ([...users.slice(0, -1)].reverse().map(spanOf).find((s) => s) ?? null);
      // "and the year before?" after a table: the same span moved. A question naming a period of its
      // own ("Microsoft net income FY2023") is that period, not the earlier table's.
      const moved = earlier ? movedSpan(earlier, last) : null;
      const found = own ?? moved ?? (question?.stated.period ? null : earlier);
      // "combined?": the same periods, added up.
      const span = found && !found.total && asksTotal(last) ? { ...found, total: true } : found;
      if (!tabulable(question) || !span) {
        yield* answerSecQuestion(lib, question);
        return;
      }
      yield* answerTables(lib, question, span);
    },
  };
}
