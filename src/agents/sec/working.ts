import type { AgentEvent } from '../types.js';
import { answerOf } from '../citations.js';

/**
 * "Show the formula you used", "show your working", "how did you calculate that?", "how was Q4 derived?", "formula?": the
 * arithmetic behind each computed figure of the answer before (growth, compound growth, margins and
 * shares of revenue, differences between companies, sums of quarters, a fourth quarter or another
 * figure derived from two filed ones, an annualized quarter), each with the numbers it was computed
 * from. The answer is read as this agent wrote it, made again from its question, never from text a
 * client sends back; a line is shown only when its arithmetic gives the figure the answer stated.
 * ("How is it calculated?", in the present, asks what a figure is: the glossary answers it.)
 */
export const WORKING_ASKED =
  /\b(?:show|give|explain|walk (?:me )?through|share|write out)\b[^?]{0,30}\b(?:formulas?|working|workings|work|calculations?|math|maths|computations?|arithmetic)\b|\bhow (?:did|was|were) (?:you|it|that|this|those|these|they|q[1-4]|the\s+(?:(?:first|second|third|fourth|1st|2nd|3rd|4th|last|latest)\s+quarter|q[1-4]|figure|number|total|sum|margin|growth|change))\b[^?]{0,15}\b(?:calculat|comput|derive|work(?:ed)? out|arrive|come up|figure[ds]? out|get (?:that|this|there|to|the|those|these|it|them)\b)\w*|\bwhat(?:'s| is| was) the (?:formula|calculation|math|maths|arithmetic)\b|^\W*(?:and\s+|the\s+|your\s+)*(?:formulas?|calculations?|math|maths|workings?|arithmetic)\W*$/i;

const MINUS = /[−–]/g;
const num = (s: string) => Number(s.replace(MINUS, '-').replace(/[,$+]/g, ''));
/** A percentage as the answers round them: one decimal, signed when asked. */
const pct = (x: number, signed = false) => `${signed && x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
/** Whether a computed percentage rounds to the one stated. */
const agrees = (computed: number, stated: string) => Math.abs(Number(computed.toFixed(1)) - num(stated)) < 0.051;
const refsIn = (s: string) => [...new Set(s.match(/\[\d+\]/g) ?? [])].join('');
const decimals = (s: string) => s.split('.')[1]?.length ?? 0;
/** An amount written with the separators and decimals of the ones it was computed from. */
const amount = (x: number, like: string[]) => x.toLocaleString('en-US', { minimumFractionDigits: Math.max(...like.map(decimals)), maximumFractionDigits: Math.max(...like.map(decimals)) });
const AMOUNT = String.raw`\$(-?[\d,]+(?:\.\d+)?)(?: (million|billion))?`;

/** Compound annual growth over a span of years (the tables of years). */
function compoundGrowth(text: string): string[] {
  const re = new RegExp(String.raw`\*\*([^*\n]+)\*\*, ([^:\n]+): ${AMOUNT} → ${AMOUNT}, \*\*([+\-−]\$[\d,.]+(?: \w+)?) \(([+\-−][\d.]+)%\)\*\*, \*\*([+\-−][\d.]+)% a year\*\* compounded over (\d+) years`, 'g');
  return [...text.matchAll(re)].flatMap((m) => {
    const [, label, span, s, unit, e, , , total, cagr, years] = m as unknown as string[];
    const [a, b, n] = [num(s!), num(e!), Number(years)];
    const rate = ((b / a) ** (1 / n) - 1) * 100;
    const change = ((b - a) / a) * 100;
    if (!agrees(rate, cagr!) || !agrees(change, total!)) return [];
    // (The figures' citations are on the table's columns: "| | FY2022 [1] | FY2023 [1] | FY2024 [2] |".)
    const header = text.slice(m.index!).split('\n').find((l) => l.startsWith('| |')) ?? '';
    const refs = span!.split(' to ').map((end) => refsIn(header.split('|').find((c) => c.trim().startsWith(`${end.trim()} `)) ?? '')).join('');
    return [`${label}, ${span}: compound annual growth = (${e} / ${s})^(1/${n}) − 1 = **${pct(rate, true)} a year**; total change = (${e} − ${s}) / ${s} = ${pct(change, true)}${unit ? ` (amounts in $ ${unit})` : ''} ${refs}.`];
  });
}

/** A figure against the same one of an earlier period ("Year over year: … was $81,797 million …; change +$3,980 million (+4.9%)"). */
function singleChange(text: string): string[] {
  const main = new RegExp(String.raw`\*\*([^*\n]+?)\*\*: ([^\n]+?) for ([^\n]+?) was \*\*${AMOUNT}[^*]*\*\*(?: \(about [^)]*\))?((?: ?\[\d+\])*)`).exec(text);
  if (!main) return [];
  const [, , label, period, now] = main as unknown as string[];
  const re = new RegExp(String.raw`- (Year over year|Quarter over quarter|Against [^:\n]+|[A-Z][\w ]+): ([^\n]+?) was ${AMOUNT}(?: per [\w ]+?)? \([^)]*\) ((?:\[\d+\])+); change ([+\-−]\$[\d,.]+(?: \w+)?) \(([+\-−][\d.]+)%\)`, 'g');
  return [...text.matchAll(re)].flatMap((m) => {
    const [, how, before, was, unit, refs, , stated] = m as unknown as string[];
    const change = ((num(now!) - num(was!)) / Math.abs(num(was!))) * 100;
    if (!agrees(change, stated!)) return [];
    return [`${capital(label!)}, ${period!.replace(/ \(.*$/, '')} against ${before!.replace(/ \(.*$/, '')} (${how!.toLowerCase()}): (${now} − ${was}) / ${was} = **${pct(change, true)}**${unit ? ` (amounts in $ ${unit})` : ''} ${refsIn(main[0])}${refs}.`];
  });
}

/** The cells of a markdown table's rows, by its header's names. */
function tables(text: string): Record<string, string>[][] {
  const out: Record<string, string>[][] = [];
  const cells = (line: string) => line.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || !/^\|[-:| ]+\|$/.test(lines[i + 1]!)) continue;
    const header = cells(lines[i]!);
    const rows: Record<string, string>[] = [];
    for (let j = i + 2; j < lines.length && lines[j]!.startsWith('|'); j++) rows.push(Object.fromEntries(cells(lines[j]!).map((c, k) => [header[k] ?? String(k), c])));
    out.push(rows);
  }
  return out;
}

/** Rows of a table of figures with their prior period and the change between them. */
function rowChanges(text: string): string[] {
  return tables(text).flat().flatMap((row) => {
    const value = /\$(-?[\d,.]+)(?: (million|billion))?/.exec(row['Value'] ?? '');
    const prior = /\$(-?[\d,.]+)/.exec(row['Prior value'] ?? '');
    const stated = /\(([+\-−][\d.]+)%\)/.exec(row['Change'] ?? '');
    if (!value || !prior || !stated || !row['Prior period']) return [];
    const change = ((num(value[1]!) - num(prior[1]!)) / Math.abs(num(prior[1]!))) * 100;
    if (!agrees(change, stated[1]!)) return [];
    return [`${row['Company']} ${lowerFirst(row['Figure'] ?? '')}, ${row['Period']!.replace(/ \(.*$/, '')} against ${row['Prior period']!.replace(/ \(.*$/, '')}: (${value[1]} − ${prior[1]}) / ${prior[1]} = **${pct(change, true)}**${value[2] ? ` (amounts in $ ${value[2]})` : ''} ${refsIn(`${row['Value']}${row['Prior value']}`)}.`];
  });
}

/**
 * Growth rows of a table of periods ("| ↳ year over year | — | +6.9% | +15.7% |" under "| **Revenue** ($ million) | 198,270 | …"):
 * each rate from the two columns it compares, when both are shown (a year back is the column before
 * in a table of years, four columns back in one of quarters).
 */
function periodGrowth(text: string): string[] {
  const out: string[] = [];
  const cells = (line: string) => line.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  let header: string[] = [];
  let figure: { label: string; unit: string; values: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      header = [];
      continue;
    }
    const row = cells(line);
    if (row[0] === '' && row.length > 2) header = row;
    const metric = /^\*\*(.+?)\*\* \(\$ (million|billion)\)$/.exec(row[0] ?? '');
    if (metric) figure = { label: metric[1]!, unit: metric[2]!, values: row.slice(1) };
    const growth = /^↳ (year over year|quarter over quarter)$/.exec(row[0] ?? '');
    if (!growth || !figure || !header.length) continue;
    const years = header.slice(1).every((h) => /^FY\d{4}\b/.test(h));
    const back = growth[1] === 'quarter over quarter' || years ? 1 : 4;
    row.slice(1).forEach((stated, i) => {
      const [now, was] = [figure!.values[i], figure!.values[i - back]];
      if (!now || !was || !/\d/.test(was) || !/^[+\-−][\d.]+%$/.test(stated)) return;
      const [a, b] = [now.replace(/[^\d,.\-−]/g, ''), was.replace(/[^\d,.\-−]/g, '')];
      const rate = ((num(a) - num(b)) / Math.abs(num(b))) * 100;
      if (!agrees(rate, stated.slice(0, -1))) return;
      const [h, hb] = [header[i + 1]!, header[i + 1 - back]!];
      out.push(`${figure!.label}, ${h.replace(/ *\[.*$/, '')} against ${hb.replace(/ *\[.*$/, '')} (${growth[1]}): (${a} − ${b}) / ${b} = **${pct(rate, true)}** (amounts in $ ${figure!.unit}) ${refsIn(h + hb)}.`);
    });
  }
  return out;
}

/** A margin over trailing twelve months ("Operating margin over the twelve months: 45.2% of revenue of $270,010 million", in bold or not). */
function twelveMonthMargins(text: string): string[] {
  const part = /([\w ]+), trailing twelve months \([^)]*\): (?:\*\*)?\$([\d,]+) (million|billion)/.exec(text);
  const margin = /([\w ]+ margin) over the twelve months: (?:\*\*)?(-?[\d.]+)%(?:\*\*)? of revenue of \$([\d,]+) (?:million|billion)/.exec(text);
  if (!part || !margin) return [];
  const share = (num(part[2]!) / num(margin[3]!)) * 100;
  if (!agrees(share, margin[2]!)) return [];
  return [`${capital(margin[1]!.trim())} over the twelve months: ${lowerFirst(part[1]!.replace(/^\*\*[^*]+\*\*: /, '').trim())} / revenue = ${part[2]} / ${margin[3]} = **${pct(share)}** (amounts in $ ${part[3]}).`];
}

/** What a margin is the share of revenue of. */
const NUMERATOR: Record<string, string> = { 'gross margin': 'gross profit', 'operating margin': 'operating income', 'net margin': 'net income', 'free cash flow margin': 'free cash flow' };

/** Percentages as computed, before rounding, by the first word of the company's name, the figure and the rounded value. */
type Precise = Map<string, number>;

/** Shares of revenue under a table ("- Apple Inc. (AAPL) gross margin: **46.2%** of revenue (fiscal year 2024 revenue $391,035 million, …"). */
function tableMargins(text: string, precise: Precise): string[] {
  const rows = tables(text).flat();
  const re = /^- (.+? \([A-Z][A-Z.-]*\)) (.+?): \*\*(-?[\d.]+)%\*\* of revenue \((.+?) revenue \$([\d,]+) (million|billion), [^[\n]*(\[\d+\])\)(?:; (.+?): (-?[\d.]+)% \(revenue \$([\d,]+) \w+, [^[\n]*(\[\d+\])\))?/gm;
  return [...text.matchAll(re)].flatMap((m) => {
    const [, company, label, stated, period, revenue, unit, refs, priorPeriod, priorStated, priorRevenue, priorRefs] = m as unknown as (string | undefined)[];
    const part = NUMERATOR[label!.toLowerCase()] ?? lowerFirst(label!);
    const row = rows.find((r) => r['Company'] === company && r['Figure']?.toLowerCase() === part.toLowerCase() && r['Period']?.startsWith(period!));
    const out: string[] = [];
    const of = (value: string | undefined, rev: string, want: string, when: string, cited: string) => {
      const v = /\$(-?[\d,.]+)/.exec(value ?? '')?.[1];
      if (!v) return;
      const share = (num(v) / num(rev)) * 100;
      if (agrees(share, want)) precise.set(`${company!.split(' ')[0]}|${label!.toLowerCase()}|${want}`, share);
      if (agrees(share, want)) out.push(`${company} ${label}, ${when}: ${part} / revenue = ${v} / ${rev} = **${pct(share)}** (amounts in $ ${unit}) ${refsIn(value ?? '')}${cited}.`);
    };
    of(row?.['Value'], revenue!, stated!, period!, refs!);
    if (priorPeriod && priorRevenue && priorStated) of(row?.['Prior value'], priorRevenue, priorStated, priorPeriod, priorRefs!);
    return out;
  });
}

/** A margin said with its parts ("gross margin … was **46.2%**: gross profit of $43,879 million … over revenue of $94,930 million"). */
function statedMargins(text: string): string[] {
  const re = new RegExp(String.raw`([\w ]+? margin) for ([^\n]+?) was \*\*(-?[\d.]+)%\*\*: ([\w ]+?) of ${AMOUNT}((?: \[\d+\]| \(derived\))*) over revenue of ${AMOUNT}((?: \[\d+\]| \(derived\))*)`, 'g');
  return [...text.matchAll(re)].flatMap((m) => {
    const [, label, period, stated, part, v, unit, vRefs, rev, , revRefs] = m as unknown as string[];
    const share = (num(v!) / num(rev!)) * 100;
    if (!agrees(share, stated!)) return [];
    return [`${capital(label!.trim())}, ${period!.replace(/ \(.*$/, '')}: ${part} / revenue = ${v} / ${rev} = **${pct(share)}**${unit ? ` (amounts in $ ${unit})` : ''} ${refsIn(vRefs! + revRefs!)}.`];
  });
}

/** A figure derived from two filed ones ("Derived as fiscal year 2024 $180,683 million (…) [1] minus nine months … $136,804 million (…) [2]"). */
function derived(text: string): string[] {
  const re = /(?:- (.+?), ([^:\n]+): )?Derived as (.+?) \$(-?[\d,.]+)( million| billion| per share)? \([^)]*\) ((?:\[\d+\])+) (minus|plus) (.+?) \$(-?[\d,.]+)(?: million| billion| per share)? \([^)]*\) ((?:\[\d+\])+)/g;
  const seen = new Set<string>();
  return [...text.matchAll(re)].flatMap((m) => {
    const [, what, when, aName, a, unit, aRefs, op, bName, b, bRefs] = m as unknown as (string | undefined)[];
    const result = op === 'minus' ? num(a!) - num(b!) : num(a!) + num(b!);
    const line = `${what ? `${what}, ${when}: ` : 'Derived: '}${aName} ${a} ${op === 'minus' ? '−' : '+'} ${bName} ${b} = **${amount(result, [a!, b!])}**${unit ? ` (${unit.trim() === 'per share' ? '$ per share' : `amounts in $ ${unit.trim()}`})` : ''} ${aRefs}${bRefs}.`;
    if (seen.has(line)) return [];
    seen.add(line);
    return [line];
  });
}

/** Sums of quarters ("**$350,018 million**, the sum of Q1 2024 $80,539 million [1], …"). */
function sums(text: string): string[] {
  const re = /\$(-?[\d,.]+)( million| billion| per diluted share)?\**,? \(?the sum of /g;
  return [...text.matchAll(re)].flatMap((m) => {
    const rest = text.slice(m.index! + m[0].length);
    const end = rest.search(/\)(?=[.;]|\s*$|\s*\n)|\.(?=\s|$)/);
    const list = end >= 0 ? rest.slice(0, end) : rest;
    const parts = [...list.matchAll(/(?:^|, )([^,$]+?) \$(-?[\d,.]+)/g)].map((p) => ({ name: p[1]!.trim(), value: p[2]! }));
    if (parts.length < 2) return [];
    const total = parts.reduce((s, p) => s + num(p.value), 0);
    const approx = Math.abs(total - num(m[1]!)) > (decimals(m[1]!) ? 0.0051 : 0.5);
    if (approx) return [];
    const unit = m[2]?.trim();
    const before = text.slice(Math.max(0, m.index! - 200), m.index!);
    const what = /(?:\*\*: )?([\w ]+), trailing twelve months \([^)]*\): \**$/.exec(before)?.[1] ?? /(\w+) of $/.exec(before)?.[1];
    return [`${what ? `${capital(what.trim())}, the sum of` : 'Sum of'} ${parts.map((p) => p.name).join(', ')}: ${parts.map((p) => p.value).join(' + ')} = **${m[1]}**${unit ? ` (${unit.startsWith('per') ? `$ ${unit}` : `amounts in $ ${unit}`})` : ''} ${refsIn(list)}.`];
  });
}

/** Two companies' percentages set against each other ("…, 69.8%, was 23.6 percentage points higher than Apple's …, 46.2%"). */
function pointGaps(text: string, precise: Precise): string[] {
  const re = /([A-Z][\w.&'-]*(?: [A-Z][\w.&'-]*)*)'s ([^,\n]+?)(?: for ([^,\n]+?))?, ([+\-−]?[\d.]+)%, was ([\d.]+) percentage points (higher|lower) than ([A-Z][\w.&'-]*(?: [A-Z][\w.&'-]*)*)'s(?: for ([^,\n]+?))?, ([+\-−]?[\d.]+)%/g;
  return [...text.matchAll(re)].flatMap((m) => {
    const [, a, label, , x, gap, , b, , y] = m as unknown as string[];
    const diff = num(x!) - num(y!);
    if (Math.abs(Math.abs(diff) - num(gap!)) < 0.051) return [`${a}'s ${label} against ${b}'s: ${x}% − ${y}% = **${diff.toFixed(1)} percentage points**.`];
    // The gap is of the margins before rounding ("45.7% against 31.0%" is 14.6 points apart: 45.67% − 31.03%).
    const [px, py] = [precise.get(`${a!.split(' ')[0]}|${label!.toLowerCase()}|${x}`), precise.get(`${b!.split(' ')[0]}|${label!.toLowerCase()}|${y}`)];
    if (px === undefined || py === undefined || Math.abs(Math.abs(px - py) - num(gap!)) > 0.051) return [];
    return [`${a}'s ${label} against ${b}'s: ${px.toFixed(2)}% − ${py.toFixed(2)}% = **${(px - py).toFixed(1)} percentage points** (the margins before rounding to ${x}% and ${y}%).`];
  });
}

/** A quarter simply annualized ("**$8.56 per diluted share** (derived): $2.14 per diluted share [1][2] times four"). */
function annualized(text: string): string[] {
  const re = /\*\*\$([\d,.]+) ([^*]+?)\*\*(?: \(derived\))?: \$([\d,.]+) [^[\n]*?((?:\[\d+\])+)(?: \(derived\))? times four/g;
  return [...text.matchAll(re)].flatMap((m) => {
    const [, result, unit, quarter, refs] = m as unknown as string[];
    const x = num(quarter!) * 4;
    if (amount(x, [quarter!]) !== result) return [];
    return [`Annualized: the quarter times four = ${quarter} × 4 = **${result}** ($ ${unit}) ${refs}.`];
  });
}

/**
 * A ratio or a difference of two figures at one date or over one period ("**0.84x**: total current
 * assets of $118,674 million [1] over total current liabilities of $141,120 million [1]", net debt
 * as long-term debt minus cash).
 */
function twoFigures(text: string): string[] {
  const re = /- \*\*(.+?)\*\* (at the end of [^:]+?|for [^:]+?): \*\*(-?\$?[\d,.]+)(x| million| billion)?[^*\n]*\*\*: ([\w' -]+?) of \$(-?[\d,.]+) (?:million|billion) ((?:\[\d+\])+) (over|minus) ([\w' -]+?) of \$(-?[\d,.]+) (million|billion) ((?:\[\d+\])+)/g;
  return [...text.matchAll(re)].flatMap((m) => {
    const [, what, when, stated, unit, aName, a, aRefs, op, bName, b, money, bRefs] = m as unknown as string[];
    const head = `${what}, ${when!.replace(/ \(.*$/, '')}: ${aName} ${op === 'over' ? '/' : '−'} ${bName}`;
    if (op === 'over') {
      const ratio = num(a!) / num(b!);
      if (Math.abs(ratio - num(stated!)) > 0.0051) return [];
      return [`${head} = ${a} / ${b} = **${ratio.toFixed(2)}${unit ?? ''}** (amounts in $ ${money}) ${aRefs}${bRefs}.`];
    }
    const diff = num(a!) - num(b!);
    if (Math.abs(diff - num(stated!)) > 0.5) return [];
    return [`${head} = ${a} − ${b} = **${amount(diff, [a!, b!])}** (amounts in $ ${money}) ${aRefs}${bRefs}.`];
  });
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "Sales and marketing expense" → "sales and marketing expense"; "SG&A expense" stays. */
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);
/** Citation markers said once each: "[1][1][2]" → "[1][2]". */
const dedupeRefs = (s: string) => s.replace(/(?:\[\d+\])+/g, (run) => [...new Set(run.match(/\d+/g)!.map(Number))].sort((a, b) => a - b).map((n) => `[${n}]`).join(''));

/** Each computed figure of an answer, as the arithmetic that gives it. */
export function workingOf(answer: string): string[] {
  const precise: Precise = new Map();
  const lines = [...compoundGrowth(answer), ...singleChange(answer), ...rowChanges(answer), ...periodGrowth(answer), ...tableMargins(answer, precise), ...twelveMonthMargins(answer), ...statedMargins(answer), ...pointGaps(answer, precise), ...twoFigures(answer), ...sums(answer), ...derived(answer), ...annualized(answer)];
  return [...new Set(lines.map((l) => dedupeRefs(l).replace(/\s+\./, '.').replace(/ {2,}/g, ' ')))];
}

/**
 * The working of an answer (its events, made again): the formulas with their numbers and the
 * citations they use, renumbered; said so when nothing in it was computed.
 */
export async function* answerWorking(events: AsyncIterable<AgentEvent>, dataNote: string | null): AsyncGenerator<AgentEvent> {
  const { text, citations } = await answerOf(events);
  const lines = workingOf(text);
  const note = dataNote ? `\n_${dataNote}_\n` : '';
  if (!lines.length) {
    yield { type: 'text', delta: `Nothing in that answer was computed: each figure in it is as the filing reports it, cited to its page. Ask for a change, a margin, a ratio or trailing twelve months ("and the growth?", "as a % of revenue?") and I can show how it is worked out.\n${note}` };
    return yield { type: 'done' };
  }
  // Renumbered in the order the formulas cite them.
  const order = [...new Set(lines.join(' ').match(/\[\d+\]/g) ?? [])].map((m) => Number(m.slice(1, -1)));
  const renumber = (s: string) => s.replace(/\[(\d+)\]/g, (_, n) => `[${order.indexOf(Number(n)) + 1}]`);
  const used = order.flatMap((n, i) => citations.filter((c) => c.order === n).map((c) => ({ ...c, order: i + 1 })));
  yield { type: 'text', delta: `How the computed figures of that answer are worked out, from the filed figures:\n\n${lines.map((l) => `- ${renumber(l)}`).join('\n')}\n${note}` };
  for (const citation of used) yield { type: 'citation', citation };
  yield { type: 'done' };
}
