import type { SecLibrary } from '../../data/sec/library.js';
import { METRICS } from '../../data/sec/metrics.js';
import { shortName } from '../../data/sec/names.js';
import type { SecQuestion } from '../../data/sec/question.js';
import type { AgentEvent } from '../types.js';

/**
 * A breakdown of a company's figures by segment, product, region or customer ("break it down by
 * segment or product", "split that by region", "what's the product mix?", "Apple revenue by segment").
 * Its words ("break", "split", "product") are no figures: the answer says what such a breakdown is
 * not read from, and what there is instead.
 */
const DIMENSION = String.raw`(?:segments?|products?|product lines?|regions?|regional|geograph(?:y|ies|ic(?:al)?)|countr(?:y|ies)|business(?:es| lines?| units?| segments?)?|divisions?|categor(?:y|ies)|lines? of business|customers?|end markets?)`;
export const BREAKDOWN_ASKED = new RegExp(
  String.raw`\b(?:break(?:ing|s)?\b[^?]{0,30}\bdown|breakdown|broken\s+down|split(?:ting)?|divided|grouped|by|per|across|each)\s+(?:(?:the|its|their|each|every)\s+)?${DIMENSION}\b|\b(?:product|segment|geographic|regional|revenue|sales|business)\s+(?:mix|breakdown|split)\b|\bsegment(?:al)?\s+(?:revenue|sales|results|breakdown|data|reporting|information|figures|margins?|profits?|income)\b`,
  'i',
);

/** The note for each company of the question, with the figures it does report. */
export async function breakdownNote(lib: SecLibrary, question: SecQuestion): Promise<string> {
  const lines = ['Breakdowns by segment, product or region are not in the XBRL company facts this service reads: companies give them in the notes to their financial statements (segment information), and I read only their company-wide figures.'];
  for (const mention of question.companies) {
    if (mention.status !== 'found') continue;
    const fin = (await lib.profile(mention.company)).financials;
    const reported = fin ? METRICS.filter((m) => fin.reports(m.id)).map((m) => m.label) : [];
    if (reported.length) lines.push(`What I have for ${shortName(mention.company.name)}, company-wide: ${reported.join(', ')}.`);
  }
  return lines.join('\n');
}

/**
 * The note, then the company-wide figures the question carries from before ("Apple revenue Q3 2024"
 * when the breakdown was asked of it), answered as usual; the note alone when it carries none.
 */
export async function* answerBreakdown(lib: SecLibrary, question: SecQuestion, answer: (q: SecQuestion) => AsyncGenerator<AgentEvent>): AsyncGenerator<AgentEvent> {
  const note = await breakdownNote(lib, question);
  if (!question.metrics.length) {
    const data = lib.dataNote();
    yield { type: 'text', delta: `${note}\n${data ? `\n_${data}_\n` : ''}` };
    return yield { type: 'done' };
  }
  yield { type: 'text', delta: `${note.split('\n')[0]} The company-wide figures:\n\n` };
  yield* answer({ ...question, text: '', unknownFigures: [] });
}
