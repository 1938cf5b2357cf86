import type { FiscalPeriod } from '../../data/sec/calendar.js';
import type { MetricValue } from '../../data/sec/facts.js';
import type { SecLibrary } from '../../data/sec/library.js';
import { metricById, wasOf, type MetricDef } from '../../data/sec/metrics.js';
import { shortName, possessive } from '../../data/sec/names.js';
import type { SecQuestion } from '../../data/sec/question.js';
import type { CompanyRef } from '../../data/sec/types.js';
import { SourceList } from '../citations.js';
import type { AgentEvent } from '../types.js';
import { capitalise, formatAmount, periodName } from './format.js';
import { bulletCount } from '../instructions.js';
import { formWordsOut } from '../form-words.js';
import { planAnswer, shareLabel, type Figure, type Plan } from './plan.js';

/**
 * An answer's figures said in the form asked ("summarize in one sentence", "just the number",
 * "explain like I'm 12", "tweet-length", "one line", "headline", "as a table", "as bullet points"): the same figures,
 * periods and citations as the answer they restate, in fewer or plainer words.
 */

export type Form = 'number' | 'simple' | 'tweet' | 'headline' | 'line' | 'sentence' | 'table' | 'bullets';

/** Each form by the words that ask it; the first that matches wins. */
const FORMS: [Form, RegExp][] = [
  ['number', /\b(?:just|only)\s+(?:give\s+(?:me\s+)?)?(?:the|a|one)\s+(?:number|figure|value|amount)s?\b|\b(?:just|only)\s+(?:the\s+)?numbers?\b|\b(?:the\s+)?numbers?\s+only\b|\b(?:percent(?:age)?s?|probabilit(?:y|ies))\s+only\b|\b(?:just|only)\s+(?:the\s+)?(?:percent(?:age)?|probability|odds)\b(?!\s+(?:of|for|and|that)\b)|\b(?:in|with|using)\s+(?:one|a\s+single|1|a)\s+word\b|\bone[- ]word\s+(?:answer|reply|response)\b/i],
  // ("As bullet points", "in bullets", "bullet list", "bullet points please", "bulleted".)
  ['bullets', /\b(?:as|in|into|with|using)\s+(?:a\s+)?(?:short\s+)?(?:(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:short\s+|key\s+|brief\s+)?)?(?:bullet(?:ed)?(?:[- ]?(?:points?|lists?|form))?|bullets)\b|\b(?:(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:short\s+|key\s+|brief\s+)?)?bullet(?:ed)?[- ]?(?:points?|lists?)\b|\bbullets?\s+(?:please|pls|plz)\b|^\W*(?:(?:ok(?:ay)?|now|and|so)\W+)?(?:bullets|bulleted)\W*$/i],
  ['simple', /\bexplain\s+(?:it\s+|that\s+|this\s+|them\s+)?(?:to\s+me\s+)?(?:like|as\s+if|as\s+though)\s+(?:i'?m|i\s+am|im|to\s+a)\s+(?:a\s+)?\w+(?:[- ]year[- ]old)?|\beli\d+\b|\bin\s+(?:simple|plain|simpler|plainer|layman'?s?|everyday)\s+(?:words|terms|english|language)\b|\bfor\s+a\s+(?:kid|child|beginner|\d+[- ]year[- ]old)\b|\bsimply\s+put\b|\bdumb\s+it\s+down\b|\bplain[- ](?:english|language|words)\b|\b(?:in\s+)?layman'?s?\s+terms\b|\bfor\s+(?:a\s+|the\s+)?(?:general|lay|non-?expert|non-?technical|wider|broad)\s+(?:audience|readers?|public)\b|\bfor\s+(?:my\s+|our\s+)?(?:readers|listeners|viewers)\b|\bnon-?technical\b|\b(?:no|without|avoid)\s+jargon\b|\bjargon[- ]free\b/i],
  ['tweet', /\btweet(?:[- ](?:length|sized?|size))?\b/i],
  ['headline', /\b(?:one\s+)?headline(?:\s+(?:number|figure|version|numbers|figures))?\b(?!s)/i],
  ['line', /\b(?:in\s+|as\s+)?(?:one|a|1|single)\s+line\b|\bone[- ]liner\b/i],
  ['sentence', /\b(?:in\s+|as\s+)?(?:one|a|1|single|two|2)\s+sentences?\b|\bsummar(?:y|i[sz]e)\b|\btl;?\s?dr\b|\bsum\s+(?:it|this|that|them)\s+up\b|\brecap\b|\bquotable\b|\b(?:i|we)\s+(?:can|could)\s+quote\b|\bto\s+quote\b|\bquote-?worthy\b|\bsound\s*bite\b/i],
  ['table', /\b(?:as|in|into)\s+a\s+table\b|\btabulate\b|\btable\s+(?:form|format|please)\b/i],
];

/** Words around a form asked that ask nothing themselves ("give me", "version", "please"). */
const FILLER = /\b(?:give\s+me|can\s+you|could\s+you|make\s+it|(?:put|show|set|lay)(?:\s+(?:it|them|both|those|these|that|this|everything|all(?:\s+(?:of\s+)?(?:them|those|these|three|two|3|2))?)(?:\s+(?:all|out))?)?|(?:all|each)\s+(?:of\s+)?(?:them|those|these|three|two|3|2)|both(?:\s+of\s+them)?|side\s+by\s+side|say\s+it|write(?:\s+(?:it|me|up))?|version|form|format|please|pls|plz|now|summary|length|for\s+a)\b/gi;

export interface FormAsked {
  form: Form;
  /** The question without the words of the form: empty when it asks only that the answer before be restated. */
  rest: string;
  /** Only one figure wanted ("one headline number"). */
  one: boolean;
  /** How many bullet points were asked ("in 3 bullets"), when a number was. */
  count?: number;
  /** Plain words asked beside the shape ("explain like I'm 12, in 2 bullets"): bullets or a sentence in plain words. */
  plain?: boolean;
}

/** The shapes plain words can be asked beside: bullets, one sentence, one line, a tweet. */
export const plainShape = (form: Form) => form === 'bullets' || form === 'sentence' || form === 'line' || form === 'tweet';

/** The words of every form, to take out of a question that asks something else first ("yes or no, in 3 bullets"). */
export const FORM_WORDS = FORMS.map(([, p]) => new RegExp(p.source, 'gi'));

/** Which part of a text a place is in, parts being apart at a comma, a stop, a semicolon or "and", "but", "then". */
const EACH = /\b(?:each|every|per)\s+(?:bullet(?:\s+point)?|point|item|row|line|entry)s?\b/i;

export const partOf = (text: string, at: number) => (text.slice(0, at).match(/[,;:.!?\n]|\b(?:and|but|then)\b/gi) ?? []).length;

/**
 * The form a question asks of its answer, and the question without its words. Plain words asked
 * beside bullets, a sentence, a line or a tweet ("explain like I'm 12, in 2 bullets") are that
 * shape in plain words (`plain`); of shapes that contradict each other ("in 3 bullets, in one
 * sentence"), the one asked last wins.
 */
export function formAsked(text: string): FormAsked | null {
  // (Each form by the part of the question it is in: parts are apart at a comma, a stop or "and"; "a tweet-length summary" is one ask, a tweet.)
  const found = FORMS.flatMap(([form, pattern], order) => {
    const m = pattern.exec(text);
    // ("Use bullets, one line each", "keep each bullet to one sentence": a shape of each bullet, not of the answer.)
    if (m && (form === 'sentence' || form === 'line') && (EACH.test(text) || /^\s*(?:each|apiece|per\s+(?:bullet|point|item|row))\b/i.test(text.slice(m.index + m[0].length)))) return [];
    return m ? [{ form, order, part: partOf(text, m.index) }] : [];
  });
  if (!found.length) return null;
  const shapes = found.filter((f) => f.form !== 'simple');
  const form = shapes.length ? shapes.reduce((a, b) => (b.part > a.part || (b.part === a.part && b.order < a.order) ? b : a)).form : 'simple';
  const plain = plainShape(form) && found.some((f) => f.form === 'simple');
  // (What only joined the form's words to the question goes with them: "Apple revenue - as a table, please" asks "Apple revenue"; see form-words.ts.)
  const rest = formWordsOut(text, [...FORMS.map(([, p]) => new RegExp(p.source, 'gi')), FILLER]).replace(/^[\s\W]*(?:(?:ok(?:ay)?|so|and|now|then|just|but)\b[\s,.!:;-]*)*/i, '').replace(/[\s:,;.!?-]+$/, '').trim();
  const count = form === 'bullets' ? bulletCount(text) : 0;
  return { form, rest: /^[\W_]*$/.test(rest) ? '' : rest, one: /\bone\s+(?:headline\s+)?(?:number|figure)\b|\b(?:in|with|using)\s+(?:one|a\s+single|1|a)\s+word\b|\bone[- ]word\b/i.test(text), ...(count ? { count } : {}), ...(plain ? { plain: true } : {}) };
}

/** "Was" or "were" for an item: its figure's label may be plural ("share repurchases were"); a margin or a ratio is one. */
export const wasOfItem = (item: Pick<Item, 'label' | 'metric'>) => (item.label === item.metric.label ? wasOf(item.metric) : 'was');

/** One figure of the answer, ready to be said in any form. */
export interface Item {
  company: CompanyRef;
  label: string;
  metric: MetricDef;
  period: FiscalPeriod;
  calendar: Figure['fin']['calendar'];
  /** A balance is at a date; a flow over a period. */
  balance: boolean;
  ttm: boolean;
  /** The figure as said: "$95.4 billion", "47.1%", "$3.46 a share". */
  value: string;
  /** Its unit for arithmetic: amounts of one unit add and subtract; a percentage or a multiple only with its kind. */
  unit: string;
  amount: number;
  percent: boolean;
  /** "+5.1% year over year", "+0.9 percentage points year over year"; null when no change was asked. */
  change: string | null;
  changeRate: number | null;
  refs: string;
  /** Computed from filed figures (free cash flow, a fourth quarter, a sum of quarters), not filed as such: said "(derived)". */
  derived: boolean;
}

const sum = (values: (MetricValue | null)[] | undefined) => (values?.length && values.every((v) => v) ? values.reduce((a, v) => a + v!.value, 0) : null);

function said(value: number, unit: string, metric: MetricDef): string {
  if (metric.unit === 'money' && Math.abs(value) >= 1e9) return `${value < 0 ? '-' : ''}$${(Math.abs(value) / 1e9).toFixed(1)} billion`;
  return formatAmount(value, unit, metric).replace(/ per share$/, ' a share');
}

const rate = (now: number, before: number) => (before > 0 ? ((now - before) / before) * 100 : null);
const signed = (x: number, digits = 1) => `${x > 0 ? '+' : x < 0 ? '-' : '±'}${Math.abs(x).toFixed(digits)}`;

export async function itemsOf(lib: SecLibrary, plan: Plan, sources: SourceList): Promise<Item[]> {
  const cite = async (company: CompanyRef, values: (MetricValue | null | undefined)[]) => {
    const refs = await Promise.all(values.flatMap((v) => v?.terms ?? []).map(async (t) => {
      const c = await lib.cite(company, t.fact);
      return sources.cite(c.key, c.name, c.url);
    }));
    return [...new Set(refs)].join('');
  };
  const derivedOf = (values: (MetricValue | null | undefined)[]) => values.some((v) => v?.derivation);
  const items: Item[] = [];
  const margin = plan.question?.margin ?? false;
  for (const f of plan.figures) {
    const r = f.result;
    if (r.kind !== 'value') continue;
    const base = { company: f.company, metric: f.metric, period: r.period, calendar: f.fin.calendar, balance: f.metric.type === 'instant' };
    const kind = r.compared?.kind === 'qoq' ? 'quarter over quarter' : r.compared?.kind === 'versus' && r.compared.period ? `from ${periodName(r.compared.period, f.fin.calendar)}` : 'year over year';
    const share = margin ? shareLabel(f.metric) : null;
    if (f.ttm) {
      const now = sum(f.ttm.map((q) => q.value));
      if (now === null) continue;
      const before = sum(f.ttmPrior?.map((q) => q.value));
      const change = before !== null ? rate(now, before) : null;
      items.push({ ...base, label: f.metric.label, ttm: true, value: said(now, r.value.unit, f.metric), unit: `${f.metric.unit}:${r.value.unit}`, amount: now, percent: false, change: change === null ? null : `${signed(change)}% ${kind}`, changeRate: change, refs: await cite(f.company, f.ttm.map((q) => q.value)), derived: true });
    } else if (share?.margin && f.revenue) {
      const pct = (r.value.value / f.revenue.value) * 100;
      const prior = r.compared?.value && f.comparedRevenue ? (r.compared.value.value / f.comparedRevenue.value) * 100 : null;
      items.push({ ...base, label: share.label, ttm: false, value: `${pct.toFixed(1)}%`, unit: 'percent', amount: pct, percent: true, change: prior === null ? null : `${signed(pct - prior)} percentage points ${kind}`, changeRate: prior === null ? null : pct - prior, refs: await cite(f.company, [r.value, f.revenue]), derived: derivedOf([r.value]) });
    } else {
      const prior = r.compared?.value ?? null;
      const change = prior ? rate(r.value.value, prior.value) : null;
      items.push({ ...base, label: f.metric.label, ttm: false, value: said(r.value.value, r.value.unit, f.metric), unit: `${f.metric.unit}:${r.value.unit}`, amount: r.value.value, percent: false, change: change === null ? null : `${signed(change)}% ${kind}`, changeRate: change, refs: await cite(f.company, [r.value]), derived: derivedOf([r.value]) });
    }
  }
  for (const r of plan.ratios) {
    const v = r.current;
    if (v.kind !== 'value' || v.value === null) continue;
    const metric = metricById(v.numerator.metric);
    const value = r.ratio.kind === 'percent' ? `${(v.value * 100).toFixed(1)}%` : r.ratio.kind === 'times' ? `${v.value.toFixed(2)}x` : r.ratio.kind === 'perShare' ? `$${v.value.toFixed(2)} a share` : said(v.value, v.numerator.unit, metric);
    items.push({ company: r.company, metric, period: v.period, calendar: r.fin.calendar, balance: metric.type === 'instant' && metricById(v.denominator.metric).type === 'instant', ttm: false, label: r.ratio.label, value, unit: r.ratio.kind === 'difference' ? `money:${v.numerator.unit}` : r.ratio.kind, amount: r.ratio.kind === 'percent' ? v.value * 100 : v.value, percent: r.ratio.kind === 'percent', change: null, changeRate: null, refs: await cite(r.company, [v.numerator, v.less, v.denominator, v.opening]), derived: derivedOf([v.numerator, v.less, v.denominator]) });
  }
  return items;
}

/** "fiscal Q2 2025 (quarter ended 2025-03-29)", "the twelve months to fiscal Q3 2025", "2025-03-29" for a balance. */
function when(item: Item): string {
  const name = periodName(item.period, item.calendar);
  if (item.ttm) return `the twelve months to ${name} (ended ${item.period.end})`;
  if (item.balance) return `the end of ${name} (${item.period.end})`;
  return `${name} (${item.period.kind === 'year' ? 'year' : item.period.kind === 'quarter' ? 'quarter' : 'period'} ended ${item.period.end})`;
}

/** The companies and periods in the order the answer had them, each with its figures. */
function grouped(items: Item[]): Item[][] {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = `${item.company.cik}|${when(item)}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

/** " (derived)" after a figure computed from filed ones. */
export const tag = (item: Item) => (item.derived ? ' (derived)' : '');
const list = (parts: string[]) => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);
const brief = (change: string | null) => (change ? ` (${change.replace(/ year over year$/, ' y/y').replace(/ quarter over quarter$/, ' q/q').replace(/ percentage points/, ' pts')})` : '');

function sentence(items: Item[]): string {
  const clauses = grouped(items).map((g) => {
    const who = possessive(shortName(g[0]!.company.name));
    // The kind of change said once: "(+5.1% year over year) … (+4.8%)".
    const kinds = new Set(g.map((item) => item.change?.replace(/^\S+ (?:percentage points )?/, '')));
    const figures = g.map((item, i) => `${i ? 'its ' : ''}${item.label} ${i ? '' : `${wasOfItem(item)} `}${item.value} ${item.refs}${tag(item)}${item.change ? ` (${i && kinds.size === 1 ? item.change.replace(/ (?:year over year|quarter over quarter|from .*)$/, '') : item.change})` : ''}`);
    return `in ${when(g[0]!)}, ${who} ${list(figures)}`;
  });
  return `${capitalise(clauses.join('; '))}.`;
}

function compact(items: Item[], bold: boolean): string {
  return compactLines(items, bold).join('; ');
}

/**
 * Each figure a line of its own, with its company and period (bullet points); a number of bullets
 * asked, fewer than the figures: the figures in that many lines, in turn, each line its figures
 * of one company and period together ("- Apple, fiscal year 2024: revenue $391.0 billion, net income $93.7 billion [1]").
 */
function bullets(items: Item[], count?: number): string {
  if (!count || count >= items.length) return items.flatMap((item) => compactLines([item], false)).map((l) => `- ${l}`).join('\n');
  // (As even as can be: five figures in three bullets are two, two and one.)
  const chunks: Item[][] = [];
  for (let i = 0, at = 0; i < count; i++) {
    const size = Math.floor(items.length / count) + (i < items.length % count ? 1 : 0);
    chunks.push(items.slice(at, (at += size)));
  }
  return chunks.map((chunk) => `- ${compactLines(chunk, false).join('; ')}`).join('\n');
}

/** One sentence in plain words ("explain like I'm 12, in one sentence"): each company and period as plain words say it, joined by semicolons. */
function plainSentence(items: Item[]): string {
  return `${grouped(items).map((g, i) => simple(g).replace(/\.$/, '').replace(/^In\b/, i ? 'in' : 'In').replace(/^Over\b/, i ? 'over' : 'Over').replace(/^On\b/, i ? 'on' : 'On')).join('; ')}.`;
}

/**
 * Bullets in plain words ("explain like I'm 12, in 2 bullets"): each company and period said as
 * plain words say it, a bullet each; a number asked, the figures shared among that many as even as
 * can be, as bullets() shares them.
 */
function plainBullets(items: Item[], count?: number): string {
  const groups = grouped(items);
  if (!count || count >= items.length) {
    // (One company and period with several figures, more bullets allowed than groups: a figure a bullet.)
    const each = count && groups.length < count ? items.map((item) => [item]) : groups;
    return each.map((g) => `- ${simple(g)}`).join('\n');
  }
  const chunks: Item[][] = [];
  for (let i = 0, at = 0; i < count; i++) {
    const size = Math.floor(items.length / count) + (i < items.length % count ? 1 : 0);
    chunks.push(items.slice(at, (at += size)));
  }
  return chunks.map((chunk) => `- ${simple(chunk)}`).join('\n');
}

function compactLines(items: Item[], bold: boolean): string[] {
  return grouped(items)
    .map((g) => {
      const head = `${shortName(g[0]!.company.name)}, ${g[0]!.ttm ? 'TTM to ' : ''}${periodName(g[0]!.period, g[0]!.calendar)}`;
      return `${bold ? `**${head}**` : head}: ${g.map((item) => `${item.label} ${item.value}${tag(item)}${brief(item.change)}`).join(', ')} ${[...new Set(g.flatMap((item) => item.refs.match(/\[\d+\]/g) ?? []))].join('')}`;
    })
}

function table(items: Item[]): string {
  const changed = items.some((i) => i.change);
  const rows = items.map((i) => `| ${shortName(i.company.name)} | ${capitalise(i.label)} | ${when(i)} | ${i.value} ${i.refs}${tag(i)} |${changed ? ` ${i.change ?? '—'} |` : ''}`);
  const apart = endsApart(items);
  return [`| Company | Figure | Period | Value |${changed ? ' Change |' : ''}`, `|---|---|---|---|${changed ? '---|' : ''}`, ...rows, ...(apart ? ['', apart] : [])].join('\n');
}

/**
 * Companies' periods that end months apart (Apple's fiscal Q2 2024 in March, Microsoft's in December), said
 * with their ends and how to ask for periods ending together; null when they end within 45 days of each other.
 */
export function endsApart(items: Item[]): string | null {
  const byCompany = [...new Map(items.map((i) => [i.company.cik, i])).values()];
  // (A company in several rows, at several periods, has each period said in its row: no two ends to set apart.)
  if (byCompany.length < 2 || items.some((i) => i.period.end !== byCompany.find((b) => b.company.cik === i.company.cik)!.period.end)) return null;
  const ends = byCompany.map((i) => Date.parse(`${i.period.end}T00:00:00Z`));
  const days = (Math.max(...ends) - Math.min(...ends)) / 86_400_000;
  if (days < 45) return null;
  const named = byCompany.map((i) => `${possessive(shortName(i.company.name))} ${periodName(i.period, i.calendar)} ${i.balance ? 'is at' : 'ended'} ${i.period.end}`);
  const first = byCompany[0]!;
  // The calendar quarter the first company's quarter falls in (a 52/53-week quarter ending in a month's first days counts for the month before).
  const end = new Date(ends[0]!);
  const month = (end.getUTCDate() <= 7 ? end.getUTCMonth() + 11 : end.getUTCMonth()) % 12;
  const year = end.getUTCFullYear() - (end.getUTCDate() <= 7 && end.getUTCMonth() === 0 ? 1 : 0);
  const align = first.period.kind === 'quarter' ? ` For quarters ending together, ask for calendar Q${Math.floor(month / 3) + 1} ${year}.` : '';
  return `These periods end on different dates, ${byCompany.length > 2 ? 'up to ' : ''}${Math.round(days / 30.44)} months apart: ${list(named)}; each company names its periods for its own fiscal year, so they are not the same months.${align}`;
}

/** What a figure is, said plainly, with its amount where `{}` is. */
const PLAIN: Partial<Record<string, string>> = {
  revenue: 'took in {} from selling its products and services',
  netIncome: 'kept {} as profit, after paying all its costs and taxes',
  grossProfit: 'had {} left from its sales after paying for what it sold',
  operatingIncome: 'made {} from running its business, before interest and taxes',
  dilutedEps: 'earned {} for each of its shares',
  basicEps: 'earned {} for each of its shares',
  capitalExpenditure: 'spent {} on buildings, data centres and equipment',
  freeCashFlow: 'had {} of cash left after running the business and paying for its investments',
  operatingCashFlow: 'brought in {} of cash from running its business',
  researchAndDevelopment: 'spent {} on research and on making new products',
  operatingExpenses: 'spent {} on running the business (research, selling, offices and staff)',
  cash: 'had {} in cash',
  longTermDebt: 'owed {} in long-term loans',
  totalAssets: 'owned {} of things in all (cash, investments, buildings and more)',
  totalLiabilities: 'owed {} in all',
  stockholdersEquity: 'had {} left for its owners, what it owns minus what it owes',
};
const MARGIN_LEFT: Record<string, string> = {
  'gross margin': 'was left after paying for what it sold',
  'operating margin': 'was left after also paying to run the business',
  'net margin': 'was left as profit after every cost and tax',
};

const longDate = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const roughly = (item: Item) => (/billion$/.test(item.value) && Math.abs(item.amount) >= 10e9 ? `about $${Math.round(Math.abs(item.amount) / 1e9)} billion` : item.value);

function simple(items: Item[]): string {
  // Each company and period said once, its figures after it: "In the three months to March 31, 2025, Microsoft took in …; it kept …".
  return grouped(items)
    .map((g) => {
      const first = g[0]!;
      const name = shortName(first.company.name);
      const span = first.ttm ? 'over the twelve months to' : first.balance ? 'on' : first.period.kind === 'year' ? 'in the year to' : first.period.kind === 'quarter' ? 'in the three months to' : 'in the months to';
      const at = `${span} ${longDate(first.period.end)}`;
      const clauses = g.map((item, i) => {
        const who = i ? 'it' : name;
        const left = MARGIN_LEFT[item.label];
        const plain = left
          ? `for every $100 ${i ? 'it' : name} sold, about $${Math.round(item.amount)} ${left} (its ${item.label}, ${item.value}) ${item.refs}${tag(item)}`
          : PLAIN[item.metric.id]
            ? `${who} ${PLAIN[item.metric.id]!.replace('{}', roughly(item).replace(/ a share$/, ''))} ${item.refs}${tag(item)}`
            : `${i ? 'its' : possessive(name)} ${item.label} ${wasOfItem(item)} ${item.value} ${item.refs}${tag(item)}`;
        const moved = item.changeRate === null || item.percent ? '' : `, ${Math.abs(Math.round(item.changeRate))}% ${item.changeRate >= 0 ? 'more' : 'less'} than ${/quarter over quarter/.test(item.change ?? '') ? 'in the three months before' : 'a year before'}`;
        return `${plain}${moved}`;
      });
      return `${capitalise(at)}, ${clauses.join('; ')}.`;
    })
    .join(' ');
}

/** Whether the question ranked by growth ("which grew profit fastest?"): the items are then ordered by their change. */
const BY_GROWTH = /\b(?:grew|grow(?:s|ing|th)?|rose|increased?)\b[^?]*\b(?:fastest|most|quickest|faster|more)\b|\b(?:fastest|quickest)\b/i;
const RANKED = /\b(?:highest|lowest|most|least|largest|biggest|smallest|best|worst|fastest|slowest|rank\w*|which|who)\b/i;

function ordered(items: Item[], question: SecQuestion): Item[] {
  const growth = BY_GROWTH.test(question.text) && items.every((i) => i.changeRate !== null);
  if (!growth && !RANKED.test(question.text)) return items;
  return [...items].sort((a, b) => (growth ? b.changeRate! - a.changeRate! : b.amount - a.amount));
}

/** "fiscal Q2 2025, ended 2025-03-29": a period in a parenthesis of its own. */
export const whenShort = (item: Item) => `${item.ttm ? 'twelve months to ' : ''}${periodName(item.period, item.calendar)}, ${item.balance ? 'at' : 'ended'} ${item.period.end}`;

function number(items: Item[], question: SecQuestion): string {
  // "Just the number" after "which grew fastest?": the leader's growth.
  if (BY_GROWTH.test(question.text) && items[0]!.change) return `**${items[0]!.change.split(' ')[0]}** (${possessive(shortName(items[0]!.company.name))} ${items[0]!.label}, ${whenShort(items[0]!)}) ${items[0]!.refs}`;
  return items.map((i) => `**${i.value}** (${possessive(shortName(i.company.name))} ${i.label}, ${whenShort(i)}) ${i.refs}${tag(i)}`).join('; ');
}

/** The restated answer's events, or null when the question's figures are not a plan of single figures (a table of periods, nothing found). */
export async function restated(lib: SecLibrary, question: SecQuestion, asked: FormAsked, earlier: SecQuestion[] = []): Promise<AgentEvent[] | null> {
  // A headline is about a change: a year earlier unless another was asked.
  const q = asked.form === 'headline' && !question.comparison ? { ...question, comparison: 'yoy' as const } : question;
  const sources = new SourceList();
  // ("As a table" after "Apple net income FY2024", "and Microsoft?", "what about the year before?": each figure given in the thread, a row each, in the order given.)
  const before: Item[] = [];
  for (const e of earlier) before.push(...(await itemsOf(lib, await planAnswer(lib, e, { progress: () => {} }), sources)));
  const plan = await planAnswer(lib, q, { progress: () => {} });
  // ("As a table" after "revenue in Q3 2024 and Q4 2024": both periods asked, a row each, the earlier first.)
  if (q.periodsListed) {
    for (const f of plan.figures) {
      const p = f.result.kind === 'value' ? f.result.compared?.period : null;
      if (!p || p.kind === 'span') continue;
      const earlierPeriod = { kind: 'ended' as const, date: p.end, span: p.kind, toleranceDays: 0 };
      const one = { ...q, companies: q.companies.filter((c) => c.status === 'found' && c.company.cik === f.company.cik), metrics: [f.metric.id], period: earlierPeriod, comparison: null, versus: null, periodsListed: false };
      before.push(...(await itemsOf(lib, await planAnswer(lib, one, { progress: () => {} }), sources)));
    }
  }
  const key = (i: Item) => `${i.company.cik} ${i.label} ${i.period.end} ${i.period.kind}`;
  const seen = new Set<string>();
  let items = ordered([...before, ...(await itemsOf(lib, plan, sources))].filter((i) => !seen.has(key(i)) && Boolean(seen.add(key(i)))), q);
  if (!items.length) return null;
  if (asked.one) items = items.slice(0, 1);
  const body =
    asked.form === 'number' ? number(items, q)
      : asked.form === 'simple' ? simple(items)
        : asked.form === 'table' ? table(items)
          : asked.form === 'bullets' ? (asked.plain ? plainBullets(items, asked.count) : bullets(items, asked.count))
          : asked.plain ? plainSentence(items)
          : asked.form === 'sentence' ? sentence(items)
            : compact(items, asked.form === 'headline');
  // Citations are numbered in the order the body uses them.
  const used = [...new Set(body.match(/\[\d+\]/g) ?? [])];
  const renumber = new Map(used.map((ref, i) => [ref, `[${i + 1}]`]));
  const text = body.replace(/\[\d+\]/g, (ref) => renumber.get(ref)!);
  const citations = used.map((ref, i) => ({ ...sources.list.find((c) => `[${c.order}]` === ref)!, order: i + 1 }));
  const note = lib.dataNote();
  return [{ type: 'text', delta: `${text.replace(/ +([.,;)])/g, '$1')}\n${note ? `\n_${note}_\n` : ''}` }, ...citations.map((citation) => ({ type: 'citation' as const, citation })), { type: 'done' }];
}
