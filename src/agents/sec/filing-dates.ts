import { addDays, daysBetween } from '../../data/sec/dates.js';
import { closedBecause, nextBusinessDay } from '../../data/sec/business-days.js';
import type { FiscalCalendar, FiscalPeriod } from '../../data/sec/calendar.js';
import type { CompanyFinancials } from '../../data/sec/facts.js';
import type { SecLibrary } from '../../data/sec/library.js';
import type { CompanyRef, Filing } from '../../data/sec/types.js';
import type { AgentEvent, Citation } from '../types.js';
import { periodName, periodWithEnd } from './format.js';
import { periodicFilings } from './filings.js';
import type { Plan } from './plan.js';

/**
 * Questions about when filings come, not what they say: the next one's deadline ("when is the next
 * 10-Q due?"), how long after a period's end one was filed ("how many days after the quarter end did
 * they file?"), and how old the figures are ("how old is this data?").
 */
export const NEXT_DUE_ASKED =
  /\b(?:next|upcoming|coming|following)\b[^?]{0,40}?\b(?:10-?[kq]|filings?|annual report|quarterly report|report)\b[^?]{0,40}?\b(?:due|deadline|expected|come out|be (?:filed|out|released)|land)\b|\bwhen (?:is|are|will|should)\b[^?]{0,40}?\b(?:10-?[kq]|filings?|annual report|quarterly report)\b[^?]{0,30}?\b(?:due|deadline)\b|\bfiling deadlines?\b|\bdeadline\b[^?]{0,30}?\b(?:10-?[kq]|filing)\b|\bwhen will (?:they|it|\w+) (?:next )?file\b|\bwhen (?:do|does) (?:they|it|\w+) (?:have to|need to|must) file\b/i;
export const FILING_LAG_ASKED =
  /\bhow (?:many days|many weeks|long|soon|quickly|fast)\b[^?]{0,60}?\b(?:file|filed|filing|report|reported)\b|\b(?:days|weeks) (?:after|from)\b[^?]{0,40}?\b(?:quarter|period|year|fiscal year)[- ]?end(?:ed)?\b[^?]{0,40}?\b(?:file|filed|filing)\b|\bfiling (?:lag|delay)\b/i;
export const DATA_AGE_ASKED =
  /\bhow (?:old|recent|current|fresh|stale|up[- ]to[- ]date|out[- ]of[- ]date|timely)\b[^?]{0,30}?\b(?:data|figures?|numbers?|info(?:rmation)?|filings?)\b|\b(?:is|are) (?:this|that|the|these|those|your) (?:data|figures?|numbers?|info) (?:up[- ]to[- ]date|current|stale|old|recent|fresh|the latest)\b|\b(?:data|figures?|numbers?) (?:is|are) (?:as of|from) when\b|\bas of when\b|\bwhen (?:is|was|are|were) (?:this|that|the|these|those) (?:data|figures?|numbers?) from\b|\bhow old\b[^?]{0,20}\b(?:is|are) (?:it|this|that|they)\b/i;

export const filingDatesAsked = (asked: string) => NEXT_DUE_ASKED.test(asked) || FILING_LAG_ASKED.test(asked) || DATA_AGE_ASKED.test(asked);

/** The SEC's deadlines, in days after the period's end, by filer category (Form 10-Q and 10-K general instructions). */
const DEADLINES = {
  large: { label: 'large accelerated filer', q: 40, k: 60 },
  accelerated: { label: 'accelerated filer', q: 40, k: 75 },
  non: { label: 'non-accelerated filer', q: 45, k: 90 },
} as const;
type Category = keyof typeof DEADLINES;

/** The filer category EDGAR's submissions give ("Large accelerated filer"), when they give one. */
function filerCategory(submissions: unknown): Category | null {
  const raw = (submissions as { category?: unknown } | null)?.category;
  if (typeof raw !== 'string') return null;
  if (/large accelerated/i.test(raw)) return 'large';
  if (/non-?accelerated/i.test(raw)) return 'non';
  if (/accelerated/i.test(raw)) return 'accelerated';
  return null;
}

/** The rule, said with the category it applies to and where that came from. */
function ruleNote(category: Category | null, name: string): string {
  const rule = 'The SEC requires a 10-Q within 40 days of the quarter\'s end and a 10-K within 60 days of the fiscal year\'s end for a large accelerated filer (40 and 75 days for an accelerated filer, 45 and 90 for others), moved to the next business day when the day is a weekend or holiday.';
  if (category) return `${rule} EDGAR lists ${name} as a ${DEADLINES[category].label}.`;
  return `${rule} The data read here does not give ${name}'s filer category: this assumes a large accelerated filer (a public float of $700 million or more), as its size suggests; the dates would be later for another category.`;
}

const daysAfter = (f: Filing) => daysBetween(f.reportDate, f.filingDate);

/** A deadline `days` after a period's end, moved to the next business day; `moved` says from what day, when it was. */
function dueDate(end: string, days: number): { date: string; moved: string | null; text: string } {
  const plain = addDays(end, days);
  const date = nextBusinessDay(plain);
  const why = closedBecause(plain);
  const moved = date !== plain && why ? `${plain}, ${why}` : null;
  return { date, moved, text: moved ? `${date} (${days} days on is ${moved}, so the next business day)` : date };
}

/** A period a year after one that ended on `end`: 52 weeks on for a 52/53-week calendar, the same month-end otherwise. */
function yearAfter(end: string): string {
  const [y, m, d] = end.split('-').map(Number) as [number, number, number];
  const monthEnd = new Date(Date.UTC(y, m, 0)).getUTCDate() === d;
  if (!monthEnd) return addDays(end, 364);
  return new Date(Date.UTC(y + 1, m, 0)).toISOString().slice(0, 10);
}

/** The period a filing covers in the company's fiscal terms ("fiscal Q2 2025 (quarter ended 2025-03-29)"). */
function covered(f: Filing, calendar: FiscalCalendar | undefined): { period: FiscalPeriod | null; text: string } {
  const period = calendar?.nearest(f.form.startsWith('10-K') ? 'year' : 'quarter', f.reportDate, 10) ?? null;
  return { period, text: period && calendar ? periodWithEnd(period, calendar) : `the period ended ${f.reportDate}` };
}

/** The next fiscal quarter after a filed period, and when it should end (reckoned from the same quarter a year before). */
function nextQuarter(fin: CompanyFinancials, after: FiscalPeriod): { fy: number; q: 1 | 2 | 3 | 4; end: string } | null {
  const [fy, q] = after.kind === 'year' ? [after.fy + 1, 1] : after.q === 4 ? [after.fy + 1, 1] : [after.fy, after.q + 1];
  const yearBefore = q === 4 ? fin.calendar.year(fy - 1) : fin.calendar.quarter(fy - 1, q);
  if (!yearBefore) return null;
  return { fy, q: q as 1 | 2 | 3 | 4, end: yearAfter(yearBefore.end) };
}

export interface FilingDatesContext {
  lib: SecLibrary;
  companies: readonly CompanyRef[];
  asked: string;
  /** The filing the answer before cited, when it named one ("Form 10-Q filed 2024-08-02 (accession …)"). */
  citedBefore: { form: string; filed: string; accession: string } | null;
  /** The figures the answer before gave, planned again: their periods and filings say how old they are. */
  before: Plan | null;
  /** Today, for how long ago. */
  today?: string;
}

/** Answers NEXT_DUE_ASKED, FILING_LAG_ASKED and DATA_AGE_ASKED for each company discussed, citing each filing's PDF. */
export async function* answerFilingDates(ctx: FilingDatesContext): AsyncGenerator<AgentEvent> {
  const { lib, asked } = ctx;
  const today = ctx.today ?? new Date().toISOString().slice(0, 10);
  // Each filing cited once, in the order first cited; linked (to its PDF) once the text is written.
  const cited: { company: CompanyRef; filing: Filing }[] = [];
  const cite = (company: CompanyRef, f: Filing) => {
    const known = cited.findIndex((c) => c.filing.accessionNumber === f.accessionNumber);
    if (known >= 0) return `[${known + 1}]`;
    cited.push({ company, filing: f });
    return `[${cited.length}]`;
  };
  const recorded = lib.origin.mode === 'snapshot' ? (lib.origin.recordedAt?.toISOString().slice(0, 10) ?? null) : null;
  const lines: string[] = [];
  for (const company of ctx.companies) {
    const profile = await lib.profile(company);
    const name = `${profile.company.name}${company.ticker ? ` (${company.ticker})` : ''}`;
    const short = profile.company.name.replace(/,? (?:Inc|Corp|Corporation|Co|Ltd|plc)\.?$/i, '');
    const filings = profile.submissions ? periodicFilings(profile.submissions.filings.recent, company.cik) : [];
    const fin = profile.financials;
    const calendar = fin?.calendar;
    if (!filings.length) {
      lines.push(`No 10-K or 10-Q filings of ${name} are in ${recorded ? 'this snapshot' : "EDGAR's recent list"}, so I cannot say when it files.`, '');
      continue;
    }
    const category = filerCategory(profile.submissions);
    const rule = DEADLINES[category ?? 'large'];
    const latest = filings[0]!;
    if (NEXT_DUE_ASKED.test(asked)) {
      const wanted = /\b10-?k\b|\bannual\b/i.test(asked) ? 'k' : /\b10-?q\b|\bquarterly\b/i.test(asked) ? 'q' : null;
      const last = covered(latest, calendar);
      let next = fin && last.period ? nextQuarter(fin, last.period) : null;
      const steps: string[] = [];
      const named = (n: { fy: number; q: 1 | 2 | 3 | 4; end: string }) => periodName({ kind: 'quarter', fy: n.fy, q: n.q, start: '', end: n.end }, fin!.calendar);
      if (next && fin && wanted === 'k' && next.q !== 4) {
        // The 10-K of the fiscal year under way: its end reckoned from the year before's.
        const yearBefore = fin.calendar.year(next.fy - 1);
        next = yearBefore ? { fy: next.fy, q: 4, end: yearAfter(yearBefore.end) } : null;
      } else if (next && fin && wanted === 'q' && next.q === 4) {
        // A 10-Q asked for when the next period is the fiscal year's end: the 10-K comes first, the next 10-Q after it.
        steps.push(`Before it comes the 10-K for fiscal year ${next.fy} (ending about ${next.end}), due by about ${dueDate(next.end, rule.k).text}.`);
        next = nextQuarter(fin, { kind: 'quarter', fy: next.fy, q: 4, start: '', end: next.end });
      }
      if (next && fin) {
        const kind = next.q === 4 ? 'k' : 'q';
        const { date: due, moved } = dueDate(next.end, rule[kind]);
        const what = kind === 'k' ? `10-K, for fiscal year ${next.fy} (the year ending about ${next.end})` : `10-Q, for ${named(next)} (the quarter ending about ${next.end})`;
        const after = `${rule[kind]} days after that ${kind === 'k' ? 'year' : 'quarter'} ends`;
        lines.push(`**${name}**: its next ${what}, is due by about **${due}**, ${moved ? `the next business day (${after} is ${moved})` : after}. This is an estimate from the SEC's filing deadline, not a date the company has announced, and the period's end is reckoned from its fiscal calendar.`);
        lines.push('');
        if (steps.length) lines.push(`- ${steps.join(' ')}`);
        lines.push(`- The latest filing in the data: Form ${latest.form} for ${last.text}, filed ${latest.filingDate}, ${daysAfter(latest)} days after the period ended ${cite(profile.company, latest)}.`);
        lines.push(`- ${ruleNote(category, short)}`);
        if (due < today) lines.push(`- That date is already past (today is ${today})${recorded ? `: this snapshot was recorded ${recorded}, so a filing made since is not in it` : ''}.`);
      } else {
        lines.push(`**${name}**: the latest filing in the data is Form ${latest.form} for ${last.text}, filed ${latest.filingDate} ${cite(profile.company, latest)}; its fiscal calendar in the data is too short to reckon the next period's end. A 10-Q is due ${rule.q} days after its quarter ends and a 10-K ${rule.k} days after the fiscal year ends.`);
        lines.push('', `- ${ruleNote(category, short)}`);
      }
      lines.push('');
      continue;
    }
    if (FILING_LAG_ASKED.test(asked)) {
      // The filing the answer before cited, or the latest of the form asked, or the latest.
      const form = /\b10-?k\b|\bannual\b/i.test(asked) ? '10-K' : /\b10-?q\b|\bquarter(?:ly)?\b/i.test(asked) ? '10-Q' : null;
      const meant =
        (ctx.citedBefore && filings.find((f) => f.accessionNumber === ctx.citedBefore!.accession)) ??
        (ctx.before ? filingsOf(ctx.before, company).map((accn) => filings.find((f) => f.accessionNumber === accn)).find((f) => f && (!form || f.form === form)) : undefined) ??
        filings.find((f) => !form || f.form === form) ??
        latest;
      const kind = meant.form.startsWith('10-K') ? 'k' : 'q';
      const c = covered(meant, calendar);
      lines.push(`**${name}**: its ${meant.form} for ${c.text} was filed ${meant.filingDate}, **${daysAfter(meant)} days** after the ${kind === 'k' ? 'fiscal year' : 'quarter'} ended ${cite(profile.company, meant)}; the deadline for a ${rule.label} is ${rule[kind]} days.`);
      lines.push('');
      for (const f of ['10-Q', '10-K']) {
        const own = filings.filter((x) => x.form === f);
        if (!own.length) continue;
        const days = own.map(daysAfter);
        lines.push(`- ${own.length === 1 ? `Its one ${f}` : own.length === 2 ? `Both its ${f}s` : `All ${own.length} of its ${f}s`} in the data ${own.length === 1 ? 'was' : 'were'} filed ${Math.min(...days) === Math.max(...days) ? `${days[0]}` : `${Math.min(...days)} to ${Math.max(...days)}`} days after ${f === '10-K' ? 'the fiscal year' : 'the quarter'} ended (${own.map((x) => `${covered(x, calendar).period && calendar ? periodName(covered(x, calendar).period!, calendar) : x.reportDate}: ${daysAfter(x)} ${cite(profile.company, x)}`).join('; ')}).`);
      }
      lines.push(`- ${ruleNote(category, short)}`, '');
      continue;
    }
    // How old the data is: the periods and filings of the figures given before, else the latest filing.
    const used = ctx.before ? factsOf(ctx.before, company) : [];
    if (used.length) {
      const ends = [...new Set(used.map((u) => u.end))].sort();
      const fileds = [...new Set(used.map((u) => u.filed))].sort();
      const newest = used.reduce((a, b) => (a.end > b.end ? a : b));
      const byAccn = (accn: string) => filings.find((f) => f.accessionNumber === accn);
      const sources = [...new Set(used.map((u) => u.accn))].flatMap((accn) => {
        const f = byAccn(accn);
        return f ? [`Form ${f.form} for ${covered(f, calendar).text}, filed ${f.filingDate} ${cite(profile.company, f)}`] : [];
      });
      lines.push(`**${name}**: the figures given before are for ${ends.length === 1 ? `the period ended ${ends[0]}` : `periods ended ${ends[0]} to ${ends.at(-1)}`}, from filings made ${fileds.length === 1 ? `on ${fileds[0]}` : `from ${fileds[0]} to ${fileds.at(-1)}`}: the latest of those periods ended **${daysBetween(newest.end, today)} days ago** (today is ${today}).`);
      lines.push('');
      if (sources.length) lines.push(`- ${sources.join('; ')}.`);
    } else {
      const c = covered(latest, calendar);
      lines.push(`**${name}**: the newest figures in the data are from its Form ${latest.form} for ${c.text}, filed ${latest.filingDate} ${cite(profile.company, latest)}: that period ended **${daysBetween(latest.reportDate, today)} days ago** (today is ${today}).`);
      lines.push('');
    }
    const newer = used.length ? filings.filter((f) => f.reportDate > used.reduce((a, b) => (a.end > b.end ? a : b)).end) : [];
    if (newer.length) lines.push(`- Newer in the data: Form ${newer[0]!.form} for ${covered(newer[0]!, calendar).text}, filed ${newer[0]!.filingDate} ${cite(profile.company, newer[0]!)}; ask for "the latest quarter" for its figures.`);
    else lines.push(`- That is the latest ${latest.form === '10-K' ? 'annual' : 'quarterly'} period the data holds for ${short}: its latest filing is Form ${latest.form} filed ${latest.filingDate} ${cite(profile.company, latest)}.`);
    lines.push('');
  }
  if (DATA_AGE_ASKED.test(asked) && !NEXT_DUE_ASKED.test(asked) && !FILING_LAG_ASKED.test(asked)) {
    lines.push(recorded ? `The figures are read from a snapshot of SEC EDGAR recorded ${recorded}; filings made after that are not in it.` : 'The figures are read from SEC EDGAR as the question is asked (cached for a short while), so they are as recent as the company\'s latest filing.');
  }
  const note = lib.dataNote();
  const citations: Citation[] = await Promise.all(cited.map(async ({ company, filing }, i) => ({ order: i + 1, ...(await lib.citeFiling(company, filing)) })));
  yield { type: 'answer', answer: { text: `${lines.join('\n').trimEnd()}\n${note ? `\n_${note}_\n` : ''}`, citations } };
  yield { type: 'done' };
}

/** The facts behind a planned answer's figures for one company: their period ends, filing dates and accession numbers. */
function factsOf(plan: Plan, company: CompanyRef): { end: string; filed: string; accn: string }[] {
  const out: { end: string; filed: string; accn: string }[] = [];
  for (const f of plan.figures) {
    if (f.company.cik !== company.cik) continue;
    const values = f.result.kind === 'value' ? [f.result.value, f.result.compared?.value] : f.result.kind === 'calendar-year' ? f.result.quarters.map((q) => q.value) : [];
    for (const v of values) for (const t of v?.terms ?? []) out.push({ end: t.fact.end, filed: t.fact.filed, accn: t.fact.accn });
  }
  return out;
}

/** The accession numbers of a planned answer's figures for one company, the latest period first. */
function filingsOf(plan: Plan, company: CompanyRef): string[] {
  return [...new Set(factsOf(plan, company).sort((a, b) => (a.end < b.end ? 1 : -1)).map((f) => f.accn))];
}
