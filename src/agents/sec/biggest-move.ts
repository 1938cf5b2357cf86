import type { CompanyFinancials, MetricValue } from '../../data/sec/facts.js';
import type { SecLibrary } from '../../data/sec/library.js';
import { metricById, type MetricId } from '../../data/sec/metrics.js';
import { possessive, shortName } from '../../data/sec/names.js';
import type { CompanyRef } from '../../data/sec/types.js';
import type { AgentEvent } from '../types.js';
import { SourceList } from '../citations.js';
import { capitalise, formatAmount, formatChange, periodWithEnd } from './format.js';

/**
 * "Biggest QoQ jump?" (after a revenue answer, or "Microsoft's biggest sequential drop in net
 * income"): the largest move from one quarter to the next (or, asked year over year, from the same
 * quarter a year before) across every quarter the filings hold, with the quarter it ended in, the
 * figure, the change and both quarters cited.
 */
export const BIGGEST_MOVE = /\b(?:biggest|largest|greatest|highest|sharpest|steepest|strongest|worst|best|largest|max(?:imum)?|most)\s+(?:(?:qoq|q\/q|yoy|y\/y|quarter[- ](?:over|on|to)[- ]quarter|year[- ](?:over|on)[- ]year|sequential|quarterly|one[- ]quarter)\s+)?(?:jump|jumps|increase|rise|gain|growth|surge|spike|move|swing|change|drop|drops|decline|fall|decrease|plunge|slump)\b/i;
/** Asked between quarters one after the other, or a year apart. */
const SEQUENTIAL = /\b(?:qoq|q\/q|quarter[- ](?:over|on|to)[- ]quarter|sequential(?:ly)?|quarterly|one[- ]quarter|from one quarter to the next|in a (?:single )?quarter)\b/i;
const YEARLY = /\b(?:yoy|y\/y|year[- ](?:over|on)[- ]year)\b/i;
const DOWN = /\b(?:drops?|declines?|falls?|decreases?|plunges?|slumps?|worst)\b/i;

/** Whether a question asks this, and how: between consecutive quarters (1) or a year apart (4), up or down. */
export function biggestMoveAsked(text: string): { step: 1 | 4; down: boolean } | null {
  if (!BIGGEST_MOVE.test(text)) return null;
  const step = YEARLY.test(text) ? 4 : SEQUENTIAL.test(text) ? 1 : null;
  if (!step) return null;
  return { step, down: DOWN.test(text) };
}

interface Move {
  from: MetricValue;
  to: MetricValue;
  change: number;
  rate: number | null;
}

function movesOf(fin: CompanyFinancials, metric: MetricId, step: 1 | 4): Move[] {
  const quarters = fin.series(metric, 'quarter');
  const byEnd = new Map(quarters.map((v) => [v.period.end, v]));
  const out: Move[] = [];
  for (const to of quarters) {
    if (to.period.kind !== 'quarter') continue;
    const before = fin.calendar.shiftQuarter(to.period, -step);
    const from = before ? byEnd.get(before.end) : undefined;
    if (!from) continue;
    const change = to.value - from.value;
    out.push({ from, to, change, rate: from.value > 0 ? change / from.value : null });
  }
  return out;
}

export async function* answerBiggestMove(lib: SecLibrary, companies: readonly CompanyRef[], metrics: readonly MetricId[], asked: { step: 1 | 4; down: boolean }): AsyncGenerator<AgentEvent> {
  const sources = new SourceList();
  const out: string[] = [];
  const metric = metricById(metrics[0] ?? 'revenue');
  const how = asked.step === 1 ? 'quarter-over-quarter' : 'year-over-year';
  const against = asked.step === 1 ? 'from the quarter before' : 'from the same quarter a year before';
  for (const company of companies) {
    const { financials: fin } = await lib.profile(company);
    if (!fin) {
      out.push(`**${company.name}** has no figures in the data.`);
      continue;
    }
    const cal = fin.calendar;
    const moves = movesOf(fin, metric.id, asked.step);
    if (!moves.length) {
      out.push(`**${company.name}${company.ticker ? ` (${company.ticker})` : ''}**: the filings do not give ${metric.label} for two quarters ${asked.step === 1 ? 'in a row' : 'a year apart'}, so there is no ${how} change to rank.`);
      continue;
    }
    const cite = async (v: MetricValue) => {
      const refs: string[] = [];
      for (const t of v.terms) {
        const c = await lib.cite(company, t.fact);
        refs.push(sources.cite(c.key, c.name, c.url));
      }
      return [...new Set(refs)].join('');
    };
    const scale = async (v: MetricValue) => (await lib.cite(company, v.terms[0]!.fact)).location?.scale ?? null;
    const amount = async (v: MetricValue) => `${formatAmount(v.value, v.unit, metric, await scale(v))}${v.derivation ? ' (derived)' : ''} ${await cite(v)}`;
    const sorted = [...moves].sort((a, b) => (asked.down ? a.change - b.change : b.change - a.change));
    const top = sorted[0]!;
    const byRate = moves.filter((m) => m.rate !== null).sort((a, b) => (asked.down ? a.rate! - b.rate! : b.rate! - a.rate!))[0];
    const span = `${periodWithEnd(moves[0]!.to.period, cal).replace(/ \(quarter ended .*\)$/, '')} to ${periodWithEnd(moves.at(-1)!.to.period, cal).replace(/ \(quarter ended .*\)$/, '')}`;
    const word = asked.down ? 'drop' : 'jump';
    const name = `${company.name}${company.ticker ? ` (${company.ticker})` : ''}`;
    const went = (m: Move) => (asked.down ? m.change < 0 : m.change > 0);
    if (!went(top)) {
      out.push(`**${name}**: ${metric.label} never ${asked.down ? 'fell' : 'rose'} ${how} in the ${moves.length} changes the data holds (${span}); the ${asked.down ? 'smallest rise' : 'smallest fall'} was in ${periodWithEnd(top.to.period, cal)}: ${await amount(top.to)}, ${formatChange(top.to.value, top.from.value, top.to.unit, metric, await scale(top.to))} ${against}, ${await amount(top.from)}.`);
      continue;
    }
    const lines = [
      `**${capitalise(possessive(shortName(company.name)))} biggest ${how} ${word} in ${metric.label}** across the ${moves.length} changes the data holds (${span}) was in **${periodWithEnd(top.to.period, cal)}**: ${metric.label} of ${await amount(top.to)}, **${formatChange(top.to.value, top.from.value, top.to.unit, metric, await scale(top.to))}** ${against}, ${periodWithEnd(top.from.period, cal)}: ${await amount(top.from)}.`,
    ];
    if (byRate && byRate !== top && went(byRate)) {
      lines.push(`- In percent, the biggest was ${periodWithEnd(byRate.to.period, cal)}: ${await amount(byRate.to)}, ${formatChange(byRate.to.value, byRate.from.value, byRate.to.unit, metric, await scale(byRate.to))} against ${await amount(byRate.from)} in ${periodWithEnd(byRate.from.period, cal).replace(/ \(quarter ended .*\)$/, '')}.`);
    }
    const next = sorted[1];
    if (next && went(next)) lines.push(`- The next biggest: ${periodWithEnd(next.to.period, cal)}, ${formatChange(next.to.value, next.from.value, next.to.unit, metric, await scale(next.to))} ${await cite(next.to)}${await cite(next.from)}.`);
    // (Fiscal quarters are named in the company's terms, each with the date it ended.)
    if (asked.step === 1) lines.push(`- Changes from one quarter to the next carry the seasons of the business; year over year ("biggest yoy jump") sets each quarter against the same quarter a year before.${cal.isCalendarYear ? '' : ` ${capitalise(possessive(shortName(company.name)))} fiscal year ends ${cal.describeYearEnd()}, so its fiscal quarters are not calendar quarters.`}`);
    out.push(lines.join('\n'));
  }
  const note = lib.dataNote();
  yield { type: 'text', delta: `${out.join('\n\n')}\n${note ? `\n_${note}_\n` : ''}` };
  for (const citation of sources.list) yield { type: 'citation', citation };
  yield { type: 'done' };
}

