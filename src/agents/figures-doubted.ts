import type { Answer } from './types.js';
import { cited } from './citations.js';

// "What would make you wrong?", "how reliable are these numbers?" right after company figures from
// the filings: not a model's view of an event (a report's limits answer that) but figures as filed,
// so what they depend on: the filing and period each is read from, later restatements or amendments,
// the inputs of a derived figure, a fiscal year that is not the calendar's, and the data's own date.
// Shared by the router (svc-agent) and the SEC agent, which both answer it of the figures just given.

/** "What would make you wrong?", "how could the model be wrong?": of a report, its model's limits (the router); of company figures, what they depend on. */
export const WRONG = /\bwhat (?:would|could|might|will) (?:make|prove|show) (?:you|u|ya|the model|it|this|that|the (?:call|view|report|trade)|us|me)\b[^?]{0,40}\bwrong\b|\bhow (?:could|might|would|can) (?:you|u|the model|it|this|the (?:call|view|report)) be wrong\b|\bwhat(?:'s| is| are)? the (?:main |key |biggest )?risks? (?:to|of|for|in) (?:the |this |that |your )?(?:model|call|view|report|thesis)\b|\bwhere (?:could|might|would) (?:you|the model) be wrong\b/i;

/** Doubt cast on an answer beyond "what would make you wrong?" (which a report answers of its model): how far its figures can be trusted. */
export const FIGURES_DOUBTED = /\bhow (?:reliable|accurate|trustworthy|sure|certain|confident)\b|\bcan (?:i|we) (?:trust|rely on|believe)\b|\b(?:could|can|might|would) (?:that|this|these|those|the|it|they)\s*(?:figures?|numbers?|data|answer)?\s+be (?:wrong|off|inaccurate|mistaken|out of date|stale)\b|\bwhat could (?:go wrong|be wrong|be off)\b|\b(?:caveats?|limitations?)\b|^\W*(?:(?:and|but|so|ok|okay)\W+)?(?:is|are) (?:that|this|these|those|it|they)(?: figures?| numbers?| data)? (?:right|accurate|correct|reliable|trustworthy|up to date)\W*$/i;

const strip = (s: string) => s.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
const cells = (l: string) => l.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
const sentenceOf = (s: string) => s.replace(/\s*$/, '').replace(/([^.])$/, '$1.');

/**
 * What company figures just given (an SEC filings answer: "**Apple Inc. (AAPL)**: revenue for … was
 * **$…** [1]." or a table of them) depend on, each point cited to the filing it names; null when the
 * answer gives no company figure (or is about an event).
 */
export function figuresDependOn(answer: Answer): Answer | null {
  const lines = answer.text.split('\n').map((l) => l.trim());
  const figures: string[] = [];
  // A figure said in a sentence: its company, what and when (up to " was "), and its source line after it.
  for (const [i, line] of lines.entries()) {
    const m = /^\*\*([^*]+?)\s+\([A-Z.-]{1,6}\)\*\*:\s+(.+?)\s+(?:was|were)\s+\*\*/.exec(line);
    if (!m) continue;
    const source = lines.slice(i + 1).find((l) => /^- Source:/.test(l));
    const where = source ? /^- Source: (Form \S+ filed \d{4}-\d\d-\d\d)(?: \(accession [^)]+\))?((?: as "[^"]+")?(?: on page \d+)?)\s*((?:\[\d+\])+)/.exec(source) : null;
    const refs = where?.[3] ?? /(?:\[\d+\])+/.exec(line)?.[0] ?? '';
    const derived = /\(derived\)/.test(line) || lines.slice(i + 1).some((l) => /^- Derived as\b/.test(l));
    figures.push(`${m[1]}'s ${strip(m[2]!)}: ${where ? `${where[1]}${where[2]}` : derived ? 'derived from the filings below' : 'in the filings cited'} ${refs}`.trimEnd());
  }
  // A table of periods in columns under its company's heading (### Apple Inc. (AAPL), by fiscal quarter …;
  // | | Q3 FY2024 [1] | …; | **Revenue** ($ million) | …): its figures over those periods, each period's filing named by its source.
  const tableNotes: string[] = [];
  let tabled = false;
  let company = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#+\s+(.+?)\s+\([A-Z.-]{1,6}\)(.*)$/.exec(lines[i]!);
    if (heading) {
      company = heading[1]!;
      const year = /\(its fiscal year ends ([^)]+)\)/.exec(heading[2]!)?.[1];
      if (year) tableNotes.push(`${company}'s fiscal year ends ${year}, and its quarters are named for that fiscal year.`);
      continue;
    }
    if (!lines[i]!.startsWith('| |') && !lines[i]!.startsWith('||')) continue;
    const periods = cells(lines[i]!).slice(1);
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) rows.push(cells(lines[j]!));
    const named = rows.flatMap((r) => (/^\*\*(.+?)\*\*/.exec(r[0]!)?.[1] ? [/^\*\*(.+?)\*\*/.exec(r[0]!)![1]!.toLowerCase()] : []));
    const filed = periods.map((p) => {
      const refs = /(?:\[\d+\])+$/.exec(p)?.[0] ?? '';
      const first = answer.citations.find((c) => c.order === Number(/\d+/.exec(refs)?.[0]));
      const form = first ? /\bForm [\w/-]+/.exec(first.name)?.[0] : undefined;
      return `${p.replace(/\s*(?:\[\d+\])+$/, '')}${form ? ` (${form})` : ''} ${refs}`.trim();
    });
    if (named.length && filed.length) {
      tabled = true;
      figures.push(`${company ? `${company}'s ` : ''}${named.join(' and ')} for ${filed.join(', ')}`);
    }
    // (A cell marked † is derived, ‡ restated since first reported.)
    const marked = (mark: string) => periods.flatMap((p, k) => (rows.some((r) => r[k + 1]?.includes(mark)) ? [p] : []));
    if (marked('†').length) tableNotes.push(`derived:${marked('†').join(', ')}`);
    // (The rows under a figure, "↳ gross margin (% of revenue)", "↳ year over year", are computed from the figures.)
    const computed = [...new Set(rows.flatMap((r) => (/^↳\s*(.+)$/.exec(r[0]!)?.[1] ? [/^↳\s*(.+)$/.exec(r[0]!)![1]!] : [])))];
    if (computed.length) tableNotes.push(`computed:${computed.join('; ')}`);
    i = j;
  }
  // A table of figures (| Company | Figure | Period | Value | Filed in |): each row's figure, period and filing.
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|')) continue;
    const head = cells(lines[i]!).map((c) => c.toLowerCase());
    const [company, figure, period, value, filed] = ['company', 'figure', 'period', 'value', 'filed in'].map((h) => head.indexOf(h));
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) {
      if (figure! < 0 || period! < 0 || value! < 0) continue;
      const row = cells(lines[j]!);
      const refs = /(?:\[\d+\])+/.exec(row[value!]!)?.[0];
      if (!refs) continue;
      const who = company! >= 0 ? `${row[company!]!.replace(/\s+\([A-Z.-]{1,6}\)$/, '')}'s ` : '';
      figures.push(`${who}${row[figure!]!.toLowerCase()} for ${row[period!]}: ${filed! >= 0 && row[filed!] && row[filed!] !== '—' ? row[filed!] : 'as cited'} ${refs}`);
    }
    i = j;
  }
  if (!figures.length) return null;
  const notes = lines.filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  const restated = notes.flatMap((n) => n.match(/[^.]*\brestated\b[^.]*(?:\.[^.]*?\bthe latest (?:figures? (?:is|are) (?:shown|used))[^.]*)?\./g) ?? []).map(strip);
  const derived = notes.filter((n) => /^Derived as\b|\bThat figure is derived\b/.test(n)).map((n) => strip(/(?:Derived as|That figure is derived:).*/.exec(n)![0]).replace(/^That figure is derived: /, 'Derived as '));
  // A note under a table of figures on how one of them was derived ("Apple Inc. (AAPL) free cash flow, fiscal year 2024: Derived as …").
  derived.push(...notes.flatMap((n) => {
    const m = /^([^:]+?\([A-Z.-]{1,6}\)[^:]*): Derived as (.+)$/.exec(n);
    return m ? [`${strip(m[1]!).replace(/\s+\([A-Z.-]{1,6}\)/, "'s")}: derived as ${strip(m[2]!)}`] : [];
  }));
  // A table's derived cells, with its note on how ("† Derived, not reported as such: a fourth quarter is …").
  const daggered = tableNotes.find((n) => n.startsWith('derived:'))?.slice('derived:'.length);
  // (All of the note's ways, a fourth quarter, a cash-flow quarter, a total from its formula: the cells may be any of them.)
  const how = /^†\s*Derived, not reported as such:\s*(.+?)\.(?:\s|$)/m.exec(answer.text)?.[1];
  if (daggered) derived.push(`The figures marked † (${daggered}) are derived, not reported as such${how ? `: ${how}` : ''}`);
  const computedRows = tableNotes.find((n) => n.startsWith('computed:'))?.slice('computed:'.length);
  if (computedRows) derived.push(`The rows under a figure (${computedRows}) are computed from filed figures, not filed themselves`);
  const restatedCells = /^‡\s*(.+)$/m.exec(answer.text)?.[1];
  if (restatedCells) restated.push(strip(restatedCells));
  // A margin or ratio said with its parts ("… was 46.2%: gross profit of $… [1] over revenue of $… [1]").
  const ratios = lines.flatMap((l) => {
    const m = /^\*\*([^*]+?)\s+\([A-Z.-]{1,6}\)\*\*:\s+(.+?)\s+was\s+\*\*[\d.,-]+%\*\*:\s+(.+?\bover\b.+?(?:\[\d+\])+)/.exec(l);
    // A ratio's line ("- **Apple's current ratio** at the end of …: **0.87x**: total current assets of $… [1] over …").
    const r = /^- \*\*([^*]+?)\*\*\s+(.+?):\s+\*\*[^*]+\*\*(?:\s*\([^)]*\))?:\s+(.+?\b(?:over|minus)\b.+?(?:\[\d+\])+(?:\s*\([^)]*\))?)/.exec(l);
    return m ? [`${m[1]}'s ${strip(m[2]!).replace(/\s*\([^)]*\)/g, '')} is computed from ${strip(m[3]!)}`] : r ? [`${r[1]} ${strip(r[2]!).replace(/\s*\([^)]*\)/g, '')} is computed, not filed: ${strip(r[3]!)}`] : [];
  });
  // (A comparison's note says only how far apart its periods end: "… more than Microsoft's …; the periods end 3 months apart.")
  const fiscal = tableNotes.filter((n) => !/^(?:derived|computed):/.test(n)).concat(notes.flatMap((n) => (/\bfiscal year ends\b/.test(n) ? [strip(n)] : /\bthe periods end (\d+ months?) apart\b/.test(n) ? [`The periods compared end ${/\bthe periods end (\d+ months?) apart\b/.exec(n)![1]} apart.`] : [])));
  const calendarOnly = !fiscal.length && !figures.some((f) => /\bfiscal\b/.test(f));
  const data = /^_?Data: (.+?)_?$/m.exec(answer.text)?.[1]?.replace(/\.$/, '');
  const one = figures.length === 1 && !tabled;
  const [them, each] = one ? ['it', 'The figure is'] : ['them', 'Each figure is'];
  const points = [
    `- **The filing and the period:** ${each.toLowerCase()} read for its period from the company's XBRL data in the filing named: ${figures.join('; ')}. Another period, or another measure of it (non-GAAP, a segment's, a trailing twelve months), is another number.`,
    restated.length
      ? `- **Restatements and amendments:** ${restated.join(' ')} A later restatement or amendment (a 10-Q/A or 10-K/A) would change ${them} again.`
      : `- **Restatements and amendments:** no later filing in the data changed ${them}; if the company restates the period or amends the filing (a 10-Q/A or 10-K/A), the latest filed figure replaces the one given.`,
    derived.length || ratios.length
      ? `- **Derived figures:** ${[...derived.map(sentenceOf), ...ratios.map(sentenceOf)].join(' ')} A computed figure is only as right as its inputs: a restatement of any of them changes it.`
      : `- **Derived figures:** none here: ${each.toLowerCase()} printed in the filing itself, not computed from others.`,
    fiscal.length
      ? `- **Fiscal year and calendar:** ${fiscal.map(sentenceOf).join(' ')} A fiscal quarter is not the calendar quarter of the same name, so set against other companies or economic data it covers other months.`
      : calendarOnly
        ? `- **Fiscal year and calendar:** ${one ? 'its period is a calendar one' : 'these periods are calendar ones'} (the fiscal year is the calendar year), so ${one ? 'it lines' : 'they line'} up with other data by date.`
        : '- **Fiscal year and calendar:** the periods are fiscal ones, named as the company names them, which need not match the calendar quarters of the same name.',
    `- **The data's date:** ${data ? `${data}; ` : ''}a filing made after the data was recorded is not read.`,
  ];
  const text = `${one ? 'That figure is' : 'Those figures are'} read from SEC filings, not forecast, so no later event proves ${them} wrong: ${one ? 'it is' : 'they are'} only as right as the filing${one ? '' : 's'} and the reading of ${them}. What ${one ? 'it depends' : 'they depend'} on:\n\n${points.join('\n')}\n`;
  return cited(text, answer.citations);
}
