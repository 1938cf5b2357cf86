import type { SecLibrary } from '../../data/sec/library.js';
import type { PeriodSpec, SecQuestion } from '../../data/sec/question.js';
import { possessive, shortName } from '../../data/sec/names.js';
import { SourceList } from '../citations.js';
import type { AgentEvent } from '../types.js';
import { planAnswer } from './plan.js';
import type { MetricValue } from '../../data/sec/facts.js';
import type { CompanyRef } from '../../data/sec/types.js';
import { capitalise, formatAmount, periodName } from './format.js';
import { endsApart, itemsOf, tag, wasOfItem, whenShort, type Item } from './restate.js';

/**
 * Arithmetic asked of the figures just given, naming nothing new: "average of the three?",
 * "difference?", "how many times higher?". Each answer says what it computed and cites its inputs.
 */

export type Operation = 'average' | 'difference' | 'times' | 'larger' | 'smaller';

const LEAD = String.raw`^\W*(?:(?:and|so|ok(?:ay)?|now|then|but)\W+)*(?:what(?:'s| is| was)\s+)?(?:the\s+)?`;
const OF_THEM = String.raw`(?:\s+(?:of|between|for)\s+(?:the|those|these|them|all|both)(?:\s+(?:two|three|four|five|six|\d|of them|companies|figures|numbers))?)?`;
const WHICH = String.raw`${LEAD}(?:which|what)(?:\s+(?:one|of (?:them|the two|those|these)|is|was|were|quarter|year|period))*\s+(?:the\s+)?`;
const OPERATIONS: [Operation, RegExp][] = [
  ['average', new RegExp(`${LEAD}(?:simple\\s+)?(?:average|avg|mean)${OF_THEM}\\W*$`, 'i')],
  ['difference', new RegExp(`${LEAD}(?:difference|diff|gap)${OF_THEM}(?:\\s+in\\s+(?:dollars|\\$|points|percentage points))?\\W*$`, 'i')],
  ['times', /\bhow many times\b|\bwhat multiple\b/i],
  // "Which is bigger?", "which one was lower?" of two figures just given.
  ['larger', new RegExp(`${WHICH}(?:bigger|larger|higher|greater|more)\\W*$`, 'i')],
  ['smaller', new RegExp(`${WHICH}(?:smaller|lower|less)\\W*$`, 'i')],
];

export function operationAsked(text: string): Operation | null {
  if (text.split(/\s+/).length > 14) return null;
  return OPERATIONS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

const money = (unit: string) => unit.startsWith('money:');
/** An amount as the filings state it, unrounded: "$112,390 million", "58.2%", "419.37x". */
function exact(item: Item, amount = item.amount): string {
  if (item.unit === 'percent') return `${amount.toFixed(1)}%`;
  if (item.unit === 'times') return `${amount.toFixed(2)}x`;
  if (money(item.unit) && Math.abs(amount) >= 1e6) return `${amount < 0 ? '-' : ''}$${Math.round(Math.abs(amount) / 1e6).toLocaleString('en-US')} million`;
  if (item.unit.startsWith('perShare')) return `$${amount.toFixed(2)} a share`;
  return item.value;
}

const named = (item: Item, others: Item[]) => {
  const sameCompany = others.every((o) => o.company.cik === item.company.cik);
  const sameLabel = others.every((o) => o.label === item.label);
  return sameCompany ? item.label : sameLabel ? shortName(item.company.name) : `${possessive(shortName(item.company.name))} ${item.label}`;
};
const inputs = (items: Item[]) => items.map((i) => `${named(i, items)} ${exact(i)} (${whenShort(i)}) ${i.refs}${tag(i)}`).join(', ');

function computed(op: Operation, items: Item[]): string | null {
  if (items.length < 2 || new Set(items.map((i) => i.unit)).size !== 1) return null;
  // Between companies, the answer's own lines weigh them (the gap, how many times as high); here, figures of one company.
  if (op !== 'average' && new Set(items.map((i) => i.company.cik)).size > 1) return null;
  const unit = items[0]!.unit;
  const ranked = [...items].sort((a, b) => b.amount - a.amount);
  const [top, bottom] = [ranked[0]!, ranked.at(-1)!];
  if (op === 'average') {
    const mean = items.reduce((a, i) => a + i.amount, 0) / items.length;
    const what = new Set(items.map((i) => i.label)).size === 1 ? items[0]!.label === items[0]!.metric.label && items[0]!.metric.plural ? items[0]!.label : `${items[0]!.label}s` : 'figures';
    const apart = endsApart(items);
    return `**Average of the ${items.length} ${what}: ${exact(items[0]!, mean)}** (a simple average, each counted once): ${inputs(items)}.${apart ? ` ${apart}` : ''}`;
  }
  if (op === 'larger' || op === 'smaller') {
    if (items.length !== 2 || top.amount === bottom.amount) return null;
    const gap = top.amount - bottom.amount;
    const [first, second] = op === 'larger' ? [top, bottom] : [bottom, top];
    // (More than the smaller, or less than the larger: the percentage is of the figure it is set against.)
    const apart = unit === 'percent' ? `${gap.toFixed(1)} percentage points` : `${exact(top, gap)}${bottom.amount > 0 ? ` (${((100 * gap) / second.amount).toFixed(1)}%)` : ''}`;
    const said = (i: Item) => `${exact(i)} ${i.refs}${tag(i)} in ${periodName(i.period, i.calendar)} (${i.balance ? 'at' : 'ended'} ${i.period.end})`;
    return `**${possessive(shortName(first.company.name))} ${first.label} ${wasOfItem(first)} ${op} in ${periodName(first.period, first.calendar)}**: ${said(first)} against ${said(second)}, ${apart} ${op === 'larger' ? 'more' : 'less'}.`;
  }
  if (op === 'difference') {
    const gap = top.amount - bottom.amount;
    // (Two periods of one figure are told apart by their periods: "fiscal Q2 2024 is 75.9% of fiscal Q1 2024".)
    const samePeriodless = new Set(items.map((i) => named(i, items))).size === 1;
    const shareName = (i: Item) => (samePeriodless ? periodName(i.period, i.calendar) : named(i, items));
    const share = money(unit) && bottom.amount > 0 && top.amount > 0 ? `; ${shareName(bottom)} is ${((100 * bottom.amount) / top.amount).toFixed(1)}% of ${shareName(top)}` : '';
    const apart = unit === 'percent' ? `${gap.toFixed(1)} percentage points` : exact(top, gap);
    return `**${apart}**: ${named(top, items)} ${exact(top)} ${top.refs} minus ${named(bottom, items)} ${exact(bottom)} ${bottom.refs} (${whenShort(top)}${whenShort(bottom) === whenShort(top) ? '' : `; ${whenShort(bottom)}`})${share}.`;
  }
  if (!(bottom.amount > 0)) return null;
  const x = top.amount / bottom.amount;
  return `**${x >= 10 ? x.toFixed(1) : x.toFixed(2)} times**: ${named(top, items)} ${exact(top)} ${top.refs} over ${named(bottom, items)} ${exact(bottom)} ${bottom.refs} (${whenShort(top)}${whenShort(bottom) === whenShort(top) ? '' : `; ${whenShort(bottom)}`}).`;
}

/** The operation on the figures the question resolves to; null when they are not two or more of one kind. */
export async function computedAnswer(lib: SecLibrary, question: SecQuestion, op: Operation): Promise<AgentEvent[] | null> {
  if (question.shareOf) return null;
  const sources = new SourceList();
  const items: Item[] = [];
  for (const each of await periodsApart(lib, question)) items.push(...(await itemsOf(lib, await planAnswer(lib, each, { progress: () => {} }), sources)));
  const body = computed(op, items);
  if (!body) return null;
  return answered(lib, body, sources);
}

/**
 * One company's figure compared with another period ("which is bigger?" after "Apple revenue Q1 2024?",
 * "and Q2 2024?" compares the two): each period its own question, so that both are figures to weigh.
 */
async function periodsApart(lib: SecLibrary, question: SecQuestion): Promise<SecQuestion[]> {
  if (!question.comparison || question.companies.filter((c) => c.status === 'found').length !== 1 || question.ttm || question.ratios?.length) return [question];
  const plan = await planAnswer(lib, question, { progress: () => {} });
  const prior = plan.figures.map((f) => (f.result.kind === 'value' ? f.result.compared?.period : null));
  const [before] = prior;
  if (plan.figures.length !== 1 || !before || before.kind === 'span') return [question];
  const earlier: PeriodSpec = { kind: 'ended', date: before.end, span: before.kind, toleranceDays: 3 };
  const alone = { ...question, comparison: null, versus: null, alsoQoq: false };
  return [alone, { ...alone, period: earlier }];
}

/** "Is growth accelerating?", "is it slowing down?": whether the year-over-year growth of the figure discussed rose or fell. */
export const ACCELERATION_ASKED = /\b(?:accelerat\w*|decelerat\w*|speed(?:s|ing)? up|slow(?:s|ing)?(?: down)?|picking up|pick(?:s|ed)? up|losing (?:steam|momentum)|gaining (?:steam|momentum)|momentum)\b/i;
const SLOWING = /\b(?:decelerat\w*|slow\w*|losing)\b/i;

/**
 * Growth of the period discussed against the growth of the period before it (each year over year,
 * so seasons stay out): "**Yes**: Apple's revenue growth picked up, from +4.0% … to +5.1% …", each
 * amount and its year-earlier figure cited. Null when either growth rate cannot be computed.
 */
export async function accelerationAnswer(lib: SecLibrary, question: SecQuestion, asked: string): Promise<AgentEvent[] | null> {
  const base = question.period ?? { kind: 'latest' as const, span: 'quarter' as const };
  const now = { ...question, comparison: 'yoy' as const, versus: null, alsoQoq: false, margin: false, ttm: false, ratios: [] };
  const planNow = await planAnswer(lib, now, { progress: () => {} });
  const sources = new SourceList();
  const cite = async (company: CompanyRef, values: (MetricValue | null | undefined)[]) => {
    const refs = await Promise.all(values.flatMap((v) => v?.terms ?? []).map(async (t) => {
      const c = await lib.cite(company, t.fact);
      return sources.cite(c.key, c.name, c.url);
    }));
    return [...new Set(refs)].join('');
  };
  const lines: string[] = [];
  for (const f of planNow.figures) {
    const r = f.result;
    if (r.kind !== 'value' || !r.compared?.value || r.compared.value.value <= 0) continue;
    // The period before the one discussed, of the same kind: the quarter before a quarter, the year before a year.
    const year = r.period.kind === 'year';
    const before = await planAnswer(lib, { ...now, companies: question.companies.filter((c) => c.status === 'found' && c.company.cik === f.company.cik), metrics: [f.metric.id], period: { kind: 'shift', base: base.kind === 'latest' ? { kind: 'ended', date: r.period.end, span: year ? 'year' : 'quarter', toleranceDays: 10 } : base, quarters: year ? 0 : -1, years: year ? -1 : 0 } }, { progress: () => {} });
    const b = before.figures.find((g) => g.metric.id === f.metric.id)?.result;
    if (!b || b.kind !== 'value' || !b.compared?.value || b.compared.value.value <= 0) continue;
    const g1 = (100 * (r.value.value - r.compared.value.value)) / r.compared.value.value;
    const g0 = (100 * (b.value.value - b.compared.value.value)) / b.compared.value.value;
    const up = g1 > g0;
    const yes = SLOWING.test(asked) ? !up : up;
    const pct = (x: number) => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(1)}%`;
    const amount = (v: MetricValue) => formatAmount(v.value, v.unit, f.metric);
    const when = (p: typeof r.period) => `${periodName(p, f.fin.calendar)} (${year ? 'year' : 'quarter'} ended ${p.end})`;
    const [refNow, refNowPrior, refBefore, refBeforePrior] = [await cite(f.company, [r.value]), await cite(f.company, [r.compared.value]), await cite(f.company, [b.value]), await cite(f.company, [b.compared.value])];
    const derived = (v: MetricValue) => (v.derivation ? ' (derived)' : '');
    lines.push(
      `**${yes ? 'Yes' : 'No'}**: ${possessive(shortName(f.company.name))} ${f.metric.label} growth ${Math.abs(g1 - g0) < 0.05 ? 'held steady' : up ? 'picked up' : 'slowed'}, from **${pct(g0)}** year over year in ${when(b.period)} to **${pct(g1)}** in ${when(r.period)} (${(g1 - g0 >= 0 ? '+' : '-') + Math.abs(g1 - g0).toFixed(1)} percentage points).`,
      `- ${capitalise(periodName(r.period, f.fin.calendar))}: ${amount(r.value)} ${refNow}${derived(r.value)} against ${amount(r.compared.value)} ${refNowPrior}${derived(r.compared.value)} a year earlier.`,
      `- ${capitalise(periodName(b.period, f.fin.calendar))}: ${amount(b.value)} ${refBefore}${derived(b.value)} against ${amount(b.compared.value)} ${refBeforePrior}${derived(b.compared.value)} a year earlier.`,
      '',
    );
  }
  if (!lines.length) return null;
  lines.push(`Each growth rate is year over year, so the seasons stay out of it; whether it goes on is not in the filings.`);
  const body = lines.join('\n');
  return answered(lib, body, sources);
}

/** An answer's events: its text with the citations it uses numbered 1, 2, … in order, and the data note. */
function answered(lib: SecLibrary, body: string, sources: SourceList): AgentEvent[] {
  const used = [...new Set(body.match(/\[\d+\]/g) ?? [])];
  const renumber = new Map(used.map((ref, i) => [ref, `[${i + 1}]`]));
  const text = body.replace(/\[\d+\]/g, (ref) => renumber.get(ref)!).replace(/ +([.,;)])/g, '$1');
  const citations = used.map((ref, i) => ({ ...sources.list.find((c) => `[${c.order}]` === ref)!, order: i + 1 }));
  const note = lib.dataNote();
  return [{ type: 'text', delta: `${text}\n${note ? `\n_${note}_\n` : ''}` }, ...citations.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' }];
}
