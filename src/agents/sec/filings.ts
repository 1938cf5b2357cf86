import { filingsFromColumns } from '../../data/sec/client.js';
import type { SecLibrary } from '../../data/sec/library.js';
import type { CompanyRef, Filing } from '../../data/sec/types.js';
import type { AgentEvent, Citation, Turn } from '../types.js';
import type { ReportedFact } from '../../data/sec/facts.js';
import { metricById, type MetricId } from '../../data/sec/metrics.js';
import type { PeriodSpec } from '../../data/sec/question.js';
import { resolvePeriod } from '../../data/sec/resolve.js';
import { SourceList } from '../citations.js';
import { formatAmount, periodName, periodWithEnd } from './format.js';

/**
 * A question about the filings themselves rather than their figures: which there are ("list
 * Microsoft's filings", "which 10-Qs do you have for apple"), or one's filing date, period and
 * accession number ("when was apple's latest 10-Q filed and what quarter does it cover",
 * "what's the accession number of that filing").
 */
export const FILINGS_ASKED =
  /\b(?:list|show|which|what)\b[^?]{0,40}?\b(?:filings|10-?ks|10-?qs|forms filed)\b|\bfilings? (?:do you have|are there|available|on file)\b|\b(?:latest|last|most recent|newest) (?:10-?[kq]|filing)\b[^?]{0,60}?\b(?:filed|cover|covers|period|accession)\b|\bwhen (?:was|were|did)\b[^?]{0,40}?\b(?:10-?[kq]s?|filings?)\b[^?]{0,40}?\bfiled?\b|\bwhen did\b[^?]{0,30}?\bfile\b[^?]{0,30}?\b(?:10-?[kq]s?|annual report|quarterly report|filings?)\b|\b(?:filing|file) date\b|\baccession(?: number)?\b|\b(?:is|are) there (?:a|an|any)\b[^?]{0,40}?\b(?:10-?[kq]s?|filings?|annual reports?|quarterly reports?)\b/i;

/**
 * The latest filing asked for as such, naming no figure ("latest 10-K?", "show me Apple's latest
 * 10-Q", "most recent filing"): the filing itself, not the key figures it holds. (Read beside the
 * parse: a figure, a ratio or what a filing says, named with it, is asked of the filing's figures.)
 */
export const LATEST_FILING = /\b(?:latest|last|most recent|newest|recent)\s+(?:10-?[kq]|filings?|annual report|quarterly report)\b/i;
const OF_ITS_CONTENTS = /\b(?:figures?|numbers?|results?|financials?|metrics?|say|said|says|mention\w*|discuss\w*|summar\w*|explain\w*|data|show(?:s|ed)? (?:about|for))\b/i;
export const latestFilingAsked = (asked: string, statedFigure: boolean) => LATEST_FILING.test(asked) && !statedFigure && !OF_ITS_CONTENTS.test(asked);

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The filing a question means by its period ("its 10-K for fiscal 2024", "the 10-Q for the december
 * 2024 quarter", "fiscal Q2 2025"), given what each filing covers; undefined when it names none.
 */
function filingForPeriod(asked: string, filings: Filing[], covers: (f: Filing) => string): Filing | undefined {
  const quarter = /\b(?:fiscal\s+)?q([1-4])\s*(?:of\s+)?(?:fy\s?|fiscal\s+)?'?(\d{4}|\d{2})\b/i.exec(asked);
  if (quarter) {
    const year = quarter[2]!.length === 2 ? `20${quarter[2]}` : quarter[2]!;
    return filings.find((f) => f.form === '10-Q' && covers(f).startsWith(`fiscal Q${quarter[1]} ${year} `));
  }
  const fiscal = /\b(?:fiscal\s+(?:year\s+)?|fy\s?)'?(\d{4}|\d{2})\b/i.exec(asked);
  if (fiscal) {
    const year = fiscal[1]!.length === 2 ? `20${fiscal[1]}` : fiscal[1]!;
    return filings.find((f) => f.form === '10-K' && covers(f).startsWith(`fiscal year ${year} `));
  }
  // A month's quarter or year ("the december 2024 quarter"): the filing whose period ended within a week of that month's end.
  const month = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{4})\b/i.exec(asked);
  if (month) {
    const end = Date.UTC(Number(month[2]), MONTH_NAMES.indexOf(month[1]!.toLowerCase()) + 1, 0);
    return filings.find((f) => Math.abs(Date.parse(f.reportDate) - end) <= 7 * 86_400_000);
  }
  return undefined;
}

/** The period a question names as filingForPeriod reads it ("Q1 2025", "fiscal year 2024"), said; null when it names none. */
function namedPeriod(asked: string): string | null {
  const quarter = /\b(?:fiscal\s+)?q([1-4])\s*(?:of\s+)?(?:fy\s?|fiscal\s+)?'?(\d{4}|\d{2})\b/i.exec(asked);
  if (quarter) return `Q${quarter[1]} ${quarter[2]!.length === 2 ? `20${quarter[2]}` : quarter[2]}`;
  const fiscal = /\b(?:fiscal\s+(?:year\s+)?|fy\s?)'?(\d{4}|\d{2})\b/i.exec(asked);
  return fiscal ? `fiscal year ${fiscal[1]!.length === 2 ? `20${fiscal[1]}` : fiscal[1]}` : null;
}

/** Whole days from a period's end to its filing. */
const daysAfter = (f: Filing) => Math.round((Date.parse(f.filingDate) - Date.parse(f.reportDate)) / 86_400_000);

/** The 10-K and 10-Q filings a company's submissions list, newest first. */
export function periodicFilings(submissions: Parameters<typeof filingsFromColumns>[1], cik: number): Filing[] {
  return filingsFromColumns(cik, submissions)
    .filter((f) => /^10-[KQ]$/.test(f.form))
    .sort((a, b) => (a.filingDate < b.filingDate ? 1 : -1));
}

/** The filing an earlier answer cited ("Form 10-K filed 2025-02-05 (accession 0001652044-25-000014)"), for "that filing". */
export function citedBefore(earlier: readonly Turn[]): { form: string; filed: string; accession: string } | null {
  for (const turn of [...earlier].reverse()) {
    if (turn.role !== 'assistant') continue;
    const m = /\bForm (10-[KQ]) filed (\d{4}-\d\d-\d\d) \(accession ([\d-]+)\)/.exec(turn.content);
    if (m) return { form: m[1]!, filed: m[2]!, accession: m[3]! };
  }
  return null;
}

/**
 * The filings of the companies asked about: a table of their 10-Ks and 10-Qs (form, period,
 * filing date, accession number), each cited to its document (the signed PDF at page 1; EDGAR's
 * filing index when no document is in the data); asked of the latest one (or
 * of "that filing", the one cited before), that one in a sentence first.
 */
export async function* answerFilings(lib: SecLibrary, companies: readonly CompanyRef[], asked: string, earlier: readonly Turn[]): AsyncGenerator<AgentEvent> {
  const form = /\b10-?k/i.test(asked) && !/\b10-?q/i.test(asked) ? '10-K' : /\b10-?q/i.test(asked) && !/\b10-?k/i.test(asked) ? '10-Q' : null;
  // Each filing is cited through its document, the signed PDF at its first page (the cover: form,
  // period, filer), as every SEC answer cites; EDGAR's filing index only where no document is in the data.
  const pending: { company: CompanyRef; filing: Filing }[] = [];
  const cite = (company: CompanyRef, f: Filing) => {
    pending.push({ company, filing: f });
    return `[${pending.length}]`;
  };
  const lines: string[] = [];
  const latestAsked = /\b(?:latest|last|most recent|newest)\b/i.test(asked) || /\bthat filing\b/i.test(asked);
  for (const company of companies) {
    const profile = await lib.profile(company);
    const filings = profile.submissions ? periodicFilings(profile.submissions.filings.recent, company.cik).filter((f) => !form || f.form === form) : [];
    const name = `${profile.company.name}${company.ticker ? ` (${company.ticker})` : ''}`;
    if (!filings.length) {
      lines.push(`No ${form ?? '10-K or 10-Q'} filings of ${name} are in ${lib.dataNote() ? 'this snapshot' : "EDGAR's recent list"}.`, '');
      continue;
    }
    const calendar = profile.financials?.calendar;
    const covers = (f: Filing) => {
      const p = calendar?.nearest(f.form === '10-K' ? 'year' : 'quarter', f.reportDate, 10);
      return p && calendar ? `${periodName(p, calendar)} (${f.form === '10-K' ? 'year' : 'quarter'} ended ${f.reportDate})` : `the period ended ${f.reportDate}`;
    };
    // "What's the accession number of that filing": the one the answer before cited, when it is this company's.
    const before = /\bthat (?:filing|10-?[kq]|one)\b/i.test(asked) ? citedBefore(earlier) : null;
    const forPeriod = before ? undefined : filingForPeriod(asked, filings, covers);
    const meant = (before && filings.find((f) => f.accessionNumber === before.accession)) ?? forPeriod ?? (latestAsked ? filings[0] : null);
    // "Is there a Q1 2025 10-Q?" when there is none: said so first, with the latest there is.
    const missing = !before && !forPeriod ? namedPeriod(asked) : null;
    const rows = filings.map((f) => `| ${f.form} | ${covers(f)} | ${f.filingDate} | ${f.accessionNumber} ${cite(profile.company, f)} |`);
    const which = (f: Filing) => (f === forPeriod ? `its ${f.form} for ${covers(f).replace(/ \(.*$/, '')}` : f === filings[0] ? `its latest ${f.form}` : `that ${f.form}`);
    if (missing) lines.push(`**${name}**: no ${form ?? 'filing'} for ${missing} is in ${lib.dataNote() ? 'this snapshot' : "EDGAR's recent list"}; its latest${form ? '' : ` ${filings[0]!.form}`}${form ? ` ${form}` : ''} covers ${covers(filings[0]!)}, filed ${filings[0]!.filingDate} ${rows[0]!.match(/\[\d+\]/)![0]}.`, '');
    if (meant)
      lines.push(`**${name}**: ${which(meant)}, filed ${meant.filingDate} (${daysAfter(meant)} days after the period ended), covers ${covers(meant)}; accession number ${meant.accessionNumber} ${rows[filings.indexOf(meant)]!.match(/\[\d+\]/)![0]}.`, '');
    lines.push(`**${name}**: ${filings.length} ${form ?? '10-K and 10-Q'} filing${filings.length === 1 ? '' : 's'} ${lib.dataNote() ? 'in this snapshot' : 'in EDGAR\'s recent list'}, newest first:`, '', '| Form | Covers | Filed | Accession |', '|---|---|---|---|', ...rows, '');
  }
  const citations: Citation[] = await Promise.all(pending.map(async ({ company, filing }, i) => ({ order: i + 1, ...(await lib.citeFiling(company, filing)) })));
  const indexed = citations.filter((c) => /\(EDGAR filing index\)$/.test(c.name)).length;
  const links =
    indexed === 0
      ? 'Each links to the filing itself, a PDF opened at its first page.'
      : indexed === citations.length
        ? 'No document of these filings is in the data: each links to its filing index on EDGAR.'
        : `Each links to the filing itself, a PDF opened at its first page, except ${indexed === 1 ? 'one' : indexed} whose document is not in the data, linked to ${indexed === 1 ? 'its' : 'their'} filing index on EDGAR.`;
  lines.push(`${links} Ask for a figure ("Microsoft revenue for the quarter ended 2025-03-31") for the page of the filing that shows it.`);
  const note = lib.dataNote();
  yield { type: 'answer', answer: { text: `${lines.join('\n')}${note ? `\n\n_${note}_` : ''}\n`, citations } };
  yield { type: 'done' };
}

/**
 * "What filing is the latest quarter from?" ("which 10-Q is that from?", "what filing did that come
 * from?", "which filing says that?"): the filing a period's figure was read from, by form, period, filing date and accession
 * number, cited to the filing itself (its signed PDF) and to the page showing the figure.
 */
export const FILING_OF_FIGURE = /\b(?:what|which)\s+(?:filing|form|10-?[kq]|report|document)\s+(?:says|said|shows|showed|reports|reported|has|had|holds|contains|gives|gave|states|stated|lists|discloses|disclosed)\s+(?:that|this|it|those|these|so|the\s+(?:latest|last|most\s+recent|newest)(?:\s+(?:one|quarter|qtr|period|figure|number))?)\b|\b(?:what|which)\s+(?:filing|form|10-?[kq]|report|document)\b(?!s)[^?]{0,60}?\b(?:from|in)\b|\bwhat\s+(?:filing|form|10-?[kq]|report)\s+(?:did|does|do|was|were|is|are)\b[^?]{0,60}\b(?:come|came|reported|filed|appear)\b|\b(?:from|in)\s+which\s+(?:filing|10-?[kq]|report)\b/i;

export async function* answerFilingOfFigure(lib: SecLibrary, companies: readonly { company: CompanyRef; spec: PeriodSpec | null; metric: MetricId }[]): AsyncGenerator<AgentEvent> {
  const sources = new SourceList();
  const lines: string[] = [];
  for (const { company, spec, metric } of companies) {
    const profile = await lib.profile(company);
    const fin = profile.financials;
    const name = `**${profile.company.name}${company.ticker ? ` (${company.ticker})` : ''}**`;
    if (!fin) {
      lines.push(`${name} has no figures in the data, so no filing of its figures can be named.`);
      continue;
    }
    const resolved = resolvePeriod(spec ?? { kind: 'latest', span: 'quarter' }, fin, metric);
    if (!resolved.ok) {
      lines.push(`${name}: its filings do not cover ${resolved.wanted}.`);
      continue;
    }
    const period = resolved.period.kind === 'span' ? (fin.calendar.lastQuarter(resolved.period) ?? resolved.period) : resolved.period;
    const value = fin.value(metric, period) ?? fin.value('revenue', period) ?? fin.value('netIncome', period);
    const filings = profile.submissions ? periodicFilings(profile.submissions.filings.recent, company.cik) : [];
    const facts = value ? value.terms.map((t) => t.fact).filter((f, i, all) => all.findIndex((g) => g.accn === f.accn) === i) : [];
    // The filings the figure was read from, by accession; failing that, the one covering the period.
    const read = facts.map((fact) => ({ fact, filing: filings.find((f) => f.accessionNumber === fact.accn) ?? null }));
    const covering = read.length ? [] : filings.filter((f) => f.reportDate === period.end);
    const when = periodWithEnd(period, fin.calendar);
    const said = async (filing: Filing | null, fact: ReportedFact | null) => {
      const form = filing?.form ?? fact?.form ?? '';
      const filed = filing?.filingDate ?? fact?.filed ?? '';
      const accession = filing?.accessionNumber ?? fact?.accn ?? '';
      const doc = filing ? await lib.citeFiling(profile.company, filing) : null;
      const ref = doc ? sources.cite(`filing:${accession}`, doc.name, doc.url) : '';
      const after = filing ? ` (${daysAfter(filing)} days after the period it reports ended, ${filing.reportDate})` : '';
      return `**Form ${form}** filed **${filed}**${after}, accession number **${accession}** ${ref}`.trim();
    };
    if (read.length === 1) {
      const { fact, filing } = read[0]!;
      const page = await lib.cite(profile.company, fact);
      const figure = metricById(value!.metric);
      const later = filing && filing.reportDate !== period.end ? ` (a later filing, whose comparative it is)` : '';
      lines.push(`${name}: ${when} is from its ${await said(filing, fact)}${later}; ${figure.label} for it, ${formatAmount(value!.value, value!.unit, figure, page.location?.scale ?? null)}, is on page ${page.page ?? '?'} ${sources.cite(page.key, page.name, page.url)}.`);
    } else if (read.length > 1) {
      const parts: string[] = [];
      for (const { fact, filing } of read) parts.push(await said(filing, fact));
      const figure = metricById(value!.metric);
      lines.push(`${name}: ${when} is not filed on its own: its ${figure.label} is derived (${value!.derivation ?? 'from the filings below'}) from ${parts.join(' and ')}.`);
    } else if (covering.length) {
      const parts: string[] = [];
      for (const filing of covering) parts.push(await said(filing, null));
      lines.push(`${name}: ${when} is reported in its ${parts.join(' and ')}.`);
    } else lines.push(`${name}: no 10-Q or 10-K covering ${when} is in the data.`);
  }
  const note = lib.dataNote();
  yield { type: 'text', delta: `${lines.join('\n\n')}\n\nEach filing links to its document, a PDF opened at its first page.${note ? `\n\n_${note}_` : ''}\n` };
  for (const citation of sources.list) yield { type: 'citation', citation };
  yield { type: 'done' };
}
