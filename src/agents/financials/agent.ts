import type { Core } from '../../app.js';
import { secLibrary } from '../../data/sec/index.js';
import { asksCoverage, clipped, comparedCompanies, parseWithInstructions } from '../../data/sec/question.js';
import { inInstructedForm } from '../sec/instructed.js';
import { formAsked } from '../sec/restate.js';
import { MAX_COMPANIES } from '../sec/plan.js';
import { acrossCovered, answerSec, answerSecQuestion, askedOfMarkets, askedOfSecAgent, coverageAnswer, currencyNote, said, sourcesAsked, sourcesOnly, threadTable, withComponents } from '../sec/agent.js';
import { askedBefore, whereSaid } from '../sec/where-said.js';
import type { Agent, AgentEvent, AgentRequest } from '../types.js';
import { answerTables, spanAsked, tabulable } from './table.js';
import { CHART_ASKED, withCharts } from './chart.js';

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
    run(req: AgentRequest): AsyncIterable<AgentEvent> {
      const asked = clipped([...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
      // "Can you chart it?": the table with its figures drawn as bars above it.
      // ("Show me where it says that": the pages of the answer before.)
      if (whereSaid(asked) && !sourcesAsked(asked)) return sourcesOnly(answer(askedBefore(req), clipped(askedBefore(req).messages.at(-1)?.content ?? '')));
      return sourcesAsked(asked) ? sourcesOnly(answer(req, asked)) : CHART_ASKED.test(asked) ? withCharts(answer(req, asked)) : answer(req, asked);
    },
  };

  async function* answer(req: AgentRequest, asked: string): AsyncGenerator<AgentEvent> {
    const index = await lib.companyIndex();
    if (asksCoverage(asked)) return yield* coverageAnswer(lib, index.size);
    // "Show your working", "break it down by product" after a table: as the SEC agent answers them.
    if (askedOfSecAgent(asked)) return yield* answerSec(lib, req);
    // "For all three", "every company": each company a snapshot holds.
    const question = withComponents(await acrossCovered(lib, parseWithInstructions(req.messages, req.instructions, index), asked, req.messages.slice(0, -1)), asked, () => parseWithInstructions(req.messages.slice(0, -1), req.instructions, index));
    const elsewhere = askedOfMarkets(asked, question);
    if (elsewhere) return yield* said(elsewhere);
    const currency = currencyNote(asked);
    if (currency) yield { type: 'text', delta: currency };
    // A question naming a period of its own ("Microsoft net income FY2023") is that period, not the earlier table's.
    const span = spanAsked(req.messages.filter((m) => m.role === 'user').map((m) => clipped(m.content)), question);
    if (!tabulable(question) || !span) {
      // "As a table" after figures asked over companies and periods in turn ("and Microsoft?", "what about the year before?"): each figure given, a row each.
      const thread = !span ? await threadTable(lib, req) : null;
      if (thread) return yield* thread;
      // "As a table" after companies asked one after another ("Apple's revenue?", "and Microsoft's?"): all of them, side by side.
      const before = question && !span && formAsked(asked)?.form === 'table' && !formAsked(asked)?.rest ? parseWithInstructions(req.messages.slice(0, -1), req.instructions, index) : null;
      // A form asked in the question with its figures ("Apple revenue for fiscal 2024 as a table", "…, explain like I'm 12"): one period's figures in it, as the SEC agent says them.
      if (!before && !currency && formAsked(asked)?.rest) return yield* answerSec(lib, req);
      // (The figures asked before, read without the words asking the form: "put it in a table" asks no figure called "put".)
      const tabled = before ? { ...before, companies: comparedCompanies(before).slice(0, MAX_COMPANIES) } : question;
      // "Answer in one sentence.", "Reply with just the number." in the instructions: one period's figures in that form, as the SEC agent says them.
      // (A table of several periods keeps its form, as the SEC agent's does: one sentence or one number would leave out most of it.)
      const shaped = formAsked(asked) ? null : await inInstructedForm(lib, tabled, req, asked);
      if (shaped) return yield* shaped;
      yield* answerSecQuestion(lib, tabled);
      return;
    }
    yield* answerTables(lib, question, span);
  }
}
