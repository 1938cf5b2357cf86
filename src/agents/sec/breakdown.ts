import type { SecLibrary } from '../../data/sec/library.js';
import type { CompanyFinancials } from '../../data/sec/facts.js';
import { METRICS, metricById, type MetricId } from '../../data/sec/metrics.js';
import { shortName } from '../../data/sec/names.js';
import type { SecQuestion } from '../../data/sec/question.js';
import type { AgentEvent } from '../types.js';
import { listed } from '../citations.js';
import { capitalise } from './format.js';

/**
 * A breakdown of a company's figures by segment, product, region or customer ("break it down by
 * segment or product", "split that by region", "what's the product mix?", "Apple revenue by segment").
 * Its words ("break", "split", "product") are no figures: the answer says what such a breakdown is
 * not read from, and what there is instead.
 */
const DIMENSION = String.raw`(?:segments?|products?|product lines?|regions?|regional|geograph(?:y|ies|ic(?:al)?)|countr(?:y|ies)|business(?:es| lines?| units?| segments?)?|divisions?|categor(?:y|ies)|lines? of business|customers?|end markets?)`;
/** A region or country a figure may be asked of ("revenue in China", "Europe sales", "international revenue", "sales outside the US"). */
const PLACE = String.raw`(?:greater\s+china|china|europe|emea|(?:the\s+)?americas|asia(?:[- ]pacific)?|apac|japan|india|latin\s+america|north\s+america|(?:the\s+)?united\s+states|the\s+usa?|u\.s\.(?:a\.)?|(?:the\s+)?united\s+kingdom|the\s+uk|germany|rest\s+of\s+(?:the\s+)?world)`;
const IN_PLACE = String.raw`\b(?:revenues?|sales|income|profits?|earnings|made|make|makes|earn(?:s|ed)?|generate[sd]?|sold|sells?|comes?|came)\b[^?.!]{0,40}?\b(?:in|from|within)\s+${PLACE}(?![\w-])|(?<![\w-])${PLACE}\s+(?:revenues?|sales|segment)\b|\b(?:international|overseas|foreign|domestic|non-u\.?s\.?)\s+(?:revenues?|sales|income|profits?)\b|\boutside\s+(?:of\s+)?(?:the\s+)?(?:us|u\.s\.|united\s+states|america)\b`;

export const BREAKDOWN_ASKED = new RegExp(
  String.raw`${IN_PLACE}|\b(?:break(?:ing|s)?\b[^?]{0,30}\bdown|breakdown|broken\s+down|split(?:ting)?|divided|grouped|by|per|across|each)\s+(?:(?:the|its|their|each|every)\s+)?${DIMENSION}\b|\b(?:product|segment|geographic|regional|revenue|sales|business)\s+(?:mix|breakdown|split)\b|\bsegment(?:al)?\s+(?:revenue|sales|results|breakdown|data|reporting|information|figures|margins?|profits?|income)\b`,
  'i',
);

/** The note for each company of the question, with the figures it does report. */
export async function breakdownNote(lib: SecLibrary, question: SecQuestion): Promise<string> {
  const lines = ['Breakdowns by segment, product or region are not in the XBRL company facts this service reads: companies give them in the notes to their financial statements (segment information), and I read only their company-wide figures.'];
  for (const mention of question.companies) {
    if (mention.status !== 'found') continue;
    const fin = (await lib.profile(mention.company)).financials;
    const reported = fin ? METRICS.filter((m) => fin.reports(m.id)).map((m) => m.label) : [];
    if (reported.length) lines.push(`What I have for ${shortName(mention.company.name)}, company-wide: ${reported.join(', ')}.`);
  }
  return lines.join('\n');
}

/**
 * The note, then the company-wide figures the question carries from before ("Apple revenue Q3 2024"
 * when the breakdown was asked of it), answered as usual; the note alone when it carries none.
 */
export async function* answerBreakdown(lib: SecLibrary, question: SecQuestion, answer: (q: SecQuestion) => AsyncGenerator<AgentEvent>): AsyncGenerator<AgentEvent> {
  const note = await breakdownNote(lib, question);
  if (!question.metrics.length) {
    const data = lib.dataNote();
    yield { type: 'text', delta: `${note}\n${data ? `\n_${data}_\n` : ''}` };
    return yield { type: 'done' };
  }
  yield { type: 'text', delta: `${note.split('\n')[0]} The company-wide figures:\n\n` };
  yield* answer({ ...question, text: '', unknownFigures: [] });
}

/**
 * A breakdown asked naming no dimension ("break that down", "can you break it down?", "breakdown?",
 * "break down Apple's net income"): of the figure discussed, into the lines the data holds for it.
 */
export const BREAKDOWN_UNNAMED = /\bbreak(?:ing|s)?\b[^?.!]{0,40}?\bdown\b|\bbreak-?down\b|\bbroken\s+down\b|\bwhat(?:'s| is| are)\s+(?:that|it|this|those)\s+made\s+(?:up\s+)?of\b|\bitemi[sz]e\b/i;

/** Whether a breakdown is asked naming no segment, product, region or other dimension. */
export const breakdownUnnamed = (asked: string) => BREAKDOWN_UNNAMED.test(asked) && !BREAKDOWN_ASKED.test(asked);

/**
 * What each figure is made of among the company-wide figures the data holds, in the order the
 * statements give them, the figure itself among them: the lines from revenue down to net income,
 * operating expenses into their lines, free cash flow into operating cash flow less capex, EPS into
 * net income over the diluted share count, assets into liabilities and equity. Figures absent here
 * have no parts in the data.
 */
const PARTS: Partial<Record<MetricId, MetricId[]>> = {
  netIncome: ['revenue', 'costOfRevenue', 'grossProfit', 'operatingExpenses', 'operatingIncome', 'pretaxIncome', 'incomeTax', 'netIncome'],
  pretaxIncome: ['revenue', 'costOfRevenue', 'grossProfit', 'operatingExpenses', 'operatingIncome', 'interestExpense', 'pretaxIncome'],
  operatingIncome: ['revenue', 'costOfRevenue', 'grossProfit', 'operatingExpenses', 'operatingIncome'],
  grossProfit: ['revenue', 'costOfRevenue', 'grossProfit'],
  operatingExpenses: ['researchAndDevelopment', 'sellingGeneralAdministrative', 'salesAndMarketing', 'generalAdministrative', 'operatingExpenses'],
  sellingGeneralAdministrative: ['salesAndMarketing', 'generalAdministrative', 'sellingGeneralAdministrative'],
  freeCashFlow: ['operatingCashFlow', 'capitalExpenditure', 'freeCashFlow'],
  dilutedEps: ['netIncome', 'dilutedShares', 'dilutedEps'],
  // (The balance sheet's identity: assets are liabilities plus equity.)
  totalAssets: ['totalLiabilities', 'stockholdersEquity', 'totalAssets'],
  stockholdersEquity: ['totalAssets', 'totalLiabilities', 'stockholdersEquity'],
};

/** The parts of a figure a company reports (the figure itself among them), or null when it reports fewer than two of them (no breakdown). */
function partsOf(fin: CompanyFinancials, metric: MetricId): MetricId[] | null {
  // (SG&A reported as its two lines is those lines, not the three of them, which would count it twice.)
  const twoLines = fin.reports('salesAndMarketing') && fin.reports('generalAdministrative') && metric !== 'sellingGeneralAdministrative';
  const parts = PARTS[metric]?.filter((id) => id === metric || (fin.reports(id) && !(twoLines && id === 'sellingGeneralAdministrative'))) ?? [];
  return parts.length > 2 ? parts : null;
}

/**
 * "Break that down" after a figure: the lines the data holds for it (net income from revenue down,
 * operating expenses into R&D and SG&A, free cash flow into operating cash flow and capex), of the
 * same companies and period, said first not to be by segment, product or region (no such figures are
 * read). A figure with no parts in the data ("break that down" after revenue) gets which breakdowns
 * there are for the company, and a question asking which.
 */
export async function* answerUnnamedBreakdown(lib: SecLibrary, question: SecQuestion, answer: (q: SecQuestion) => AsyncGenerator<AgentEvent>): AsyncGenerator<AgentEvent> {
  const companies = question.companies.flatMap((c) => (c.status === 'found' ? [c.company] : []));
  const fins = (await Promise.all(companies.map((c) => lib.profile(c)))).flatMap((p) => (p.financials ? [{ company: p.company, fin: p.financials }] : []));
  const metrics = question.metrics.length ? question.metrics : [];
  const parts = [...new Set(metrics.flatMap((m) => fins.flatMap(({ fin }) => partsOf(fin, m) ?? [])))];
  const names = listed(fins.map(({ company }) => shortName(company.name)));
  const notBy = 'Breakdowns by segment, product or geography are not in the data: the XBRL company facts read here hold company-wide figures only (companies give those breakdowns in the notes to their financial statements).';
  const data = lib.dataNote();
  if (!fins.length) return yield* answer(question);
  if (parts.length && metrics.length) {
    const parted = metrics.filter((m) => fins.some(({ fin }) => partsOf(fin, m)));
    yield { type: 'text', delta: `${notBy} What the data holds for ${names}'s ${listed(parted.map((m) => metricById(m).label))} is the lines ${parted.length > 1 ? 'they are' : 'it is'} made of on the statements:\n\n` };
    return yield* answer({ ...question, text: '', metrics: parts, metricsByCompany: null, ratios: [], unknownFigures: [], margin: false, ttm: false, comparison: null, versus: null, shareOf: false });
  }
  // No parts of the figure discussed (revenue, cash, …), or no figure discussed: the breakdowns there are, and which is wanted.
  const lines = fins.map(({ company, fin }) => {
    const there = (Object.keys(PARTS) as MetricId[]).flatMap((m) => {
      const p = fin.reports(m) ? partsOf(fin, m) : null;
      return p ? [`${metricById(m).label} (${listed(p.filter((id) => id !== m).map((id) => metricById(id).label))})`] : [];
    });
    return there.length ? `- ${shortName(company.name)}: ${there.join('; ')}.` : `- ${shortName(company.name)}: none; only its figures one by one.`;
  });
  const asked = metrics.length ? `${capitalise(listed(metrics.map((m) => metricById(m).label)))} ${metrics.length > 1 ? 'have' : 'has'} no parts in the data to break ${metrics.length > 1 ? 'them' : 'it'} into. ` : '';
  const example = fins.find(({ fin }) => fin.reports('netIncome')) ? `“break down ${shortName(fins[0]!.company.name)}'s net income”` : '“break down its operating expenses”';
  yield { type: 'text', delta: `${asked}${notBy}\n\nThe breakdowns the data holds, each a figure and the lines it is made of:\n${lines.join('\n')}\n\nWhich would you like? For example ${example}.\n${data ? `\n_${data}_\n` : ''}` };
  yield { type: 'done' };
}
