import { metricById, type MetricId } from './metrics.js';

/**
 * Ratios analysts ask for that no company reports as such, each computed from two reported
 * figures of the same period: the question asks for both figures, and the answer divides them
 * (or, for net debt, subtracts one from the other), saying how.
 */

export type RatioId = 'returnOnEquity' | 'returnOnAssets' | 'debtToEquity' | 'debtToAssets' | 'liabilitiesToEquity' | 'currentRatio' | 'quickRatio' | 'workingCapital' | 'interestCoverage' | 'bookValuePerShare' | 'effectiveTaxRate' | 'payoutRatio' | 'fcfConversion' | 'liabilitiesToAssets' | 'fcfPerShare' | 'revenuePerShare' | 'inventoryTurnover' | 'netDebt';

export interface RatioDef {
  id: RatioId;
  label: string;
  /** How the ratio is shown: a percentage, a multiple ("1.87x"), an amount per share, or an amount (a difference). */
  kind: 'percent' | 'times' | 'perShare' | 'difference';
  numerator: MetricId;
  /** A figure taken from the numerator first (the quick ratio's inventory). */
  less?: MetricId;
  denominator: MetricId;
  /** The denominator is a balance averaged over the period (its value at the start and at the end), the numerator a flow over it. */
  averaged?: true;
  /** Said over a fiscal year unless a period is named (a quarter's would read as a year's). */
  annual?: true;
  /** The words that ask for it. */
  pattern: RegExp;
  /** How it is computed, in plain words. */
  describe: string;
  /** What it tells, for someone new to it. */
  means: string;
}

export const RATIOS: readonly RatioDef[] = [
  {
    id: 'returnOnEquity',
    label: 'return on equity',
    kind: 'percent',
    numerator: 'netIncome',
    denominator: 'stockholdersEquity',
    averaged: true,
    pattern: /\breturn\s+on\s+(?:average\s+)?(?:(?:common\s+)?(?:share|stock)holders'?\s+)?equity\b|\broa?e\b/i,
    describe: "net income over average shareholders' equity (the mean of the balances at the start and the end of the period)",
    means: 'how much profit the company makes on the money its shareholders have in it: 20% is 20 cents of net income a year for each dollar of equity',
  },
  {
    id: 'returnOnAssets',
    label: 'return on assets',
    kind: 'percent',
    numerator: 'netIncome',
    denominator: 'totalAssets',
    averaged: true,
    pattern: /\breturn\s+on\s+(?:average\s+)?(?:total\s+)?assets\b|\broaa?\b|\befficient(?:ly)?\s+(?:with|in\s+using|at\s+using|in\s+its\s+use\s+of)\s+(?:its|their)\s+assets\b|\basset\s+efficiency\b/i,
    describe: 'net income over average total assets (the mean of the balances at the start and the end of the period)',
    means: 'how much profit the company makes on everything it owns: net income for each dollar of assets',
  },
  {
    id: 'debtToEquity',
    label: 'debt-to-equity ratio',
    kind: 'times',
    numerator: 'longTermDebt',
    denominator: 'stockholdersEquity',
    pattern: /\b(?:long[- ]term\s+)?debt[- ]?(?:to|\/)[- ]?equity(?:\s+ratio)?\b|\bd\/e(?:\s+ratio)?\b|\bgearing(?:\s+ratio)?\b|(?<!\b(?:operating|op|operational)\s)\b(?:financial\s+)?(?:leverage(?:\s+ratio)?|levered|leveraged)\b/i,
    describe: "long-term debt as the balance sheet reports it (without the current portion, when the company tags that apart) over shareholders' equity, at the same date",
    means: 'how much the company has borrowed for each dollar its owners have in it; the higher, the more it relies on debt',
  },
  {
    id: 'debtToAssets',
    label: 'debt-to-assets ratio',
    kind: 'percent',
    numerator: 'longTermDebt',
    denominator: 'totalAssets',
    pattern: /\b(?:long[- ]term\s+)?debt[- ]?(?:to|\/|over|as a (?:share|percent(?:age)?) of)[- ]?(?:total\s+)?assets(?:\s+ratio)?\b/i,
    describe: 'long-term debt as the balance sheet reports it over total assets, at the same date',
    means: 'how much of what the company owns is financed by borrowing',
  },
  {
    id: 'liabilitiesToEquity',
    label: 'liabilities-to-equity ratio',
    kind: 'times',
    numerator: 'totalLiabilities',
    denominator: 'stockholdersEquity',
    pattern: /\b(?:total\s+)?liabilities[- ]?(?:to|\/)[- ]?equity(?:\s+ratio)?\b/i,
    describe: "total liabilities over shareholders' equity, at the same date",
    means: "how much the company owes in all for each dollar of its owners' stake",
  },
  {
    id: 'currentRatio',
    label: 'current ratio',
    kind: 'times',
    numerator: 'currentAssets',
    denominator: 'currentLiabilities',
    pattern: /\b(?:current|working[- ]capital)\s+ratio\b|\bliquidity\s+ratio\b/i,
    describe: 'total current assets over total current liabilities, at the same date',
    means: 'whether what turns into cash within a year covers what falls due within a year; above 1, it does',
  },
  {
    id: 'quickRatio',
    label: 'quick ratio',
    kind: 'times',
    numerator: 'currentAssets',
    less: 'inventory',
    denominator: 'currentLiabilities',
    pattern: /\bquick\s+ratio\b|\bacid[- ]test(?:\s+ratio)?\b/i,
    describe: 'total current assets less inventories, over total current liabilities, at the same date (the balance sheet does not break out the rest of the quick assets the same way in every company)',
    means: 'the same cover without inventories, which may take time to sell: a stricter test of paying short-term bills',
  },
  {
    id: 'workingCapital',
    label: 'working capital',
    kind: 'difference',
    numerator: 'currentAssets',
    denominator: 'currentLiabilities',
    pattern: /\b(?:net\s+)?working\s+capital\b(?!\s+ratio)/i,
    describe: 'total current assets minus total current liabilities, at the same date',
    means: 'the cushion for running the business: what is left of short-term assets once short-term bills are paid; below zero, bills due within a year exceed them',
  },
  {
    id: 'interestCoverage',
    label: 'interest coverage',
    kind: 'times',
    numerator: 'operatingIncome',
    denominator: 'interestExpense',
    annual: true,
    pattern: /\binterest\s+coverage(?:\s+ratio)?\b|\btimes[- ]interest[- ]earned(?:\s+ratio)?\b|\btie\s+ratio\b/i,
    describe: 'operating income over interest expense, for the same period (operating income standing in for EBIT, which companies do not report as such)',
    means: "how many times over the operating profit pays the interest on the company's debt",
  },
  {
    id: 'bookValuePerShare',
    label: 'book value per share',
    kind: 'perShare',
    numerator: 'stockholdersEquity',
    denominator: 'sharesOutstanding',
    pattern: /\b(?:book\s+value|equity)\s+per\s+(?:common\s+)?share\b|\bbvps\b/i,
    describe: "shareholders' equity over shares outstanding, at the same date",
    means: 'what each share would get if the company were wound up at the value its books give',
  },
  {
    id: 'effectiveTaxRate',
    label: 'effective tax rate',
    kind: 'percent',
    numerator: 'incomeTax',
    denominator: 'pretaxIncome',
    pattern: /\b(?:effective\s+)?(?:income\s+)?tax\s+rate\b|\betr\b/i,
    describe: 'income tax expense over income before income taxes, for the same period',
    means: 'the share of pre-tax profit paid in income tax',
  },
  {
    id: 'payoutRatio',
    label: 'payout ratio',
    kind: 'percent',
    numerator: 'dividendsPaid',
    denominator: 'netIncome',
    pattern: /\b(?:dividend\s+)?payout\s+ratio\b/i,
    describe: 'dividends paid (from the cash flow statement) over net income, for the same period',
    means: 'the share of profit paid out to shareholders as dividends',
  },
  {
    id: 'fcfConversion',
    label: 'free cash flow conversion',
    kind: 'percent',
    numerator: 'freeCashFlow',
    denominator: 'netIncome',
    // ("FCF to NI", "free cash flow relative to net income", "cash conversion" but not its cycle, "how much of net income converted to free cash flow".)
    pattern: /\b(?:free\s+cash\s+flow|fcf)\s+conversion(?:\s+(?:rate|ratio))?\b|\bcash\s+conversion\b(?!\s+cycle)(?:\s+(?:rate|ratio))?|\b(?:free\s+cash\s+flow|fcf)\s*(?:\/|over|to|divided\s+by|relative\s+to|as\s+a\s+ratio\s+of|as\s+a\s+(?:share|percent(?:age)?|%)\s+of)\s*(?:(?:its|their|the)\s+)?(?:net\s+(?:income|earnings|profit)|ni|earnings|profit)\b|\b(?:net\s+income|ni|earnings|profits?)\s+(?:to\s+(?:free\s+cash\s+flow|fcf)\s+conversion|convert(?:s|ed|ing)?\s+(?:in)?to\s+(?:free\s+cash\s+flow|fcf))\b/i,
    describe: 'free cash flow (operating cash flow less capital expenditure) over net income, for the same period',
    means: 'how much of the profit the company reports arrives as cash it can spend; above 100%, more cash than profit',
  },
  {
    id: 'liabilitiesToAssets',
    label: 'liabilities-to-assets ratio',
    kind: 'percent',
    numerator: 'totalLiabilities',
    denominator: 'totalAssets',
    // ("Total liabilities as a % of total assets" is a share of one figure in another, answered as such.)
    pattern: /\b(?:total\s+)?liabilities[- ]?(?:to|\/)[- ]?(?:total\s+)?assets(?:\s+ratio)?\b/i,
    describe: 'total liabilities over total assets, at the same date',
    means: "how much of what the company owns is owed to others rather than its shareholders' own",
  },
  {
    id: 'fcfPerShare',
    label: 'free cash flow per share',
    kind: 'perShare',
    numerator: 'freeCashFlow',
    denominator: 'sharesOutstanding',
    pattern: /\b(?:free\s+cash\s+flow|fcf)\s+per\s+(?:diluted\s+)?share\b|\bfcfps\b/i,
    describe: "free cash flow (operating cash flow less capital expenditure) over the shares outstanding at the period's end",
    means: 'the cash the business generates after its investment, for each share',
  },
  {
    id: 'revenuePerShare',
    label: 'revenue per share',
    kind: 'perShare',
    numerator: 'revenue',
    denominator: 'sharesOutstanding',
    pattern: /\b(?:revenues?|sales)\s+per\s+(?:diluted\s+)?share\b|\brevenue\/share\b/i,
    describe: "revenue over the shares outstanding at the period's end",
    means: 'the sales the business makes for each share, the base of a price-to-sales ratio',
  },
  {
    id: 'inventoryTurnover',
    label: 'inventory turnover',
    kind: 'times',
    numerator: 'costOfRevenue',
    denominator: 'inventory',
    averaged: true,
    annual: true,
    pattern: /\binventory\s+turn(?:over|s)(?:\s+ratio)?\b|\bturns?\s+(?:of|on)\s+inventory\b|\bdays?\s+(?:of\s+)?inventory(?:\s+outstanding)?\b|\binventory\s+days\b|\bdio\b/i,
    describe: 'cost of revenue over average inventory (the mean of the balances at the start and the end of the period); 365 divided by it is the days of inventory held',
    means: 'how many times a year the company sells through its stock; the higher, the less it holds',
  },
  {
    id: 'netDebt',
    label: 'net debt',
    kind: 'difference',
    numerator: 'longTermDebt',
    denominator: 'cash',
    // "Net cash" is the same difference the other way round: a negative net debt.
    pattern: /\bnet\s+(?:debt|cash(?:\s+position)?)\b(?!\s+(?:flows?|from|provided|used))/i,
    describe: 'long-term debt as the balance sheet reports it minus cash and cash equivalents (marketable securities not counted), at the same date; below zero, the company holds net cash',
    means: 'the debt left if the cash on hand were used to repay it; below zero, the company has more cash than debt',
  },
];

/** The figures a ratio is computed from. */
export const ratioMetrics = (r: RatioDef): MetricId[] => [r.numerator, ...(r.less ? [r.less] : []), r.denominator];

/** Every ratio's words, for taking them out of a question before its figures are read. */
export const RATIO_WORDS = new RegExp(RATIOS.map((r) => `(?:${r.pattern.source})`).join('|'), 'gi');

export const ratioById = (id: RatioId): RatioDef => RATIOS.find((r) => r.id === id)!;

/** The ratio the words name ("ROE", "debt to equity"). */
export const ratioNamed = (words: string): RatioDef | undefined => RATIOS.find((r) => r.pattern.test(words));

/** A flow over a balance (a quarter's would be a quarter of a year's), or a ratio said over years: an unnamed period means the latest fiscal year. */
export const isAnnualRatio = (r: RatioDef) => r.annual === true || (metricById(r.numerator).type === 'duration' && metricById(r.denominator).type === 'instant');

/** A ratio of two flows over the same period (FCF conversion, payout ratio, effective tax rate, interest coverage). */
export const isFlowRatio = (r: RatioDef): boolean => ratioMetrics(r).every((id) => metricById(id).type === 'duration' && !metricById(id).averaged) && !r.averaged;

/**
 * A ratio asked over the trailing twelve months ("FCF conversion TTM", "ROE TTM", "FCF per share TTM") is of
 * the four quarters, each summed: a ratio of two flows, or a flow over an averaged balance or a balance at the end.
 */
export const hasTwelveMonths = (r: RatioDef): boolean => {
  const flow = metricById(r.numerator).type === 'duration' && !metricById(r.numerator).averaged;
  // (A flow over a balance at the end, "FCF per share TTM": the four quarters' flow over the balance at the last one's end.)
  return isFlowRatio(r) || (flow && (r.averaged === true || metricById(r.denominator).type === 'instant'));
};

/** The shares of revenue answered as margins by name, from the figure each divides by revenue (see the SEC agent's plan). */
export const MARGIN_NAMES: Partial<Record<MetricId, string>> = { grossProfit: 'gross margin', operatingIncome: 'operating margin', netIncome: 'net margin', freeCashFlow: 'free cash flow margin', operatingCashFlow: 'operating cash flow margin' };

/**
 * Every ratio and margin computed here, from the tables that define them (RATIOS, MARGIN_NAMES),
 * each with what it can be asked over: for "what ratios can you compute?", help and the answer to
 * a ratio not computed. Nothing is listed that the tables do not define.
 */
export function ratioCatalogue(): { margins: string[]; ratios: { label: string; twelveMonths: boolean }[]; twelveMonths: string[] } {
  const margins = Object.values(MARGIN_NAMES) as string[];
  const ratios = RATIOS.map((r) => ({ label: r.label, twelveMonths: hasTwelveMonths(r) }));
  return { margins, ratios, twelveMonths: [...margins, ...ratios.filter((r) => r.twelveMonths).map((r) => r.label)] };
}

/** "gross margin, operating margin and net margin". */
const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The catalogue in a sentence: "Margins: …. Ratios: …. Over the trailing twelve months: …." */
export function ratioCatalogueText(): string {
  const c = ratioCatalogue();
  return `Margins (each a figure over the same period's revenue): ${listed(c.margins)}. Ratios: ${listed(c.ratios.map((r) => r.label))}. Over the trailing twelve months ("TTM", the four quarters summed): ${listed(c.twelveMonths)}. Any of them over a quarter, a fiscal or calendar year, as a trend over periods ("debt-to-equity trend over the last 3 years"), against an earlier period, or across companies.`;
}

/** "What ratios can you compute?" ("which ratios do you support?", "list the ratios you have", "what metrics can you calculate for Apple?"). */
export const RATIO_LIST_ASKED = /\b(?:what|which)\s+(?:(?:other|financial|kinds?\s+of|sorts?\s+of)\s+)?(?:ratios|margins|metrics|multiples)\b[^?.!]{0,40}\b(?:can|could|do|does|will)\s+(?:you|it|the\s+agent)\b|\b(?:list|show)\b[^?.!]{0,25}\b(?:ratios|margins)\b[^?.!]{0,30}\b(?:you|available|supported|compute[ds]?|calculated?)\b|\b(?:ratios|margins)\s+(?:are\s+)?(?:available|supported)\b|\bwhat\s+ratios\b[^?.!]{0,20}\b(?:are\s+there|exist|available)\b/i;
