import type { SecLibrary } from '../../data/sec/library.js';
import { KEY_METRICS, type SecQuestion } from '../../data/sec/question.js';
import { askedByCaller } from '../instructed.js';
import { formInstructed } from '../instructions.js';
import { ONE_WORD, isYesNoQuestion, yesNoAsked } from '../yes-no.js';
import type { AgentEvent, AgentRequest } from '../types.js';
import { ADVICE, MAX_COMPANIES } from './plan.js';
import { restated, type Form } from './restate.js';
import { QUALITY_ASKED, WHY } from './write.js';

/** The SEC agent's form for each form instructions can ask. */
const AS_SEC: Record<NonNullable<ReturnType<typeof formInstructed>>['form'], Form> = {
  sentence: 'sentence',
  line: 'line',
  number: 'number',
  table: 'table',
  bullets: 'bullets',
  simple: 'simple',
};

/**
 * A question's figures in the form the instructions ask ("Answer in one sentence.", "Reply with just
 * the number."), as if the question had asked it: the same figures, periods and citations as the
 * plain answer. Null (answer as usual) when the instructions ask no form, the request is not the
 * caller's, or the question is not one of plain figures all found (a company not covered or
 * guessed from a misspelling, a figure not in the filings, a "why" or a verdict asked: the plain
 * answer says what the form would leave out).
 */
export async function inInstructedForm(lib: SecLibrary, question: SecQuestion | null, request: AgentRequest, asked: string): Promise<AgentEvent[] | null> {
  // (An earlier turn answered again, to show its working or restate it, or a side of a question
  // the router answers with others, is answered as it was: the form is for the caller's answer.)
  const instructed = askedByCaller(request) ? formInstructed(request.instructions) : null;
  if (!instructed || !question?.companies.length) return null;
  // ("Answer in one word." of a yes-or-no question asks its verdict, which the plain answer gives: see yes-no.ts.)
  // (So does "Answer yes or no, then one sentence why.": the verdict comes from the plain answer.)
  if ((ONE_WORD.test(request.instructions ?? '') || yesNoAsked(request.instructions)) && isYesNoQuestion(asked)) return null;
  // ("How did Apple do in fiscal 2024?" names no figure: its key figures, in the form asked, as the plain answer gives them in a table.)
  if (!question.metrics.length) {
    if (question.unknownFigures.length || ADVICE.test(asked)) return null;
    question = { ...question, metrics: [...KEY_METRICS] };
  }
  if (question.companies.some((c) => c.status !== 'found' || c.fuzzy) || question.unknownFigures.length || question.companies.length > MAX_COMPANIES) return null;
  if (WHY.test(asked) || QUALITY_ASKED.test(asked)) return null;
  return restated(lib, question, { form: AS_SEC[instructed.form], rest: '', one: instructed.one, ...(instructed.count ? { count: instructed.count } : {}), ...(instructed.plain ? { plain: true } : {}) });
}
