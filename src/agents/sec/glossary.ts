import { METRIC_PHRASES, metricById, type MetricId } from '../../data/sec/metrics.js';
import { RATIOS } from '../../data/sec/ratios.js';
import { capitalise } from './format.js';

/**
 * What the words a reader meets in these answers mean ("what does EPS stand for?", "whats a
 * 10-Q", "what does yoy mean", "difference between diluted and basic"): a fixed glossary of the
 * figures, ratios, changes and filings this agent reads or computes. A term that is a figure of a
 * company (capex, net margin, TTM EPS) also says how to ask for it, so that the answer can give the
 * figure of the company being discussed right after the meaning.
 */

/** What the common figures are, in a line each. */
export const MEANINGS: Partial<Record<MetricId, string>> = {
  revenue: 'what the company took in from selling its goods and services in the period (its top line), before any costs',
  costOfRevenue: 'what it cost to make or buy the goods and deliver the services sold in the period (also called cost of sales or COGS)',
  grossProfit: 'revenue minus the cost of the goods and services sold; as a share of revenue, the gross margin',
  operatingExpenses: 'the costs of running the business beyond the cost of what was sold: research and development, sales and marketing, general and administrative',
  researchAndDevelopment: 'what the company spent on research and on developing new products in the period, counted as an expense when spent',
  sellingGeneralAdministrative: 'selling, general and administrative expense: the costs of selling (sales staff, marketing) and of running the company (management, finance, legal)',
  operatingIncome: 'gross profit minus operating expenses (research, selling, general and administrative): what the business itself earned, before interest and tax; as a share of revenue, the operating margin',
  pretaxIncome: 'profit before income tax: operating income plus or minus interest and other non-operating items',
  incomeTax: 'the income tax the company charges against its profit for the period (not the same as the tax it paid in cash that period)',
  netIncome: 'what is left of revenue after every cost, interest and tax (the bottom line); as a share of revenue, the net margin',
  dilutedEps: 'net income divided by the weighted-average shares outstanding, counting the shares that options and convertible securities would add',
  basicEps: 'net income divided by the weighted-average shares outstanding in the period, without the shares that options and convertible securities could add',
  interestExpense: 'what the company paid, or owes, in interest on its debt for the period',
  operatingCashFlow: 'the cash the business brought in from its operations in the period, which differs from net income by non-cash items (depreciation, stock pay) and changes in working capital',
  capitalExpenditure: 'cash spent on property and equipment (buildings, data centres, machines): investment that shows up on the balance sheet, not as an expense',
  freeCashFlow: 'operating cash flow minus capital expenditure: the cash a business generates after the investment it needs, which it can return to shareholders, save or use to pay debt',
  shareRepurchases: "cash spent buying back the company's own shares",
  dividendsPaid: 'cash paid out to shareholders as dividends',
  cash: 'cash and cash equivalents on the balance sheet (not counting marketable securities)',
  inventory: 'goods the company holds to sell, and the parts and materials to make them, valued at cost on the balance sheet',
  currentAssets: 'what the company owns that it expects to turn into cash within a year: cash, short-term investments, receivables, inventory',
  currentLiabilities: 'what the company owes that falls due within a year: payables, short-term debt, accrued costs, deferred revenue',
  totalAssets: 'everything the company owns or controls that has value, as its balance sheet counts it',
  totalLiabilities: 'everything the company owes to others: suppliers, lenders, tax authorities, customers who paid in advance',
  longTermDebt: 'borrowing due after more than a year, as the balance sheet reports it',
  stockholdersEquity: "total assets minus total liabilities: the owners' stake in the books (book value)",
  sharesOutstanding: 'the number of shares the company has issued and not bought back, at a date',
};

interface Term {
  /** The words that name it, as the whole subject of the question. */
  names: RegExp;
  /** Its meaning, in Markdown, one line. */
  text: string;
  /**
   * How to ask for it of the company discussed, as a follow-up the figures agent reads ("capital
   * expenditure", "qoq"), given whether the period discussed is a fiscal year; absent when it is no
   * figure of a company (a form, a unit).
   */
  ask?: (yearDiscussed: boolean) => string;
}

const metricTerm = (id: MetricId): Term => ({ names: /$^/, text: `**${capitalise(metricById(id).label)}** is ${MEANINGS[id]}.`, ask: () => metricById(id).label });

const TERMS: Term[] = [
  {
    names: /^(?:eps|e\.p\.s\.?|earnings per share)$/,
    text: '**EPS** (earnings per share) is net income divided by the weighted-average shares outstanding in the period: the profit that belongs to each share. **Diluted EPS** also counts the shares that options, restricted stock units and convertible securities would add.',
    ask: () => 'diluted eps',
  },
  {
    names: /^(?:diluted|basic|fully diluted)(?: eps| earnings per share| shares)?$/,
    text: '**Basic EPS** divides net income by the weighted-average shares outstanding; **diluted EPS** also counts the shares that stock options, restricted stock units and convertible securities would add if they became shares, so it is at most basic EPS (the two are close when few such shares exist).',
    ask: () => 'basic and diluted eps',
  },
  {
    names: /^(?:yoy|y\/y|y-o-y|year[- ](?:over|on)[- ]year)(?: growth| change)?$/,
    text: '**YoY** (year over year): a figure compared with the same period a year earlier (a quarter with the same quarter of the year before, a fiscal year with the fiscal year before), which keeps seasonal swings out of the change.',
    ask: () => 'year over year',
  },
  {
    names: /^(?:qoq|q\/q|q-o-q|quarter[- ](?:over|on)[- ]quarter|sequential(?:ly)?)(?: growth| change)?$/,
    text: '**QoQ** (quarter over quarter, also "sequential"): a quarter compared with the quarter just before it; for a seasonal business the season is part of that change, which year over year keeps out.',
    ask: (year) => (year ? 'latest quarter, quarter over quarter' : 'quarter over quarter'),
  },
  {
    names: /^(?:ttm|ltm|(?:trailing|last) (?:twelve|12) months)$/,
    text: '**TTM** (trailing twelve months, also LTM): the last four reported quarters added up, a full year of figures that ends at the latest quarter instead of at the fiscal year-end.',
    ask: () => 'ttm',
  },
  {
    names: /^(?:cagr|compound(?:ed)? annual growth(?: rate)?)$/,
    text: '**CAGR** (compound annual growth rate): the steady yearly rate that takes a figure from its first value to its last over the years between, (last ÷ first)^(1 ÷ years) − 1; it smooths out the ups and downs in between.',
  },
  {
    names: /^gross (?:profit )?margins?$/,
    text: '**Gross margin**: gross profit (revenue minus the cost of the goods and services sold) as a percentage of revenue: what is left of each dollar of sales after the direct cost of what was sold.',
    ask: () => 'gross margin',
  },
  {
    names: /^(?:operating|op|ebit) margins?$/,
    text: '**Operating margin**: operating income (gross profit minus research, selling and administrative costs) as a percentage of revenue: what the business itself earns on each dollar of sales, before interest and tax.',
    ask: () => 'operating margin',
  },
  {
    names: /^(?:net(?: profit)?|profit) margins?$/,
    text: '**Net margin**: net income as a percentage of revenue: what is left of each dollar of sales after every cost, interest and tax.',
    ask: () => 'net margin',
  },
  {
    names: /^(?:margins?|profit margins)$/,
    text: "A **margin** is a profit as a percentage of revenue: **gross margin** after the cost of what was sold, **operating margin** after the costs of running the business too, **net margin** after every cost, interest and tax.",
    ask: () => 'gross, operating and net margin',
  },
  { ...metricTerm('capitalExpenditure'), names: /^(?:capex|cap ex|capital expenditures?|capital spending)$/ },
  { ...metricTerm('freeCashFlow'), names: /^(?:fcf|free cash flows?)$/ },
  { ...metricTerm('operatingExpenses'), names: /^(?:opex|operating expenses?|operating costs?)$/ },
  { ...metricTerm('costOfRevenue'), names: /^(?:cogs|cost of (?:revenues?|sales|goods sold))$/ },
  { ...metricTerm('netIncome'), names: /^(?:net income|net profit|net earnings|bottom line|profit|earnings)$/ },
  { ...metricTerm('revenue'), names: /^(?:revenues?|sales|net sales|top line|turnover)$/ },
  { ...metricTerm('stockholdersEquity'), names: /^(?:(?:share|stock)holders'? equity|(?:shareholder|stockholder|owners'?) equity|equity|book value)$/ },
  {
    names: /^(?:(?:form )?10-?k|annual report)s?$/,
    text: '**Form 10-K** is the annual report a US-listed company files with the SEC after each fiscal year: audited financial statements, with its business, risk factors and management\'s discussion of the results; due 60 to 90 days after the year ends, by the company\'s size.',
  },
  {
    names: /^(?:(?:form )?10-?q|quarterly report)s?$/,
    text: '**Form 10-Q** is the quarterly report a US-listed company files with the SEC for each of the first three quarters of its fiscal year (the 10-K covers the fourth): unaudited financial statements for the quarter and the year to date; due 40 to 45 days after the quarter ends.',
  },
  {
    names: /^(?:form )?8-?k$/,
    text: '**Form 8-K** is the report a company files with the SEC within four business days of a major event: results announced, an acquisition, a change of executives, a new debt agreement. An earnings press release is often filed as an exhibit to one; it is not the audited statements.',
  },
  {
    names: /^(?:xbrl|ixbrl|inline xbrl)$/,
    text: '**XBRL** (eXtensible Business Reporting Language) is the tagging companies file their financial statements in: each figure carries a concept name (such as us-gaap:NetIncomeLoss), a period and a unit, so software can read it. The figures I give are read from those tags, each cited to the filing page that shows it.',
  },
  {
    names: /^(?:bps|bp|basis points?)$/,
    text: '**Basis point** (bp, plural bps): one hundredth of a percentage point, 0.01%; a margin going from 46.2% to 47.1% rose 90 bps.',
  },
  {
    names: /^(?:percentage points?|pp|pts)$/,
    text: 'A **percentage point** is the difference between two percentages: a margin going from 46% to 47% rose 1 percentage point, which is a 2.2% rise of the margin itself.',
  },
  {
    names: /^(?:fiscal (?:year|quarter)s?|fy)$/,
    text: 'A **fiscal year** is the twelve months a company keeps its books by, named for the calendar year it ends in; it need not be the calendar year (Apple\'s ends in late September, Microsoft\'s on June 30), and its **fiscal quarters** are counted from its start.',
  },
  {
    names: /^balance sheets?$/,
    text: "A **balance sheet** shows, at one date (a quarter's or a year's end), what a company owns (assets), what it owes (liabilities) and the owners' stake (shareholders' equity, assets minus liabilities).",
  },
  {
    names: /^(?:income statements?|p&l|profit and loss(?: statement)?|statements? of (?:operations|income))$/,
    text: 'An **income statement** (profit and loss) shows, over a period, the revenue, the costs taken from it and the profit left at each step (gross profit, operating income, net income), ending with earnings per share.',
  },
  {
    names: /^(?:cash[- ]flow statements?|statements? of cash flows?)$/,
    text: 'A **cash flow statement** shows the cash that came in and went out over a period, from operations, from investing (capital expenditure, acquisitions, securities) and from financing (borrowing, dividends, buybacks).',
  },
  {
    names: /^(?:p\/?e|pe ratio|p\/e ratio|price[- ]to[- ]earnings(?: ratio)?)$/,
    text: '**P/E** (price to earnings): the share price divided by earnings per share, usually the last twelve months\' diluted EPS; how many years of current earnings the price pays for. The filings give the EPS, not the price: ask “Apple P/E at $200” with a price.',
    ask: () => 'ttm diluted eps',
  },
  {
    names: /^(?:market cap(?:itali[sz]ation)?|mkt cap)$/,
    text: "**Market capitalisation**: the share price times the shares outstanding, the market's value of the whole company; the filings give the share count, not the price.",
  },
  {
    names: /^(?:ebitda)$/,
    text: '**EBITDA**: earnings before interest, taxes, depreciation and amortization, usually operating income plus depreciation and amortization. It is not a GAAP figure, so companies do not tag it in their XBRL data.',
  },
  {
    names: /^(?:gaap|us gaap|non-?gaap)$/,
    text: '**GAAP**: US generally accepted accounting principles, the rules audited financial statements follow. **Non-GAAP** figures (adjusted EPS, EBITDA) are the company\'s own measures outside them.',
  },
  {
    names: /^(?:dilution|share dilution)$/,
    text: '**Dilution**: a company\'s share count growing (new shares for stock pay, acquisitions or convertibles), which spreads its profit over more shares; buybacks work the other way.',
  },
  {
    names: /^(?:buybacks?|share buybacks?|stock buybacks?|share repurchases?|repurchases?)$/,
    text: `**Share repurchases** (buybacks) are ${MEANINGS.shareRepurchases}, which leaves fewer shares to share the profit.`,
    ask: () => 'share repurchases',
  },
  {
    names: /^(?:\(derived\)|derived|derived (?:figures?|numbers?|values?)|a derived (?:figure|number|value))$/,
    text: '**(derived)** marks a figure computed here from figures the filings report, not reported as such: free cash flow (operating cash flow minus capital expenditure), a fourth quarter (the fiscal year minus the first nine months), a cash-flow quarter (the difference of two year-to-date figures), a sum of quarters, or a total a filer does not tag (from its parts). The answer says how it was computed and cites each figure it uses.',
  },
  {
    names: /^(?:a )?(?:million|billion|thousand|trillion|mn|bn)s?$/,
    text: 'A **million** is 1,000,000; a **billion** is a thousand millions (1,000,000,000), and a **trillion** a thousand billions: $12,500 million is $12.5 billion.',
  },
];

/** A ratio's meaning, from how it is computed here. */
const ratioTerms: Term[] = RATIOS.map((r) => ({
  names: new RegExp(`^(?:the |a |an )?(?:${r.pattern.source})$`, 'i'),
  text: `**${capitalise(r.label)}**: ${r.describe}; it tells ${r.means}.`,
  ask: () => r.label,
}));

/** A figure named by one of its phrases ("operating cash flow", "r&d"), when its meaning is written. */
function metricNamed(words: string): Term | undefined {
  const id = METRIC_PHRASES.find((p) => p.phrase === words)?.id;
  return id && MEANINGS[id] ? metricTerm(id) : undefined;
}

function termNamed(words: string): Term | undefined {
  const w = words.replace(/^(?:a|an|the)\s+/, '').replace(/['’]s$/, '').trim();
  return TERMS.find((t) => t.names.test(w)) ?? ratioTerms.find((t) => t.names.test(w)) ?? metricNamed(w);
}

/** Every part of a subject is a term ("diluted and basic", "a billion vs a million"): those terms; otherwise none. */
function termsOf(subject: string): Term[] | null {
  const parts = subject.split(/\s*(?:,|\band\b|\bvs\.?|\bversus\b|\bor\b|\bcompared (?:to|with)\b|&(?!\w))\s*/).filter(Boolean);
  const terms = parts.map(termNamed);
  if (!parts.length || terms.some((t) => !t)) {
    // ("Profit and loss", "R&D" hold the words split on: the subject whole.)
    const whole = termNamed(subject);
    return whole ? [whole] : null;
  }
  return [...new Set(terms as Term[])];
}

/** Words that open a message without asking anything ("ok thx.", "sorry,", "so"). */
const LEAD = /^(?:(?:ok(?:ay)?|so|and|also|thx|thanks|thank you|sorry|hey|hi|hmm+|um+|wait|btw|quick question|one more thing|newbie question|dumb question|sry)\b[\s,.!:;-]*)+/;
/** Words that close one without changing it ("again", "exactly", "im new to this"). */
const TAIL = /(?:\s*[,;-]?\s*\b(?:again|exactly|actually|anyway|then|here|please|pls|plz|lol|lmao|haha|tho|in simple terms|in plain english|in simple words|(?:i'?m|i am) new to (?:this|investing|finance|stocks))\b|\s*,?\s*(?:and\s+)?(?:is (?:a )?(?:higher|lower|bigger|smaller|more|less)(?: one| number| ratio)? (?:better|worse|good|bad)|(?:is it|is that) (?:good|bad)|what does it (?:tell|mean|show)(?: me| you)?|how is it (?:computed|calculated)))+$/;

/** Ways of asking what a term is; the subject is the first group (and the second, for a difference). */
const FRAMES: RegExp[] = [
  /^(?:what|wat|wht|wut)\s*(?:'s|s|’s|\s+is|\s+are|\s+does|\s+do)?\s+(?:a |an |the )?(.+?)\s+(?:stand for|stands for|mean|means|short for|refer to)$/,
  /^(?:what|wat|wht|wut)(?:'s|s|’s|\s+is|\s+are)\s+(?:a |an )?(?!the\b)(.+)$/,
  /^(?:define|explain|meaning of|definition of|what is meant by|what do you mean by|whats meant by)\s+(?:a |an |the |what )?(.+?)(?:\s+(?:is|means|to me))?$/,
  /^(?:what(?:'s|s|’s| is| are)\s+)?(?:the\s+)?(?:diff\w*|diference)\s+(?:between|btw|b\/w)\s+(.+)$/,
  /^(.+?)\s+(?:means|stands for)$/,
  /^how (?:much|big) is (?:a |an |one )?(.+)$/,
  // "How is diluted different from basic", "how does basic differ from diluted eps": both terms.
  /^how (?:is|are|does|do) (?:a |an |the )?(.+?) (?:different|differ|vary)(?: from| to| than| with)? (?:a |an |the )?(.+)$/,
];
/** After a meaning, another term alone asks its meaning too ("what does yoy mean", "and qoq?"). */
const ANOTHER = /^(?:and|what about|how about|also|same for)?\s*(?:the\s+)?(.+)$/;

/** What ends a sentence besides its words: marks, emoji. */
const END = /[^\p{L}\p{N})]+$/u;

const sentences = (text: string) =>
  text
    .toLowerCase()
    .replace(/[“”]/g, '"')
    .split(/(?<=[?!])\s*|(?<=[a-z]\.)\s+|\n+/)
    .map((s) => s.replace(LEAD, '').replace(END, '').replace(TAIL, '').replace(END, '').trim())
    .filter(Boolean);

function termsAskedIn(text: string): Term[] | null {
  for (const s of sentences(text)) {
    for (const frame of FRAMES) {
      const m = frame.exec(s);
      const subject = m ? [m[1], m[2]].filter(Boolean).join(' and ') : undefined;
      const terms = subject ? termsOf(subject.trim()) : null;
      if (terms) return terms;
    }
  }
  return null;
}

export interface MeaningAsked {
  /** The meanings, as Markdown list lines. */
  text: string;
  /** How to ask for the terms' figures of the company discussed ("capital expenditure"); null when no term is a figure. */
  ask: ((yearDiscussed: boolean) => string) | null;
}

/**
 * The meaning asked for in the last question, of the glossary's terms only; null when it asks
 * anything else ("what is apple's eps?" asks a figure). A term alone after a meaning ("and qoq?")
 * asks its meaning too.
 */
export function meaningAsked(last: string, before: string | undefined): MeaningAsked | null {
  let terms = termsAskedIn(last);
  if (!terms && before !== undefined && termsAskedIn(before)) {
    const s = sentences(last);
    const subject = s.length === 1 ? ANOTHER.exec(s[0]!)?.[1] : undefined;
    terms = subject ? termsOf(subject) : null;
  }
  if (!terms) return null;
  const asks = terms.flatMap((t) => (t.ask ? [t.ask] : []));
  return {
    text: terms.map((t) => `- ${t.text}`).join('\n'),
    ask: asks.length ? (year) => asks.map((a) => a(year)).join(', ') : null,
  };
}
