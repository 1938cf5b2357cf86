import type { SecLibrary } from '../../data/sec/library.js';
import type { SecQuestion } from '../../data/sec/question.js';
import type { AgentEvent } from '../types.js';

/**
 * The 10-Q of a fourth quarter, asked for or set against the 10-K ("what's the difference between the
 * 10-Q and 10-K numbers for Apple Q4?", "where's the Q4 10-Q?"): there is none, and the quarter is
 * the year less the nine months.
 */
export const FOURTH_QUARTER_10Q_ASKED = /^(?=[^]*\b(?:f?q4|4q|fourth[- ]quarter|4th[- ]quarter)\b)(?=[^]*\b10-?qs?\b)/i;

const NO_Q4_10Q =
  'There is no 10-Q for a fourth quarter: a company files a 10-Q for each of its first three fiscal quarters, and its 10-K covers the whole fiscal year instead. So no filing gives the fourth quarter on its own, and there are no 10-Q and 10-K numbers of it to set side by side: the fourth quarter is the 10-K\'s fiscal year less the nine months to the end of the third quarter, as the Q3 10-Q gives them.';

/**
 * The note, then the fourth quarter of the figures discussed, derived that way and cited to both
 * filings; the note and how to ask alone when no figure is in the thread.
 */
export async function* answerFourthQuarter(lib: SecLibrary, question: SecQuestion, answer: (q: SecQuestion) => AsyncGenerator<AgentEvent>): AsyncGenerator<AgentEvent> {
  if (!question.metrics.length) {
    const data = lib.dataNote();
    yield { type: 'text', delta: `${NO_Q4_10Q} Ask for a figure of the fourth quarter (“Apple revenue Q4 2024”) for it, derived that way and cited to both filings.\n${data ? `\n_${data}_\n` : ''}` };
    return yield { type: 'done' };
  }
  const period = question.period?.kind === 'fiscalQuarter' && question.period.q === 4 ? question.period : { kind: 'fiscalQuarter' as const, q: 4 as const, fy: null };
  yield { type: 'text', delta: `${NO_Q4_10Q} Here it is for the figures discussed:\n\n` };
  // (Its words, "why is there no Q4 10-Q?", are about the filings, not the figure: the figure is answered as plainly asked.)
  yield* answer({ ...question, text: '', period, comparison: null, versus: null, unknownFigures: [] });
}
