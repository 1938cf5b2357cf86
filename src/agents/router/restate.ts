import type { Answer, Citation, Turn } from '../types.js';
import { cited } from './report-rows.js';

// "Explain that simply", "ok explain like I'm 12", "summarize in one sentence", "summarize everything
// we talked about": the answer before (or every answer of the thread), restated in plain words from
// its own text, whichever agent gave it. The router answers the earlier question again (answers are
// deterministic), so the restatement keeps that answer's sources.

export type RestateForm = 'simple' | 'sentence' | 'thread';

const SIMPLE = /\bexplain\s+(?:it|that|this|them)?\s*(?:(?:more|a bit|a little)\s+)?(?:simply|simpler|more simply|in simple(?:r)? (?:words|terms))\b|\b(?:in\s+)?(?:simple|simpler|plain|plainer|everyday|layman'?s?)\s+(?:words|terms|english|language)\b|\blike\s+(?:i'?m|im|i\s+am)\s+(?:\d{1,2}|a\s+(?:kid|child|teenager))\b|\beli\d+\b|\bdumb\s+it\s+down\b|\b(?:simplify|simpler)\b|\bsimply\s+put\b|\bi\s+(?:don'?t|do\s+not)\s+(?:understand|get\s+it)\b|\bwhat(?:'s|\s+does|\s+do|\s+is)\s+(?:this|that|it|all\s+(?:this|that))\s+(?:all\s+)?mean(?:ing)?\b(?:\s+(?:for\s+me|in\s+practice|exactly))?|^\W*(?:(?:ok|so|and|um+|uh+)\W+)*(?:meaning|which\s+means|in\s+english)\W*$/i;
const SENTENCE = /\b(?:summar(?:ize|ise)|sum\s+(?:it|that|this)\s+up)\b[^?]*\b(?:one|a|1|single)\s+(?:short\s+)?sentence\b|^\W*(?:(?:ok|so|and|now|just)\W+)*(?:(?:in|as)\s+)?(?:one|a|1|single)\s+(?:short\s+)?sentence\W*(?:please|pls)?\W*$/i;
const THREAD = /\b(?:summar(?:ize|ise|y of)|recap|sum\s+up|go\s+over)\b[^?]*\b(?:everything|all\s+(?:of\s+)?(?:this|that|it)|(?:the\s+)?(?:whole|entire)\s+(?:conversation|chat|thread)|(?:what\s+)?we(?:'ve)?\s+(?:talked|spoke|discussed|covered)\b)/i;

/** Words around a form asked that ask nothing themselves. */
const FILLER = /\b(?:ok(?:ay)?|so|and|now|then|just|but|please|pls|plz|can|could|would|you|u|me|to|for|it|that|this|them|explain|say|put|again|more|a|an|the|thanks?|thank|great|cool|in|words|terms|version|summar(?:ize|ise)|sum|up)\b/gi;

/** The form a question asks of the answer before, when it asks only that; null otherwise. */
export function restateAsked(question: string): RestateForm | null {
  if (THREAD.test(question)) return 'thread';
  const form: RestateForm | null = SENTENCE.test(question) ? 'sentence' : SIMPLE.test(question) ? 'simple' : null;
  if (!form) return null;
  const rest = [SIMPLE, SENTENCE].reduce((q, p) => q.replace(new RegExp(p.source, 'gi'), ' '), question).replace(FILLER, ' ');
  return /[a-z0-9]/i.test(rest) ? null : form;
}

/** The user's earlier questions that asked something of their own (not a restatement, thanks or greeting), oldest first. */
export function askedBefore(before: readonly Turn[]): { index: number; question: string }[] {
  return before.flatMap((t, index) => (t.role === 'user' && !restateAsked(t.content) && /[a-z]{3,}/i.test(t.content) && !/^\W*(?:hi|hello|hey|thanks?(?: you)?|thx|ok(?:ay)?)\W*$/i.test(t.content) ? [{ index, question: t.content }] : []));
}

/** A text's first sentence ("Apple Inc." and "vs." end none). */
const firstSentence = (s: string) => /^(.+?(?<!\b(?:Inc|Corp|Co|Ltd|vs|No|e\.g|i\.e))[.!?])(?:\s+(?=[A-Z“"(])|$)/.exec(s)?.[1] ?? s;
const strip = (s: string) => s.replace(/\*\*|__|`/g, '').replace(/^#+\s*/, '').replace(/\s+/g, ' ').trim();
const about = (p: string) => `about ${Math.round(Number(p))}%`;
/** "$24,780 million" → "$24.8 billion": large amounts in the words people use. */
const billions = (s: string) => s.replace(/(-?)\$([\d,]+(?:\.\d+)?) million\b/g, (m, sign: string, n: string) => {
  const v = Number(n.replace(/,/g, ''));
  return v >= 1000 ? `${sign}$${(v / 1000).toFixed(1)} billion` : m;
});
/** The bits an expert reads and a beginner skips: dates in brackets, the mid, accession numbers, tags. */
const plainer = (s: string) =>
  billions(
    s
      // (A gap taken against the normalised share reads wrong once that share is dropped: "at 51%; … at 52%, a gap of +4.2 pts".)
      .replace(/(\s*\(mid; [\d.]+% normalised\)),\s+a gap of [+−-]?[\d.]+ (?:pts|points)/g, '$1')
      .replace(/\$[\d,]+ million \((about \$[\d.]+ billion)\)/g, '$1')
      .replace(/\s*\((?:(?:quarter|year|nine months|six months) ended|\d{4}-\d{2}-\d{2}|mid\b|last trade|derived|accession)[^)]*\)/gi, '')
      .replace(/\s*\(derived\)/g, '')
      .replace(/(?<![\d.])(\d+)\.\d%/g, (m) => `${Math.round(parseFloat(m))}%`),
  );

/** "Hike 25bps 51.5%" → its name and chance; bold when the question before named it. */
function outcomesOf(list: string): { name: string; chance: string; asked: boolean }[] {
  return list.split(/;\s*/).flatMap((o) => {
    const m = /^(\*\*)?(.+?)\s+(\d+(?:\.\d+)?)%(?:\s*\([^)]*\))?(\*\*)?$/.exec(o.trim());
    return m ? [{ name: m[2]!, chance: m[3]!, asked: Boolean(m[1]) }] : [];
  });
}

/** A search's listing line, "1. **Title** (TICKER, Category) [1]: A 51.5%; B 33.0%. Closes …", said as traders' chances. */
function listingSaid(line: string): string | null {
  // (Or an event's live prices given alone, "On its live prices (no report is stored …): **Title** (…) [1]: …".)
  const m = /^(?:\d+\.\s+|On its live prices\s+\([^()]*\):\s+)\*\*(.+?)\*\*\s+\([^)]*\)\s*((?:\[\d+\])+):\s+(.+?)\.\s+(?:Closes|Closed)\b/.exec(line);
  if (!m) return null;
  const [, title, refs, list] = m;
  const outcomes = outcomesOf(list!);
  if (!outcomes.length) return null;
  const market = `On Kalshi's “${title}” market`;
  const asked = outcomes.filter((o) => o.asked);
  if (asked.length) return `${market}, traders put ${asked.map((o) => `${about(o.chance)} on “${o.name}”`).join(' and ')} ${refs}.`;
  if (outcomes.length === 1) return `${market}, traders put the chance of “${outcomes[0]!.name}” at ${about(outcomes[0]!.chance)} ${refs}.`;
  // A ladder's rungs are each a yes/no on one level, not results of which one happens: its ends, as priced.
  if (outcomes.every((o) => /^(?:above|below|at least|at most|over|under)\b/i.test(o.name))) {
    const [low, high] = [outcomes[0]!, outcomes.at(-1)!];
    return `${market}, each level is its own yes-or-no: traders put “${low.name}” at ${about(low.chance)} and “${high.name}” at ${about(high.chance)} ${refs}.`;
  }
  const [top, next] = [...outcomes].sort((a, b) => Number(b.chance) - Number(a.chance));
  return `${market}, traders see “${top!.name}” as the likeliest result, at ${about(top!.chance)}, ahead of “${next!.name}” at ${about(next!.chance)} ${refs}.`;
}

/**
 * A listing's sentence (listingSaid) in the fewest words that keep its odds: "Hike 25bps leads at
 * about 52% [1].", "“Shutdown” is at about 58% [1]."; null for any other sentence.
 */
function compactOdds(said: string): string | null {
  const m =
    /^On Kalshi's “.+?” market, traders see “(.+?)” as the likeliest result, at (about [\d.]+%), ahead of .+? ((?:\[\d+\])+)\.$/.exec(said) ??
    /^On Kalshi's “.+?” market, traders put the chance of “(.+?)” at (about [\d.]+%) ((?:\[\d+\])+)\.$/.exec(said);
  if (m) return `${m[1]} ${said.includes('likeliest') ? 'leads at' : 'is at'} ${m[2]} ${m[3]}.`;
  const put = /^On Kalshi's “.+?” market, (?:each level is its own yes-or-no: )?traders put (.+?) ((?:\[\d+\])+)\.$/.exec(said);
  if (!put) return null;
  // ("about 52% on “Hike 25bps” and about 16% on “Hold”", "“Above 2.6” at about 93% and …": each name with its chance.)
  const pairs = [...put[1]!.matchAll(/(about [\d.]+%) on “(.+?)”|“(.+?)” at (about [\d.]+%)/g)].map((x) => `${x[2] ?? x[3]} ${x[1] ?? x[4]}`);
  return pairs.length ? `${pairs.join(', ')} ${put[2]}.` : null;
}

/** A report's outcome line, "- **Hold**: market 16.0% (mid), model 12.4%, gap … [1]", said as a chance and the model's. */
function outcomeSaid(line: string): string | null {
  const m = /^-\s+\*\*(.+?)\*\*:\s+market\s+(\d+(?:\.\d+)?)%(?:\s*\([^)]*\))?,\s+model\s+(\d+(?:\.\d+)?)%.*?((?:\[\d+\])+)\s*$/.exec(line);
  return m ? `Traders put ${about(m[2]!)} on “${m[1]}”; the svc model, which also weighs how past events resolved, says ${about(m[3]!)} ${m[4]}.` : null;
}

/** "**Apple Inc. (AAPL)**: net margin for … was **26.0%** …" → "Apple Inc.'s net margin for … was 26.0% …". */
function figureSaid(line: string): string | null {
  const m = /^\*\*([^*]+?)\s+\([A-Z.-]{1,6}\)\*\*:\s+(.+)$/.exec(line);
  if (!m) return null;
  const first = firstSentence(m[2]!);
  const rest = plainer(strip(first));
  // ("Apple Inc.'s net margin …", but "Alphabet Inc.: the figures given before …".)
  return `${m[1]}${/^(?:the|its|their|a|an|no|this|that)\b/i.test(rest) ? ':' : "'s"} ${rest}`.replace(/\.?$/, '.');
}

/** A side of an answer joining a company and a market, "**Apple Inc. (AAPL)** (SEC filings): …", in its first sentence. */
function sideSaid(line: string): string | null {
  const m = /^\*\*([^*]+)\*\*\s+\((SEC filings|Kalshi)\):\s+(.+)$/.exec(line);
  if (!m) return null;
  const [, name, source, rest] = m;
  const said = plainer(strip(firstSentence(rest!)))
    .replace(/^the market's favourite is (.+?) at (\d+%), model (\d+%)/, 'traders favour “$1” at about $2, and the svc model says $3')
    .replace(/^the most likely range is (.+?): market (\d+%), model (\d+%)/, 'traders see $1 as the likeliest range, at about $2, and the svc model says $3');
  // ("Nvidia Corp. (NVDA) is not in this snapshot …" names the company itself.)
  const own = said.startsWith(name!.replace(/\s*\([A-Z.-]+\)$/, ''));
  if (source === 'Kalshi') return `On Kalshi's “${name}” market, ${said}`.replace(/\.?$/, '.');
  // ("Apple Inc.'s net margin …", as figureSaid says a figure.)
  const company = name!.replace(/\s*\([A-Z.-]+\)$/, '');
  return (own ? said : `${company}${/^(?:the|its|their|a|an|no|this|that)\b/i.test(said) ? ':' : "'s"} ${said}`).replace(/\.?$/, '.');
}

/** A table of figures (Company | Figure | Period | Value …), each company's figure over its periods in a sentence. */
function tableSaid(lines: string[], named = '', brief = false): string[] {
  const cells = (l: string) => l.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const head = cells(lines[0]!).map((c) => c.toLowerCase());
  if (head[0] === '' && head.length > 2) return brief ? periodsInBrief(lines.map(cells), named) : periodsSaid(lines.map(cells), named);
  const [company, figure, period, value] = ['company', 'figure', 'period', 'value'].map((h) => head.indexOf(h));
  const change = head.indexOf('change');
  if (value! < 0 || period! < 0) return [];
  const groups = new Map<string, string[][]>();
  for (const l of lines.slice(2)) {
    const row = cells(l);
    const key = `${company! >= 0 ? row[company!] : ''}\u0000${figure! >= 0 ? row[figure!] : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].map(([key, rows]) => {
    const [who, what] = key.split('\u0000');
    const subject = `${who ? `${who.replace(/\s+\([A-Z.-]+\)$/, '')}'s ` : ''}${(what ?? 'figure').toLowerCase()}`;
    const at = (r: string[]) => `${plainer(r[value!]!)} in ${plainer(r[period!]!)}`;
    if (rows.length === 1) return `${capital(subject)} was ${at(rows[0]!)}${change >= 0 && rows[0]![change] && rows[0]![change] !== '—' ? `, a change of ${rows[0]![change]!.replace(/^.*\((.+)\)$/, '$1')} on a year before` : ''}.`;
    const amount = (r: string[]) => Number(/-?[\d,.]+/.exec(r[value!]!.replace(/\[\d+\]/g, ''))?.[0]?.replace(/,/g, '') ?? NaN);
    const sorted = [...rows].filter((r) => Number.isFinite(amount(r))).sort((a, b) => amount(a) - amount(b));
    return `Over those ${rows.length} periods, ${subject} ran from ${at(sorted[0]!)} to ${at(sorted.at(-1)!)}.`;
  });
}
/**
 * A table of periods in columns (| | Q3 FY2024 [1] | … |, a figure a row, "↳ year over year" rows
 * under it): each figure's lowest and highest, and the latest with its change on a year before.
 */
function periodsSaid(rows: string[][], company: string): string[] {
  const periods = periodsOf(rows);
  const out: string[] = [];
  rows.slice(2).forEach((row, i) => {
    const f = figureRow(row);
    if (!f) return;
    const { figure, values, amount, known } = f;
    const at = (k: number) => `${amount(values[k]!)} in ${periods[k]!.name} ${periods[k]!.refs}`.trimEnd();
    const [low, high] = [known.reduce((a, k) => (values[k]! < values[a]! ? k : a)), known.reduce((a, k) => (values[k]! > values[a]! ? k : a))];
    const latest = known.at(-1)!;
    const yoy = rows.slice(i + 3).find((r, j, rest) => /year over year/.test(r[0]!) && !rest.slice(0, j).some((x) => x[0]!.startsWith('**')))?.[latest + 1];
    const subject = `${company ? `${company}'s ` : ''}${figureName(figure)}`;
    out.push(`${capital(subject)} ran from ${at(low)} to ${at(high)} over these ${periods.length} periods; the latest, ${periods[latest]!.name}, was ${amount(values[latest]!)}${yoy && /\d/.test(yoy) ? ` (${yoy.replace('−', '-')} on a year before)` : ''}.`);
  });
  return out;
}

/** A table of periods' column heads: each period's name and its citation markers. */
export const periodsOf = (rows: string[][]) => rows[0]!.slice(1).map((p) => ({ name: p.replace(/\s*(?:\[\d+\])+$/, ''), refs: /(?:\[\d+\])+$/.exec(p)?.[0] ?? '' }));

/** A figure's row of a table of periods ("**Revenue** ($ million) | 56,189† | …"): its name, values, how to say one, the periods it has a value for. */
export function figureRow(row: string[]) {
  const m = /^\*\*(.+?)\*\*\s*(?:\((.+?)\))?$/.exec(row[0]!);
  if (!m) return null;
  const [, figure, unit = ''] = m;
  const scale = /\$ million/.test(unit) ? 1e6 : /\$ billion/.test(unit) ? 1e9 : 0;
  const values = row.slice(1).map((c) => Number(c.replace(/[^\d.\-−]/g, '').replace('−', '-')));
  const amount = (v: number) => (scale ? (Math.abs(v * scale) >= 1e9 ? `$${((v * scale) / 1e9).toFixed(1)} billion` : `$${Math.round((v * scale) / 1e6).toLocaleString('en-US')} million`) : unit === '$ per share' ? `$${v.toFixed(2)} a share` : `${v}${unit ? ` ${unit}` : ''}`);
  const known = values.map((v, k) => k).filter((k) => Number.isFinite(values[k]));
  return known.length ? { figure: figure!, values, amount, known, derived: row.slice(1).map((c) => c.includes('†')) } : null;
}

/** A figure's name inside a sentence: lower case, but for its acronyms ("diluted EPS"). */
export const figureName = (figure: string) => figure.split(' ').map((w) => (/^[A-Z]{2,}s?$/.test(w) ? w : w.toLowerCase())).join(' ');

/**
 * A table of periods in one short sentence: its first two figures from the first period to the
 * latest ("Microsoft Corp.'s revenue went from $56.2 billion in Q4 FY2023 to $70.1 billion in Q3
 * FY2025, and its net income from $20.1 billion to $25.8 billion [1][9]"), not every figure's range.
 */
function periodsInBrief(rows: string[][], company: string): string[] {
  const periods = periodsOf(rows);
  const figures = rows.slice(2).flatMap((row, i) => {
    const f = figureRow(row);
    // (Its margin, the row under it, "↳ gross margin (% of revenue)", said beside it.)
    const under = rows.slice(i + 3).findIndex((r) => !r[0]!.startsWith('↳'));
    const margin = f && rows.slice(i + 3, under < 0 ? undefined : i + 3 + under).find((r) => /^↳\s*[\w ]*margin\b/.test(r[0]!));
    return f ? [{ ...f, margin: margin ? { name: /^↳\s*([\w ]*margin)\b/.exec(margin[0]!)![1]!, values: margin.slice(1) } : null }] : [];
  }).slice(0, 2);
  if (!figures.length) return [];
  const [first, last] = [figures[0]!.known[0]!, figures[0]!.known.at(-1)!];
  const refs = [...new Set(`${periods[first]!.refs}${periods[last]!.refs}`.match(/\[\d+\]/g) ?? [])].join('');
  const span = (f: (typeof figures)[number], named: boolean) => {
    const [a, b] = [f.known[0]!, f.known.at(-1)!];
    const margin = f.margin && /\d/.test(f.margin.values[a] ?? '') && /\d/.test(f.margin.values[b] ?? '') ? ` (${f.margin.name} ${a === b ? f.margin.values[a] : `${f.margin.values[a]} to ${f.margin.values[b]}`})` : '';
    // (A figure derived, not reported as such, "56,189†", marked so.)
    const said = (k: number) => `${f.amount(f.values[k]!)}${f.derived[k] ? ' (derived)' : ''}`;
    if (a === b) return `${said(a)} in ${periods[a]!.name}${margin}`;
    return `${named ? 'went ' : ''}from ${said(a)}${named ? ` in ${periods[a]!.name}` : ''} to ${said(b)}${named ? ` in ${periods[b]!.name}` : ''}${margin}`;
  };
  const whose = company ? `${company}'s ` : '';
  const lead = `${capital(`${whose}${figureName(figures[0]!.figure)}`)} ${first === last ? 'was ' : ''}${span(figures[0]!, true)}`;
  const second = figures[1] ? `, and its ${figureName(figures[1].figure)} ${figures[1].known[0] === figures[1].known.at(-1) ? 'was ' : ''}${span(figures[1], false)}` : '';
  return [`${lead}${second} ${refs}.`.replace(/ \./, '.')];
}
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Each claim of an answer in plain words, in its order: listings, outcomes, figures, tables, then
 * its first prose sentence. `brief`: a table of periods in one short sentence, not a figure's range a sentence.
 */
export function plainClaims(text: string, brief = false): string[] {
  const lines = text.split('\n');
  const claims: string[] = [];
  let prose: string | null = null;
  let company = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (/^#+\s/.test(line)) company = /^#+\s+([^(]+?)\s+\([A-Z.-]{1,6}\)/.exec(line)?.[1] ?? company;
    if (line.startsWith('|')) {
      const block: string[] = [];
      while (i < lines.length && lines[i]!.trim().startsWith('|')) block.push(lines[i++]!);
      claims.push(...tableSaid(block, company, brief));
      continue;
    }
    const said = listingSaid(line) ?? outcomeSaid(line) ?? sideSaid(line) ?? figureSaid(line);
    if (said) claims.push(said);
    // The first sentence of prose that is not a note about the data or how prices are read.
    else if (!prose && line && !/^(?:[-_#>|†•]|\*\s|\d+\.|Prices are|A report is|Reports are|For a research|Open Kalshi events|No open Kalshi|Key figures|Data:)/.test(line) && !/:\s*$/.test(line)) prose = plainer(strip(firstSentence(line)));
  }
  return prose && !claims.some((c) => c.includes(prose!)) ? [prose, ...claims] : claims;
}

/**
 * Sentences in turn, a company named at the end of one not named again at the start of the next:
 * "… links “Shutdown?” to Apple Inc. Apple Inc.'s net margin …" reads "… to Apple Inc. Its net margin …".
 * (Not where the one before ends on a list, "to Apple Inc. and Microsoft Corp.": "its" would be either.)
 */
function unrepeated(sentences: string[]): string[] {
  return sentences.map((s, i) => {
    const m = /^([A-Z][^'’:]{1,60}?)['’]s\s/.exec(s);
    if (!m) return s;
    // (Its name may end the sentence on its own full stop: "… to Apple Inc.")
    const name = m[1]!.replace(/\.$/, '');
    const before = (sentences[i - 1] ?? '').trimEnd().replace(/\.$/, '');
    if (!before.endsWith(` ${name}`) || /\b(?:and|or),?$/.test(before.slice(0, -name.length).trimEnd())) return s;
    return `Its ${s.slice(m[0].length)}`;
  });
}

/**
 * A sentence going on after a semicolon or a colon ("Put simply: traders put …"): its first word in
 * lower case when it is an ordinary word ("On Kalshi's …", "Nothing I read …"), never a name
 * ("Apple Inc.'s …", "Hike 25bps …") nor "I".
 */
export const uncapitalised = (c: string) =>
  c.replace(/^(On|In|At|For|By|With|Over|Under|Since|From|Of|About|Between|Across|Above|Below|The|A|An|Its|Their|This|That|These|Those|It|They|We|You|Your|Traders|Both|Each|Every|Nothing|No|None|Neither|Some|Most|All|There|Here|If|When|What|Which|Whether|Only|Not|Prices|Buying|Selling|Yes)\b(?![.'’]\w)/, (w) => w.toLowerCase());

/**
 * An answer's notes on its figures, kept whatever form it is said in: its italic lines (the data's
 * time and source, a market closed, no model probability) without the advice on what to ask next,
 * and the time of a listing's prices ("… with current prices (as of 2026-11-19 15:00 UTC):").
 */
export function figureNotes(text: string): string[] {
  const notes: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const italic = /^_([^_].*)_$/.exec(line);
    if (italic) {
      const kept = italic[1]!.split(/;\s+/).filter((c) => !/^(?:ask\b|send\b|for (?:a|the) (?:research )?(?:whole )?report\b|try\b|see\b)/i.test(c));
      if (kept.length) notes.push(`_${kept.join('; ').replace(/[.;,\s]+$/, '')}._`);
    } else if (/^\d+\.\s+\*\*.+?\.\s+Closed\s+[^.]*\d/.test(line)) {
      // (A listed event whose trading has closed: its prices are the last it had.)
      const m = /^\d+\.\s+\*\*(.+?)\*\*.*?\.\s+Closed\s+([^.]*\d(?:\s+UTC)?)/.exec(line)!;
      notes.push(`_“${m[1]}” closed ${m[2]}: its prices are the last it traded at._`);
    } else if (/:\s*$/.test(line) && !/^[-|#*]/.test(line)) {
      const at = /\(as of ([^)]+)\)/.exec(line)?.[1];
      if (at) notes.push(`_${/kalshi/i.test(line) ? 'Kalshi prices' : 'Figures'} as of ${at}._`);
    }
  }
  return [...new Set(notes)];
}

/** An answer's notes on its figures under its restatement (none: nothing under it). */
export const notesUnder = (text: string) => {
  const notes = figureNotes(text);
  return notes.length ? `\n${notes.join('\n')}\n` : '';
};

/**
 * An answer restated: a few plain sentences ('simple'), or one ('sentence'), with the notes on its
 * figures under them; null when nothing in it can be said plainly.
 */
export function restated(answer: Answer, form: 'simple' | 'sentence', words?: number): Answer | null {
  const claims = form === 'sentence' ? sentenceClaims(answer.text, words) : plainClaims(answer.text);
  if (!claims.length) return null;
  // (A long lead of prose, "I do not give investment advice (…), and nothing I read links … : …", to its first clause.)
  const short = (c: string, i: number) => (i === 0 && c.length > 160 && !/\[\d+\]/.test(c) ? c.replace(/\s*\([^)]*\)/g, '').replace(/^(.{60,}?):\s.*$/, '$1').replace(/\.?$/, '.') : c);
  let text = form === 'sentence' ? `${claims.slice(0, 2).map((c, i) => (i ? uncapitalised(c) : c).replace(/\.$/, '')).join('; ')}.` : `Put simply: ${unrepeated(claims.slice(0, 3).map(short)).map((c, i) => (i ? c : uncapitalised(c))).join(' ')}`;
  // (Too many words for the limit asked, "in 10 words or fewer": a market's odds said bare, the odds first, not cut off before them.)
  if (form === 'sentence' && words && wordCount(text) > words) {
    const bare = compactOdds(claims[0]!);
    if (bare && wordCount(bare) <= words) text = bare;
  }
  // (The notes that qualify its figures, the time of the data, a market closed, kept under it.)
  return cited(`${text}\n${notesUnder(answer.text)}`, answer.citations);
}

/** Each Markdown table of a text as rows of trimmed cells, with the company named by the heading above it ("### Apple Inc. (AAPL), …"). */
export function tablesUnderHeadings(text: string): { company: string; rows: string[][] }[] {
  const lines = text.split('\n').map((l) => l.trim());
  const tables: { company: string; rows: string[][] }[] = [];
  let company = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#+\s/.test(lines[i]!)) company = /^#+\s+([^(]+?)\s+\([A-Z.-]{1,6}\)/.exec(lines[i]!)?.[1] ?? '';
    if (!lines[i]!.startsWith('|')) continue;
    const block: string[] = [];
    while (i < lines.length && lines[i]!.startsWith('|')) block.push(lines[i++]!);
    tables.push({ company, rows: block.map((l) => l.replace(/^\||\|$/g, '').split('|').map((c) => c.trim())) });
  }
  return tables;
}

/**
 * A table of periods (a company's figures "by fiscal quarter") in one sentence, as one sentence is
 * asked of it: its first two figures from the first period to the latest, cited to those periods,
 * with the data's notes under it (two or three companies' tables: each so, in turn); null for an
 * answer that is no such table.
 */
export function periodsInOneSentence(answer: Answer): Answer | null {
  // Each table with the company whose heading is above it (several companies: a table each, said in turn).
  const tables = tablesUnderHeadings(answer.text);
  if (!tables.length || tables.length > 3) return null;
  const said = tables.map(({ company, rows }) => (rows[0]![0] === '' && rows[0]!.length >= 3 ? periodsInBrief(rows, company)[0] : undefined));
  if (!said.every(Boolean)) return null;
  const sentence = said.map((x, i) => (i < said.length - 1 ? x!.replace(/\.$/, '') : x!)).join('; ');
  // (The time and source of the data under it, as the table had them.)
  const data = answer.text.split('\n').map((l) => l.trim()).filter((l) => /^Data:\s/.test(l)).map((l) => `_${l.replace(/[.\s]+$/, '')}._`);
  const notes = [...figureNotes(answer.text), ...data];
  return cited(`${sentence}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`, answer.citations);
}

/** A list item's text, its marker gone ("- **Hold** (…): bid $0.14 …" → "**Hold** (…): bid $0.14 …"). */
const LIST_ITEM = /^(?:[-*•]|\d+\.)\s+(.+)$/;

/**
 * The claims one sentence says: the answer's plain claims, its periods in brief; or, for an answer
 * said as a list the claims do not read (a follow-up's contract line, an arbitrage), its one item
 * as prose after the line that leads into it ("Yes, on the report's quotes, NO on every outcome …"),
 * never a caveat under it that cites nothing. None (the answer said as it is) for a list of several
 * such items: one of them alone would not answer.
 */
function sentenceClaims(text: string, words?: number): string[] {
  const claims = plainClaims(text, true);
  const lines = text.split('\n').map((l) => l.trim());
  const items = lines.flatMap((l, i) => (LIST_ITEM.test(l) ? [i] : []));
  const cited = (s: string) => /\[\d+\]/.test(s);
  if (!items.length || (claims.length && (claims.length > 1 || cited(claims[0]!)))) return claims;
  if (!items.some((i) => cited(lines[i]!))) return claims;
  // (Prose before the list is its answer, "No arbitrage on the report's quotes: …"; after it, a caveat.)
  const prose = lines.findIndex((l) => l && !LIST_ITEM.test(l) && !/^[_#|>]/.test(l) && !/:$/.test(l));
  if (claims.length && prose >= 0 && prose < items[0]!) return claims;
  const lead = lines.slice(0, items[0]).reverse().find(Boolean);
  if (items.length > 1) return [itemsInOneSentence(items.map((i) => lines[i]!), lead, words)];
  const item = strip(LIST_ITEM.exec(lines[items[0]!]!)![1]!);
  const said = item.split(/(?<=[.!?](?:\s*\[\d+\])*)\s+(?=[A-Z“"])/).slice(0, 2).map((x, i) => (i ? uncapitalised(x) : x).replace(/\.$/, ''));
  const opening = lead && /:$/.test(lead) && !LIST_ITEM.test(lead) ? `${strip(lead).replace(/\s*:$/, '')}, ` : '';
  return [`${opening}${opening ? uncapitalised(said[0]!) : said[0]!}${said.slice(1).map((x) => `; ${x}`).join('')}.`];
}

/** The longest a list's items are said in, joined in one sentence; longer, the first item leads and the rest are named. */
const JOINED_AT_MOST = 320;

/**
 * A list of several items in one sentence, after the line leading into it: each item in brief
 * (up to its first ";" or full stop, a contract's ticker left out, its citations kept) joined by
 * semicolons when that is short enough; otherwise the first item, as the answer put it first, and
 * how many more there are, by their labels ("…: Trading closes 2026-12-15 15:00 UTC (in 26 days)
 * [1], and 4 more: Price move, Hike 25bps; …").
 */
function itemsInOneSentence(items: string[], lead: string | undefined, words = Infinity): string {
  const said = items.map((line) => {
    const item = strip(LIST_ITEM.exec(line)![1]!);
    let head = item.split(/;\s+|(?<=[.!?](?:\s*\[\d+\])*)\s+(?=[A-Z“"])/)[0]!;
    // (A quotation cut inside would not close: the item whole.)
    if ((head.match(/“/g) ?? []).length !== (head.match(/”/g) ?? []).length) head = item;
    head = head.replace(/\s*\([A-Z][A-Z0-9.]*-[A-Z0-9.-]+\)/g, '').replace(/[.\s]+$/, '');
    const refs = [...new Set(item.match(/\[\d+\]/g) ?? [])].filter((r) => !head.includes(r)).join('');
    const label = /^\*\*(.+?):?\*\*/.exec(LIST_ITEM.exec(line)![1]!)?.[1]?.replace(/:$/, '');
    return { text: `${head}${refs ? ` ${refs}` : ''}`.replace(/\s*\.(\s*(?:\[\d+\])+)$/, '$1'), label };
  });
  // (The lead's last sentence: "No contract is safe: … costs. The one the model values most … is NO on Cut …; its risk:".)
  const opening = lead && /:$/.test(lead) && !LIST_ITEM.test(lead) ? `${strip(lead).split(/(?<=[.!?])\s+(?=[A-Z“"])/).at(-1)!.replace(/\s*\([^)]*\)/g, '').replace(/\s*:$/, '')}: ` : '';
  const joined = `${opening}${said.map((x) => x.text).join('; ')}.`;
  if (joined.length <= JOINED_AT_MOST && wordCount(joined) <= words) return joined;
  const rest = said.slice(1);
  const named = rest.every((x) => x.label) ? `: ${rest.map((x) => x.label!).join('; ')}` : '';
  const led = `${opening}${said[0]!.text}, and ${rest.length} more${named}.`;
  if (wordCount(led) <= words) return led;
  // (A number of words asked, "20 words or fewer": the rest counted, not named, and no lead-in if need be.)
  const counted = `${opening}${said[0]!.text}, and ${rest.length} more.`;
  return wordCount(counted) <= words ? counted : `${said[0]!.text}, and ${rest.length} more.`;
}

/** A sentence's words, its citation markers not counted. */
const wordCount = (s: string) => s.replace(/\s*\[\d+\]/g, '').split(/\s+/).filter(Boolean).length;

/** The thread in brief: each question asked, with its answer's headline in plain words. */
export function threadRestated(answers: { question: string; answer: Answer }[]): Answer | null {
  const heads = new Set<string>();
  const lines = answers.flatMap(({ question, answer }) => {
    const head = plainClaims(answer.text)[0];
    if (!head) return [];
    const asked = `- **${strip(question).replace(/^\W+/, '')}**: `;
    // (Two questions with the same answer: the second says so rather than repeat it.)
    if (heads.has(head)) return [{ text: `${asked}the same answer as above.`, citations: [] }];
    heads.add(head);
    return [{ text: `${asked}${head}`, citations: answer.citations }];
  });
  if (!lines.length) return null;
  let text = '';
  const citations: Citation[] = [];
  for (const l of lines) {
    const one = cited(l.text, l.citations);
    const offset = citations.length;
    text += `${one.text.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`)}\n`;
    citations.push(...one.citations.map((c) => ({ ...c, order: c.order + offset })));
  }
  return { text: `What we talked about, in brief:\n\n${text}`, citations };
}
