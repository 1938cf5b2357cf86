import type { SecLibrary } from '../../data/sec/library.js';
import type { MetricId } from '../../data/sec/metrics.js';
import { shortName } from '../../data/sec/names.js';
import type { SecQuestion } from '../../data/sec/question.js';
import type { AgentEvent } from '../types.js';
import { listed } from '../citations.js';

/**
 * The share count behind an EPS figure, asked of it ("how many shares is that based on?", "what
 * share count is that using?", "what's the denominator?"). Read only after an EPS answer.
 */
export const SHARES_BEHIND_ASKED =
  /\bhow many shares\b|\b(?:share count|number of shares|shares? number|count of shares)\b|\bshares?\b[^?]{0,30}\b(?:based on|behind|computed (?:on|with)|calculated (?:on|with)|divided by|used|using)\b|\bdenominator\b/i;

const EPS: readonly MetricId[] = ['dilutedEps', 'basicEps'];
const COUNTS: readonly MetricId[] = ['sharesOutstanding', 'dilutedShares'];

/**
 * Whether this turn asks the share count behind the EPS the turn before gave: the EPS was asked
 * there, and this turn names no figure other than a share count.
 */
export function sharesBehindAsked(asked: string, question: SecQuestion | null, before: SecQuestion | null): boolean {
  if (!question || !before || !SHARES_BEHIND_ASKED.test(asked) || !before.metrics.some((id) => EPS.includes(id))) return false;
  // ("How many shares outstanding?" asks that balance, not the count behind the EPS.)
  if (/\boutstanding\b/i.test(asked) && !/\b(?:based|behind|computed|calculated|divided|used|using|denominator)\b/i.test(asked)) return false;
  return !question.stated.metrics || question.metrics.every((id) => COUNTS.includes(id));
}

/**
 * "How many shares is that based on?" after EPS: diluted EPS divides net income by the
 * weighted-average diluted share count, given when the company's facts hold it. When they do not,
 * that is said plainly, and the count there is instead, shares outstanding at the period's end,
 * is given labelled as such (another count: one day's, not an average, with no dilution).
 */
export async function* answerSharesBehind(lib: SecLibrary, question: SecQuestion, answer: (q: SecQuestion) => AsyncGenerator<AgentEvent>): AsyncGenerator<AgentEvent> {
  const byCompany: { cik: number; metrics: MetricId[] }[] = [];
  const [withCount, without, neither]: [string[], string[], string[]] = [[], [], []];
  for (const mention of question.companies) {
    if (mention.status !== 'found') continue;
    const fin = (await lib.profile(mention.company)).financials;
    const name = `${shortName(mention.company.name)}'s`;
    const count: MetricId | null = fin?.reports('dilutedShares') ? 'dilutedShares' : fin?.reports('sharesOutstanding') ? 'sharesOutstanding' : null;
    if (count) byCompany.push({ cik: mention.company.cik, metrics: [count] });
    (count === 'dilutedShares' ? withCount : count ? without : neither).push(name);
  }
  const lines: string[] = [];
  if (withCount.length) lines.push(`${listed(withCount)} diluted EPS is net income divided by the weighted-average diluted share count, filed beside it:`);
  if (without.length) {
    lines.push(
      `The weighted-average diluted share count that ${listed(without)} EPS is computed on (XBRL us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding) is not in the data, so the exact count behind the EPS cannot be given. ` +
        `What the data has is the number of shares outstanding at the period's end: a different count (taken on one day, not averaged over the period, and without the dilutive shares), given here labelled as such.`,
    );
  }
  // (A company with neither count: said plainly, no other figure in its place.)
  if (neither.length) lines.push(`Neither the weighted-average diluted share count that ${listed(neither)} EPS is computed on nor a count of shares outstanding is in the data, so the number of shares behind it cannot be given.`);
  if (!byCompany.length) {
    const data = lib.dataNote();
    yield { type: 'text', delta: `${lines.join('\n\n')}\n${data ? `\n_${data}_\n` : ''}` };
    return yield { type: 'done' };
  }
  yield { type: 'text', delta: `${lines.join('\n\n')}\n\n` };
  const metrics = [...new Set(byCompany.flatMap((c) => c.metrics))];
  const answered = question.companies.filter((c) => c.status !== 'found' || byCompany.some((b) => b.cik === c.company.cik));
  yield* answer({ ...question, companies: answered, text: '', metrics, metricsByCompany: byCompany.length > 1 ? byCompany : null, ratios: [], unknownFigures: [], margin: false, ttm: false, comparison: null, versus: null, shareOf: false });
}
