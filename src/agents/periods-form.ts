import type { FormInstructed } from './instructions.js';
import type { Answer } from './types.js';
import { cited } from './citations.js';
import { figureName, figureNotes, figureRow, periodsOf, tablesUnderHeadings } from './router/restate.js';

/**
 * A table of periods (a company's figures "by fiscal quarter", a figure a row, "↳ year over year"
 * rows under it) said in a form that is no table: just the number (the latest period's figure,
 * naming it), plain words (a few short sentences), bullet points (a period a line, the latest
 * that many when a number of bullets was asked). Null for an answer that is no such table, or
 * another form (one sentence has periodsInOneSentence; a table is one already).
 */
export function periodsInForm(answer: Answer, asked: Pick<FormInstructed, 'form' | 'one' | 'count' | 'plain'>): Answer | null {
  if (asked.form !== 'number' && asked.form !== 'simple' && asked.form !== 'bullets') return null;
  const tables = periodTables(answer.text);
  if (!tables.length || tables.length > 3) return null;
  const said = tables.map((t) => (asked.form === 'number' ? latestNumbers(t, asked.one) : asked.form === 'simple' ? plainSentences(t) : periodBullets(t, tables.length > 1, asked.count, asked.plain)));
  if (said.some((s) => !s)) return null;
  const text = asked.form === 'number' ? (asked.one ? said[0]! : said.join('; ')) : asked.form === 'simple' ? said.join(' ') : said.join('\n');
  const data = answer.text.split('\n').map((l) => l.trim()).filter((l) => /^Data:\s/.test(l)).map((l) => `_${l.replace(/[.\s]+$/, '')}._`);
  const notes = [...new Set([...figureNotes(answer.text), ...data])];
  return cited(`${text}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`, answer.citations);
}

interface PeriodTable {
  company: string;
  rows: string[][];
  periods: { name: string; refs: string }[];
  figures: { figure: string; say: (k: number) => string; amountOf: (k: number) => number; known: number[]; yoy: (string | undefined)[]; derived: boolean[] }[];
}

/** Each table of periods in a text, with the company of the heading above it and its figures. */
function periodTables(text: string): PeriodTable[] {
  const tables: PeriodTable[] = [];
  for (const { company, rows } of tablesUnderHeadings(text)) {
    // (Only a table of periods in columns: its first head cell empty.)
    if (rows[0]![0] !== '' || rows[0]!.length < 3) return [];
    const figures: PeriodTable['figures'] = [];
    rows.slice(2).forEach((row, r) => {
      const f = figureRow(row);
      if (!f) return;
      // (A cell with no digits, "—", is no figure: figureRow reads it as 0.)
      const known = f.known.filter((k) => /\d/.test(row[k + 1] ?? ''));
      if (!known.length) return;
      const under = rows.slice(r + 3);
      const end = under.findIndex((x) => !x[0]!.startsWith('↳'));
      const yoyRow = under.slice(0, end < 0 ? undefined : end).find((x) => /year over year/.test(x[0]!));
      figures.push({ figure: f.figure, say: (k) => f.amount(f.values[k]!), amountOf: (k) => f.values[k]!, known, yoy: row.slice(1).map((_, k) => (yoyRow && /\d/.test(yoyRow[k + 1] ?? '') ? yoyRow[k + 1]!.replace('−', '-') : undefined)), derived: f.derived });
    });
    if (!figures.length) return [];
    tables.push({ company, rows, periods: periodsOf(rows), figures });
  }
  return tables;
}

const derivedTag = (f: PeriodTable['figures'][number], k: number) => (f.derived[k] ? ' (derived)' : '');

/** The latest period's figure ("**$95.4 billion** (Apple Inc.'s revenue, Q2 FY2025, the latest of 4 periods) [4]"), each figure's (the first only when one was asked). */
function latestNumbers(t: PeriodTable, one: boolean): string {
  const whose = t.company ? `${t.company}'s ` : '';
  const figures = t.figures.slice(0, one ? 1 : undefined);
  // (Several figures of the same latest period: the period said once, "**$95.4 billion** revenue, **$24.8 billion** net income (Apple Inc., Q2 FY2025, …) [4]".)
  const latest = new Set(figures.map((f) => f.known.at(-1)!));
  if (figures.length > 1 && latest.size === 1) {
    const k = [...latest][0]!;
    return `${figures.map((f) => `**${f.say(k)}**${derivedTag(f, k)} ${figureName(f.figure)}`).join(', ')} (${t.company ? `${t.company}, ` : ''}${t.periods[k]!.name}, the latest of ${t.periods.length} periods) ${t.periods[k]!.refs}`.trimEnd();
  }
  return figures.map((f) => {
    const k = f.known.at(-1)!;
    return `**${f.say(k)}** (${whose}${figureName(f.figure)}, ${t.periods[k]!.name}, the latest of ${t.periods.length} periods) ${t.periods[k]!.refs}${derivedTag(f, k)}`.trimEnd();
  }).join('; ');
}

/** A figure's name in everyday words. */
const PLAIN_FIGURE: Record<string, string> = { revenue: 'sales', 'net income': 'profit', 'gross profit': 'profit on what it sold', 'operating income': 'profit from running the business', 'diluted eps': 'profit for each share', 'free cash flow': 'cash left over', 'operating cash flow': 'cash from running the business', 'capital expenditure': 'spending on buildings and equipment', 'research and development': 'spending on research' };
/** "Q3 FY2024" → "Q3 of its 2024 business year"; "FY2024" → "its 2024 business year". */
const plainPeriod = (p: string) => p.replace(/^(Q\d) FY(\d{4})$/, '$1 of its $2 business year').replace(/^FY(\d{4})$/, 'its $1 business year');
/** "$85.8 billion" → "about $86 billion". */
const rough = (s: string) => s.replace(/^(-?)\$(\d+(?:\.\d+)?) billion$/, (m, sign: string, n: string) => (Number(n) >= 10 ? `${sign ? 'minus ' : ''}about $${Math.round(Number(n))} billion` : m));

/** Plain short sentences: each figure (up to two) at the first and the latest period, and how it moved on a year before. */
function plainSentences(t: PeriodTable): string {
  const name = t.company.replace(/,?\s+(?:Inc|Corp|Co|Ltd|Corporation|Incorporated)\.?$/, '') || 'The company';
  const out: string[] = [];
  t.figures.slice(0, 2).forEach((f, i) => {
    const what = PLAIN_FIGURE[f.figure.toLowerCase()] ?? figureName(f.figure);
    const [a, b] = [f.known[0]!, f.known.at(-1)!];
    const at = (k: number) => `${rough(f.say(k))} in ${plainPeriod(t.periods[k]!.name)} ${t.periods[k]!.refs}`.trimEnd();
    const who = i ? 'Its' : `${name}'s`;
    const [verb, they] = /s$/.test(what) ? ['were', 'they'] : ['was', 'it'];
    if (a === b) out.push(`${who} ${what} ${verb} ${at(b)}.`);
    else {
      out.push(`${who} ${what} ${verb} ${at(a)}.`);
      out.push(`In ${plainPeriod(t.periods[b]!.name)}, the latest, ${they} ${verb} ${`${rough(f.say(b))} ${t.periods[b]!.refs}`.trimEnd()}.`);
    }
    const yoy = f.yoy[b];
    const rate = yoy ? Number(yoy.replace(/[^\d.\-]/g, '')) : NaN;
    if (Number.isFinite(rate) && Math.round(rate) !== 0) out.push(`That is ${Math.abs(Math.round(rate))}% ${rate > 0 ? 'more' : 'less'} than a year before.`);
  });
  return out.join(' ');
}

/**
 * A period a bullet, its figures beside it ("- Q2 FY2025: revenue $95.4 billion (+5.1% y/y) [4]");
 * the latest `count` when a number was asked. In plain words (`plain`, "explain like I'm 12, in 2
 * bullets"): "- In Q2 of its 2025 business year, Apple's sales were about $95 billion, 5% more than a year before [4]".
 */
function periodBullets(t: PeriodTable, named: boolean, count?: number, plain = false): string {
  const ks = [...new Set(t.figures.flatMap((f) => f.known))].sort((a, b) => a - b);
  const kept = count && count < ks.length ? ks.slice(-count) : ks;
  const name = t.company.replace(/,?\s+(?:Inc|Corp|Co|Ltd|Corporation|Incorporated)\.?$/, '') || 'the company';
  const lines = kept.map((k) => {
    if (plain) {
      const said = t.figures.filter((f) => f.known.includes(k)).map((f, i) => {
        const what = PLAIN_FIGURE[f.figure.toLowerCase()] ?? figureName(f.figure);
        const rate = f.yoy[k] ? Number(f.yoy[k]!.replace(/[^\d.\-]/g, '')) : NaN;
        const moved = Number.isFinite(rate) && Math.round(rate) !== 0 ? `, ${Math.abs(Math.round(rate))}% ${rate > 0 ? 'more' : 'less'} than a year before` : '';
        return `${i ? 'its' : `${name}'s`} ${what} ${/s$/.test(what) ? 'were' : 'was'} ${rough(f.say(k))}${moved}`;
      });
      return `- In ${plainPeriod(t.periods[k]!.name)}, ${said.join('; ')} ${t.periods[k]!.refs}`.trimEnd();
    }
    const figures = t.figures.filter((f) => f.known.includes(k)).map((f) => `${figureName(f.figure)} ${f.say(k)}${derivedTag(f, k)}${f.yoy[k] ? ` (${f.yoy[k]} y/y)` : ''}`);
    return `- ${named && t.company ? `${t.company}, ` : ''}${t.periods[k]!.name}: ${figures.join(', ')} ${t.periods[k]!.refs}`.trimEnd();
  });
  const left = ks.length - kept.length;
  return `${lines.join('\n')}${left ? `\n\n_${left} earlier ${left === 1 ? 'period' : 'periods'} not shown._` : ''}`;
}
