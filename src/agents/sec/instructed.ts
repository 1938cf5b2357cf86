import type { SecLibrary } from '../../data/sec/library.js';
import type { SecQuestion } from '../../data/sec/question.js';
import { formInstructed } from '../instructions.js';
import type { AgentEvent } from '../types.js';
import { MAX_COMPANIES } from './plan.js';
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
 * plain answer. Null (answer as usual) when the instructions ask no form, or the question is not
 * one of plain figures all found (a company not covered or guessed from a misspelling, a figure not
 * in the filings, a "why" or a verdict asked: the plain answer says what the form would leave out).
 */
export async function inInstructedForm(lib: SecLibrary, question: SecQuestion | null, instructions: string | null, asked: string): Promise<AgentEvent[] | null> {
  const instructed = formInstructed(instructions);
  if (!instructed || !question?.companies.length || !question.metrics.length) return null;
  if (question.companies.some((c) => c.status !== 'found' || c.fuzzy) || question.unknownFigures.length || question.companies.length > MAX_COMPANIES) return null;
  if (WHY.test(asked) || QUALITY_ASKED.test(asked)) return null;
  return restated(lib, question, { form: AS_SEC[instructed.form], rest: '', one: instructed.one });
}
