import { editDistance } from '../../text.js';
import { coreName, tokenize, type CompanyIndex, type CompanyEntry, type Token, refOf } from './companies.js';
import { isIsoDate } from './dates.js';
import { METRIC_PHRASES, metricById, type MetricId } from './metrics.js';
import { RATIO_WORDS, isAnnualRatio, ratioById, ratioMetrics, ratioNamed, type RatioId } from './ratios.js';
import type { CompanyRef } from './types.js';

/**
 * Understanding a question about company filings: which companies, which figures, which
 * period, which comparison. Pure (given the company index), so the router and other agents can
 * reuse it; follow-ups ("and the quarter before?", "how about Microsoft?") are parsed against
 * the previous question of the conversation.
 */

export type PeriodSpec =
  /** A fiscal quarter in the company's own terms; `fy` null: the most recent such quarter. `calendar`: the quarter ending in that calendar quarter. */
  | { kind: 'fiscalQuarter'; fy: number | null; q: 1 | 2 | 3 | 4; calendar?: boolean }
  | { kind: 'fiscalYear'; fy: number | null }
  /** January to December of a year ("calendar 2024"): for a company whose fiscal year is another, the fiscal quarters ending in it. */
  | { kind: 'calendarYear'; year: number }
  /** The quarter or year ending on (or nearest to, within `toleranceDays`) a date. */
  | { kind: 'ended'; date: string; span: 'quarter' | 'year'; toleranceDays: number }
  | { kind: 'latest'; span: 'quarter' | 'year' }
  /** Another period moved by whole quarters and years ("the quarter before", "a year earlier"). */
  | { kind: 'shift'; base: PeriodSpec; quarters: number; years: number }
  /**
   * Consecutive quarters ending with the quarter `base` means (null: the latest): `quarters` of
   * them ("six months ended", "first half", "second half", "Q1-Q3 2024", "the last six months"),
   * or, when null, the fiscal year to date ("YTD", "year to date").
   */
  | { kind: 'span'; base: PeriodSpec | null; quarters: 2 | 3 | 4 | null };

/** 'versus': with the earlier period the question names (`SecQuestion.versus`), neither a year nor a quarter before. */
export type Comparison = 'yoy' | 'qoq' | 'versus';

export type CompanyMention =
  | { status: 'found'; text: string; company: CompanyRef; fuzzy: boolean }
  | { status: 'ambiguous'; text: string; candidates: CompanyRef[] }
  | { status: 'unknown'; text: string; suggestions: CompanyRef[] };

export interface SecQuestion {
  text: string;
  companies: CompanyMention[];
  metrics: MetricId[];
  /** null: not said (the latest quarter is meant). */
  period: PeriodSpec | null;
  comparison: Comparison | null;
  /** Year over year and quarter over quarter both asked for ("yoy and qoq"): `comparison` is 'yoy', the quarter-over-quarter change is given beside it. */
  alsoQoq?: boolean;
  /** The earlier period named to compare with when it is neither a year nor a quarter before ("FY2024 vs FY2022", "Q3 2024 vs Q1 2024"). */
  versus: PeriodSpec | null;
  /** A filing named as such ("the latest 10-K", "annual report"). */
  form: '10-K' | '10-Q' | null;
  /** What this turn said itself, as opposed to what it carried over from earlier turns. */
  stated: { companies: boolean; metrics: boolean; period: boolean; comparison: boolean };
  /** The previous question's companies, when this turn replaced them (a follow-up about another company). */
  switchedFrom: CompanyMention[] | null;
  /** One figure asked as a share of the other ("total liabilities as a % of total assets"); kept by a follow-up naming no figure ("and Microsoft's?"). */
  shareOf?: boolean;
  /** Basis points asked for ("by how many bps"), here or in the question this one follows up. */
  bps?: boolean;
  /** Amounts asked in a scale of their own ("in billions please": 9), here or in the question this one follows up. */
  scale?: 3 | 6 | 9;
  /**
   * "Goog cash at the same date" after Microsoft's at the end of its fiscal 2024: the date the
   * period means for that company (2024-06-30), not the one it means for this one. Kept by
   * follow-ups that name no period ("and apple's?").
   */
  sameDateAs?: { company: CompanyRef; period: PeriodSpec | null };
  /** Every company named in the conversation so far, first named first ("for each" of them); those not found too, by the words naming them. */
  discussed?: CompanyMention[];
  /** The period this turn's was moved from ("and the prior fiscal year?" after fiscal 2024: fiscal 2024), so that "what was the change?" next compares the two. */
  movedFrom?: PeriodSpec | null;
  /** A margin or a share of revenue was asked for ("gross margin", "R&D as a share of revenue"): the figure as a share of revenue too. */
  margin: boolean;
  /**
   * Two periods asked together with no change or comparison asked ("revenue in Q3 2024 and Q4 2024",
   * "Q3 2024? And in Q4?"): both figures are the answer (`period` the later, `versus` or the change's period the earlier).
   */
  periodsListed?: boolean;
  /** Two companies each asked about with a period of its own: those periods (`period` is the first). */
  periodsByCompany?: { cik: number; period: PeriodSpec }[] | null;
  /** Companies each named with figures of their own ("Apple revenue and Microsoft net income"): those figures, company by company. */
  metricsByCompany?: { cik: number; metrics: MetricId[] }[] | null;
  /** Trailing twelve months were asked for ("TTM", "last twelve months"): the four quarters to the period, summed. */
  ttm: boolean;
  /** Figures this turn asked for that are not among the metrics ("EBITDA", "goodwill"), as written: said to be unknown, never replaced by others. */
  unknownFigures: string[];
  /** Ratios asked for ("ROE", "debt to equity"): `metrics` holds the figures each is computed from. */
  ratios?: RatioId[];
  /** Cash burn asked ("what's Apple's cash burn?"), here or in the question this one follows up ("and Alphabet?"): free cash flow said as a burn or none. */
  burn?: boolean;
  /** Cash runway asked ("how long is their runway?", "when do they run out of cash?"), here or in the question this one follows up: months of cash at the burn. */
  runway?: boolean;
  /**
   * Two figures of a company set against each other ("Apple operating cash flow vs net income"), here or in the
   * question this one follows up naming no figure ("and Microsoft?"): which is larger, by how much, and how many times.
   */
  against?: boolean;
  /**
   * Operating leverage asked ("Microsoft's operating leverage in FY2024"), here or in the question this one follows up
   * naming no figure: operating income's growth against revenue's (`metrics` holds both), a year over year unless said.
   */
  operatingLeverage?: boolean;
  /**
   * The words of the question a bare follow-up repeats of another company or period ("and Microsoft's? yes or no"
   * after "did it grow?"): that question's, so that its direction ("did it grow?") is answered yes or no again.
   */
  askedAs?: string;
}

/** A question asking which way a figure went, or one answered yes or no ("did it grow?", "did revenue fall?"). */
const ASKS_DIRECTION = /^\W*(?:(?:so|and|but|ok)\W+)*(?:did|does|do|has|have|had|is|was|were|are)\b|\b(?:grow|grows|grew|grown|growing|rise|rises|rose|risen|fall|falls|fell|fallen|declined?|increased?|decreased?|drop(?:ped)?|faster|slower|shr[iau]nk)\b/i;
/** A follow-up naming only another company or period, in a few words ("and Microsoft's?", "what about 2023? yes or no"). */
const BARE_FOLLOW_UP = /^\W*(?:and|what about|how about|same for|also|now|ok(?:ay)?)\b/i;

/** Words asking two periods' change or comparison, not just their figures ("vs", "growth", "from … to", "by how much"). */
const COMPARING = /\b(?:vs\.?|versus|compar\w*|chang\w*|grow\w*|grew|increase\w*|decrease\w*|rise|rose|risen|fell|fall\w*|drop\w*|declin\w*|differen\w*|gap|yoy|qoq|y\/y|q\/q|from|since|between|against|relative|up|down|higher|lower|more|less|better|worse|bigger|smaller|much|bps|points|times)\b/i;

/** Operating leverage asked: how operating income grows against revenue ("op leverage", "degree of operating leverage"), not debt. */
export const OPERATING_LEVERAGE = /\b(?:operating|op\.?|operational)\s+leverage\b/i;
/** Two figures named set against each other ("operating cash flow vs net income", "capex compared to operating cash flow"). */
const FIGURES_AGAINST = /\b(?:vs\.?|versus|compared\s+(?:to|with)|against|relative\s+to)\s/i;

/** Cash burn asked ("cash burn", "burn rate", "is it burning cash?", "how much cash is Microsoft burning?"). */
export const BURN_ASKED = /\b(?:cash\s+burn|burn\s+rate|burn(?:s|ing|ed|t)?\s+(?:through\s+)?cash)\b|\bcash\b(?=[^.?!]{0,40}\bburn(?:s|ing|ed|t)?\b)/i;

/** Cash runway asked ("how long is their runway?", "how long will the cash last?", "when will they run out of money?", "months of cash left"). */
export const RUNWAY_ASKED = /\b(?:cash\s+)?runway\b|\bhow\s+long\b[^?.!]{0,40}\b(?:cash|money|funds?)\b[^?.!]{0,25}\blast\b|\b(?:run|running|runs|ran)\s+out\s+of\s+(?:cash|money|funds?)\b|\bmonths\s+of\s+(?:cash|runway|funding)\b/i;

const TTM = /\b(?:ttm|ltm|(?:trailing|last|past)\s+(?:twelve|12)[- ]months?|trailing\s+(?:year|4\s+quarters|four\s+quarters))\b/gi;

/** Revenue, with the span or kind it may be said with ("TTM revenue", "annual sales", "total revenue"). */
const REVENUE_WORDS = '(?:(?:ttm|ltm|trailing(?:\\s+(?:twelve|12)[- ]months?)?|annual|quarterly|full[- ]year|total|net)\\s+)?(?:revenues?|revs?|sales)';
/** "of revenue", "of its sales", "of Apple's revenue", "of TTM revenue". */
const OF_WHOSE = `of\\s+(?:(?:its|their|the)\\s+|[\\w.&-]+(?:'s?|’s?)\\s+)?${REVENUE_WORDS}`;
const OF_REVENUE = new RegExp(`\\b${OF_WHOSE}\\b`, 'i');
const MARGIN = new RegExp(
  `\\b(?:margins?|profitab(?:le|ility)|intensity|(?:share|percent(?:age)?|pct|proportion|fraction) ${OF_WHOSE}|as a (?:share|percent(?:age)?))\\b|%\\s*${OF_WHOSE}\\b|\\b(?:relative to|as a ratio of|divided by) (?:(?:its|their|the) )?${REVENUE_WORDS}\\b|\\b(?:to|-to-)[- ]?(?:revenues?|sales)[- ]ratio\\b`,
  'i',
);

/**
 * Cash returned to shareholders ("how much did Apple return to shareholders?", "capital returns"): dividends paid
 * and share repurchases, together. (Not "total shareholder return", which is the stock's.)
 */
export const SHAREHOLDER_RETURNS = /\b(?:(?:total\s+)?(?:cash\s+|capital\s+|money\s+)?(?:return(?:ed|s|ing)?|gave\s+back|give\s+back|paid\s+out|pay\s+out)\s+to\s+(?:its\s+|their\s+|the\s+)?(?:shareholders|stockholders|investors|owners)|(?<!total\s)shareholder\s+(?:payouts|distributions)|capital\s+returns?|cash\s+returned)\b/i;

/** Statement words standing for several figures. */
const METRIC_GROUPS: { pattern: RegExp; metrics: MetricId[] }[] = [
  { pattern: /\b(?:basic\s+(?:and|&)\s+diluted|diluted\s+(?:and|&)\s+basic)\s+(?:eps|earnings\s+per\s+share)\b|\b(?:eps|earnings\s+per\s+share),?\s+(?:basic\s+(?:and|&)\s+diluted|diluted\s+(?:and|&)\s+basic)\b/gi, metrics: ['basicEps', 'dilutedEps'] },
  { pattern: /\b(income statements?|statements? of (?:operations|income)|p&l|profit and loss)\b/gi, metrics: ['revenue', 'costOfRevenue', 'grossProfit', 'operatingIncome', 'netIncome', 'dilutedEps'] },
  { pattern: /\b(balance sheets?|statements? of financial position)\b/gi, metrics: ['cash', 'totalAssets', 'totalLiabilities', 'stockholdersEquity', 'longTermDebt'] },
  { pattern: /\b(cash[- ]flow statements?|statements? of cash flows?)\b/gi, metrics: ['operatingCashFlow', 'capitalExpenditure', 'freeCashFlow'] },
  { pattern: new RegExp(SHAREHOLDER_RETURNS.source, 'gi'), metrics: ['dividendsPaid', 'shareRepurchases'] },
];

/** The figures answered when a question names a company but no figure. */
export const KEY_METRICS: readonly MetricId[] = ['revenue', 'netIncome', 'dilutedEps'];

/** Figures people ask for that companies' XBRL facts do not carry (non-GAAP measures, ratios not in `RATIOS`, market data) or that are not among the metrics. */
const UNKNOWN_FIGURES =
  /\b(?:adjusted\s+ebitda|ebitda(?:\s+margins?)?|ebit(?!\s+margins?)|earnings\s+before\s+interest,?\s+(?:and\s+)?taxes(?:,?\s+depreciation,?\s+and\s+amortization)?|return\s+on\s+(?:invested\s+capital|capital(?:\s+employed)?)|market\s+(?:cap(?:italization)?|value)|enterprise\s+value|(?:stock|share)\s+price|price[- ]to[- ](?:earnings|book|sales)(?:\s+ratio)?|p\/e(?:\s+ratio)?|pe\s+ratio|dividend\s+yield|(?:analysts?'?|consensus|street|wall\s+street)\s+(?:expectations?|estimates?|forecasts?|consensus)|consensus(?:\s+estimates?)?|(?:analysts?'?\s+)?price\s+targets?|trading\s+at|guid(?:e|ed|es|ing)(?!\w)|(?:doj|ftc|antitrust|court)\s+(?:case|suit|lawsuit|probe|investigation|ruling|trial)|news|headlines?|days?\s+(?:inventory|sales|payables?)\s+outstanding|dio|dso|dpo|inventory\s+turnover|cash\s+conversion\s+cycle|quick\s+ratio|goodwill|backlog|headcount|(?:number\s+of\s+)?employees|accounts\s+(?:receivable|payable)|deferred\s+revenue|same[- ]store\s+sales|valuation|(?:revenues?|sales)\s+per\s+share|(?:revenues?|sales|profits?|net\s+income|income|earnings|cash\s+flow)\s+per\s+(?:employee|head|user|customer|subscriber))\b/gi;

/**
 * Other lines of the statements, named by a word before a figure's own ("interest income", "short-term
 * debt", "current assets", "cash flow from financing", "unearned revenue"): answering with the
 * figure the last word names (net income, long-term debt, total assets, operating cash flow,
 * revenue) would be another number than the one asked for.
 */
const OTHER_LINES =
  /\b(?:(?:interest|other|comprehensive|non[- ]?operating|investment|rental|royalty|core|equity[- ]method|dividend)(?:\s+and\s+other)?\s+(?:income|earnings)(?:\s+\(?(?:loss|expense)\)?)?|(?:short[- ]term|current|net|convertible|senior|secured)\s+(?:debt|borrowings)|(?:non[- ]?current|lease|(?:operating|finance)\s+lease|deferred\s+tax|contingent|pension)\s+liabilit(?:y|ies)|(?:non[- ]?current|intangible|fixed|tangible|right[- ]of[- ]use|deferred\s+tax)\s+assets?|(?:financing|investing)\s+cash\s+flows?|cash\s+(?:flows?\s+)?(?:from|used\s+(?:in|for)|provided\s+by)\s+(?:financing|investing)(?:\s+activities)?|(?:unearned|recurring|subscription|contracted)\s+revenues?|(?:gross\s+profit|operating\s+income|free\s+cash\s+flow|operating\s+cash\s+flow|cash\s+flow|ebitda)\s+per\s+share|(?:cash(?:\s+and\s+cash\s+equivalents)?,?\s+(?:and|plus|\+|&)\s+)?(?:marketable|short[- ]term)\s+(?:securities|investments))\b/gi;

const FIGURE_WORD = '(?:(?:net\\s+)?(?:revenues?|revs?|sales)|(?:operating\\s+|net\\s+)?income|(?:gross\\s+|operating\\s+)?(?:profits?|margins?)|eps|earnings(?:\\s+per\\s+share)?)';
/** A part named after its whole ("share of its operating cash flow went to capex", "how much of revenue was spent on R&D"). */
const SPENT_OUT_OF = /\b(?:share|percent(?:age)?|%|proportion|fraction|portion|part|how much)\s+of\s+[^?.!]*?\b(?:went|goes|go|going|was\s+spent|were\s+spent|is\s+spent|spent|was\s+used|is\s+used|used|was\s+put|is\s+put)\s+(?:to|on|for|into|in)\b/i;
/** One figure as a share of another ("total liabilities as a % of total assets", "cash as a percentage of assets"). */
const SHARE_OF = /\bas (?:an? )?(?:%|percent(?:age)?|share|proportion|fraction) of|(?:%|\bpercent(?:age)?|\bshare|\bproportion) of (?:the |its |their )?(?:total )?/i;

/** Products, services, segments and regions: parts of a company's total, broken down in the notes, not in its company-wide XBRL facts. */
export const PARTS_OF_TOTAL =
  '(?:services|products|hardware|software|subscriptions?|iphones?|ipads?|macs?|wearables|azure|(?:google\\s+|intelligent\\s+)?cloud|advertising|ads?|devices?|data\\s+cent(?:er|re)|automotive|aws|reality\\s+labs|family\\s+of\\s+apps|youtube|search|gaming|xbox|linkedin|office|windows|(?:greater\\s+)?china|americas|europe|japan|(?:rest\\s+of\\s+)?asia(?:[\\s-]+pacific)?|international|domestic|north\\s+america|emea|apac|segments?|regions?|regional|geograph(?:y|ies|ic(?:al)?)|productivity\\s+and\\s+business\\s+processes|more\\s+personal\\s+computing|other\\s+bets|google\\s+services)';
/** Products and segments named alone ("Azure growth rate", "the iPhone business"): parts of a company's total too. */
const PRODUCTS = '(?:azure|aws|youtube|xbox|linkedin|iphones?|ipads?|google\\s+cloud|reality\\s+labs|other\\s+bets|intelligent\\s+cloud|productivity(?:\\s+and\\s+business\\s+processes)?|(?:more\\s+)?personal\\s+computing)';
const PRODUCT_ALONE = new RegExp(`\\b${PRODUCTS}(?:\\s+(?:growth(?:\\s+rate)?|business|segment|unit|division|sales|numbers))?\\b`, 'gi');
/** Whose product a part of a total names, when the question names no company ("Google Cloud revenue"). */
const PRODUCT_OWNERS: [RegExp, string][] = [
  [/\b(?:google|youtube|other bets)\b/i, 'GOOGL'],
  [/\b(?:azure|xbox|linkedin|intelligent cloud|productivity|personal computing)\b/i, 'MSFT'],
  [/\b(?:iphones?|ipads?)\b/i, 'AAPL'],
  [/\baws\b/i, 'AMZN'],
  [/\breality labs\b/i, 'META'],
];
/** Company-defined measures outside the audited statements. */
export const NON_GAAP = '(?:non[- ]?gaap|adjusted|organic|pro[- ]forma|underlying|comparable|constant[- ]currency)';
/**
 * A figure of part of a company ("services revenue", "revenue from China", "Azure revenue") or a
 * non-GAAP one ("adjusted EPS", "revenue excluding TAC"): answering with the company's total or its
 * GAAP figure instead would be a different number than the one asked for, so these are unknown figures.
 */
const QUALIFIED_FIGURES = new RegExp(
  `\\b(?:${PARTS_OF_TOTAL}\\s+${FIGURE_WORD}|${FIGURE_WORD}\\s+(?:from|of|in|by|per)\\s+(?:the\\s+|its\\s+|each\\s+)?(?:google\\s+|microsoft\\s+|apple\\s+)?${PARTS_OF_TOTAL}|${FIGURE_WORD}\\s+(?:breakdown|mix|split)|breakdown\\s+of\\s+(?:the\\s+|its\\s+)?${FIGURE_WORD}|${NON_GAAP}\\s+(?:net\\s+|operating\\s+|diluted\\s+|basic\\s+)?${FIGURE_WORD}|${FIGURE_WORD}\\s+(?:excluding|ex[- ]?)\\s*(?:tac|traffic\\s+acquisition\\s+costs?|special\\s+items|one[- ]?(?:offs?|time\\s+items)))\\b`,
  'gi',
);

/** Finance acronyms that are figures, not companies, beside a company that was found (some are also tickers: ROIC, WACC). CAGR is answered from a table of years. */
const FIGURE_ACRONYMS = new Set(['roic', 'roi', 'roce', 'rotce', 'nopat', 'wacc', 'arpu', 'tsr', 'ebitdar']);

/** Words asking about a company in general ("Apple financials", "Apple results"): the key figures answer those. */
const GENERAL_WORDS = new Set(
  `financials financial fundamentals results performance overview summary snapshot highlights key metrics kpis kpi stats statistics health picture status update updates stock profile standing
lately overall currently recently generally things stuff everything anything something details detail news story position condition shape state file files perform performs performed
performing fare fared faring happen happens happened happening looking looks explain describe summarize summarise tl dr tldr recap gist analyze analyse analysis review breakdown think
list filings filing link links document documents source sources page pages url urls pdf pdfs cite cites cited citation citations reference references proof
thats tiny huge big small low high wow hmm interesting weird crazy nice cool seems seem looks time moment
minus plus divided come comes coming came dip dips dipped spike spiked surge surged slump slumped tank tanked soar soared slip slipped chart charts graph graphs plot visual visualize visualise draw
should buy sell short invest investing investment hold own worth buying good bad overvalued undervalued dump
rate rates negative positive exact exactly accurate precise right correct why reason reasons true really
top bottom runner runner-up second gap times order ranking ranked rank levered leveraged liquid
stand stands cheap cheaper cheapest expensive pricey overpriced underpriced bargain pick choose watch
improve improves improved improving improvement improvements worsen worsens worsened worsening deteriorate deteriorates deteriorated deteriorating strengthening weakening trending
lot lots billion billions million millions trillion trillions bn mn percent
healthy unhealthy normal decent impressive sustainable sensible reasonable worrying concerning solid fine okay ok strong weak alarming
whole entire span stretch`.split(/\s+/),
);

/** Real words one or two letters away from a metric word: never read as its typo. */
const NOT_TYPOS = new Set(['share', 'shared', 'shares', 'learned', 'learns', 'warning', 'warnings', 'takes', 'taxis', 'inventor', 'inventors', 'appreciation', 'purchase', 'purchases', 'repurchased', 'dividend', 'dividends', 'profile', 'profiles', 'saless']);

const STOPWORDS = new Set(
  `a about above according across actually add after again against ago all alongside also am amount amounts an and annual annually any approximately are around as ask at
back based basically be been before being below best between both business but by calendar can cant can't change changed changes co company companies
compare compared comparing comparison corp could data decline declined decrease decreased did do does doing done down during each earlier edgar else end ended
ending ends ever every exactly fall fell fetch historical history past trailing trend trends table tables over since fig figure figures filed filing filings find firm first fiscal for from full fy get gimme give given go going good
got great grew growth had has have having he hello her here hey hi his how hows how's however i id i'd if im i'm in inc include including increase increased info
information into is it its it's just know last later latest let like look lookup ltd made make many may me mean meant more most much my need new next no not now
number numbers of off ok okay on one only or other our out over per percent percentage period periods please pls plc prior pull quarter quarterly quarters
question quick quickly really recent report reported reporting reports right rise roughly rose same say see sec second show side sidebyside so some sorry
statement statements sure tell than thank thanks that that's the their them then there these they third this those through thx to today too total two up us use
used value values versus vs want was we well went were what what's whats when where which while who why will with would year yearly years yes yet you your
largest smallest highest lowest biggest bigger larger smaller higher lower greater share rank ranked ranking order ordered difference whose
combined together altogether sum summed totals cumulative cumulatively
grow grows growing grown gain gains gained shrink shrinks shrank shrunk drop drops dropped jump jumped climb climbed falls fallen rises risen increases decreases declines
improve improved worsen worsened move moved peak peaked peaks record strongest weakest strong weak top
faster slower quicker better worse fastest slowest quickest worst ahead behind leads leading winner
money help three four five six
explain define definition meaning mean means market markets economy fast slow slowly riskier safer risky
sentence sentences word words bps basis expand expanded expansion contract contracted contraction narrow narrowed widen widened compressed intensity line lines levered leveraged leverage alone itself standalone stack stacks stacked stacking measure measures
average averages avg median cagr compound compounded compounding annualized annualised rate
billions millions thousands bn mn mm bns mns plz instead replace replacing rather place
wat wats wut wuts wot wich wht hw abt teh
industry sector peers peer sustainable sensible reasonable worrying concerning drove drive drives driving driver drivers caused causes behind reason reasons
calculated calculate calculation computed compute formula headline headlines seasonally seasonal seasonality bullets bullet swap swapped converts
incl inclusive annualize annualise annualized annualised ratio ratios whos spend spends spent spending absolute dollars dollar terms count points point pts pp days day months month yrs yr qtr qtrs rn fine listed date dates stocks wait yeah yep nope btw lol plz yo n tho lmao haha bro dude ya kk sitting got gotta`.split(/\s+/),
);

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7, july: 7,
  aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
};
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = `(?:${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})|(\\d{1,2})\\s+${MONTH},?\\s+(\\d{4})|(\\d{4})-(\\d{2})-(\\d{2})|(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2}))(?!\\d)`;
const ORDINAL: Record<string, 1 | 2 | 3 | 4> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, last: 4, final: 4 };
const COUNT: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** The date in the capture groups of DATE starting at `g` (13 groups); null when not a real date. */
function dateFrom(m: RegExpExecArray | RegExpMatchArray, g: number): string | null {
  let y: number, mo: number, d: number;
  if (m[g]) [y, mo, d] = [Number(m[g + 2]), MONTHS[m[g]!.toLowerCase().replace('.', '')]!, Number(m[g + 1])];
  else if (m[g + 4]) [y, mo, d] = [Number(m[g + 5]), MONTHS[m[g + 4]!.toLowerCase().replace('.', '')]!, Number(m[g + 3])];
  else if (m[g + 6]) [y, mo, d] = [Number(m[g + 6]), Number(m[g + 7]), Number(m[g + 8])];
  else if (m[g + 9]) [y, mo, d] = [fullYear(m[g + 11]!), Number(m[g + 9]), Number(m[g + 10])];
  else return null;
  const iso = `${y}-${pad(mo)}-${pad(d)}`;
  return isIsoDate(iso) ? iso : null;
}

/** A copy of the question in which consumed phrases are blanked out, so later passes do not read them again. */
class Masked {
  text: string;
  /** Where the match `take` is deciding on starts. */
  at = -1;
  constructor(text: string) {
    this.text = text;
  }

  /** Runs a global regex; for each match `fn` decides whether to consume it (returns true). */
  take(re: RegExp, fn: (m: RegExpExecArray) => boolean): void {
    const flags = re.flags.includes('g') ? re.flags : `${re.flags}g`;
    const pattern = new RegExp(re.source, flags);
    const hits: [number, number][] = [];
    for (const m of this.text.matchAll(pattern)) {
      this.at = m.index!;
      if (fn(m as RegExpExecArray)) hits.push([m.index!, m.index! + m[0].length]);
    }
    for (const [a, b] of hits) this.text = this.text.slice(0, a) + '\u0000'.repeat(b - a) + this.text.slice(b);
  }
}

interface Relative {
  quarters: number;
  years: number;
  /** Said as a second period beside one named ("Q3 2024 and the quarter before", "FY2024 vs two years earlier"): compared with it. */
  joined?: boolean;
  /** "the prior year", "previous fiscal year": alone, the latest fiscal year (as "last year"), not a quarter a year back. */
  year?: boolean;
}

/** A follow-up that puts a figure beside those already asked for ("add net income", "net income too"), not in their place. */
/** A follow-up naming only another year for what was just asked ("same for 2023", "and 2023?", "what about 2022?"). */
const SAME_FOR_YEAR = /^\s*(?:(?:and|what about|how about|same(?:\s+(?:for|in))?|ditto|likewise)\s+(?:for\s+|in\s+)?)?(?:19|20)\d\d\s*\??\s*$|\bsame\b[^?]*\b(?:19|20)\d\d\b/i;
/** A follow-up weighing the companies just discussed against each other ("which is bigger?", "who's ahead?", "compare them", "by how much?"). */
/** The companies just discussed weighed by their price, or one of them to be chosen ("which one is cheaper to buy?", "which is the better value?", "which one should I buy?"). */
const VALUES_THEM = /\b(?:which|who|whose)\b[^?]*\b(?:cheap(?:er|est)|pricier|priciest|dearer|(?:more|less|most|least) expensive|(?:better|best) (?:value|buy|deal))\b|\bwhich (?:one |stock |company |of (?:them|the two|those|these) )?(?:should|would|do|could|to)\b[^?]*\b(?:buy|pick|choose|go with|invest|own|hold|prefer)\b/i;
const COMPARES_THEM = /\bhow many times\b|^\s*(?:and\s+|so\s+|ok\s+)?(?:what(?:'s| is)\s+)?(?:the\s+)?(?:simple\s+)?(?:average|avg|mean)\b|^\s*(?:and\s+|so\s+|ok\s+)?(?:the\s+)?(?:difference|diff|gap)(?: in (?:points|percentage points|%|percent|dollars))?\s*\??\s*$|\b(?:which|who|whose)(?:'s| is| was| one| company| of them| of the two)?\b[^?]*\b(?:bigger|larger|higher|greater|more|less|lower|smaller|better|worse|faster|slower|ahead|behind|leads?|wins?|winner|most|least|biggest|largest|highest|lowest|smallest|fastest|slowest|quickest|best|worst|strongest|weakest)\b|\bcompare (?:them|the two|both|those)\b|\bhow do they compare\b|^\s*(?:and\s+|so\s+)?by how much\b|\bwhat(?:'s| is) the (?:difference|gap)\b|\bhow (?:big|large|wide) is the (?:difference|gap)\b/i;
/** Words pointing back at what was just answered: "that", "it", "the same year". */
/** A period named to be compared with ("vs FY2023", "compared to Q3", "how did that compare to Q3"). */
const VERSUS_NAMED = /\b(?:vs\.?|versus|compare[sd]?|comparison|against|relative to)\b/i;
const REFERS_BACK = /\b(?:that|this|those|it|its|same)\b|^\s*(?:and\s+|now\s+)?(?:compare(?:d)?|how does (?:it|that) compare)\s+(?:to|with|against)\b/i;
/** A figure set against the one before ("compared to its cash?", "vs its equity", "relative to revenue"). */
// ("vs operating cash flow" right after capex too, the figure named without "its".)
export const AGAINST_FIGURE = /^\W*(?:(?:and|but|ok|so|how about|what about)\W+)*(?:(?:how\s+(?:does|is|do|did)\s+(?:it|that|this)\s+)?(?:compared?|comparing)\s+(?:to|with|against)|vs\.?|versus|against|relative\s+to)\s+(?:(?:its|their|the)\b|(?=[a-z$&]))/i;
const ADD_FIGURE = /\b(?:also|too|as well|add|include|including|alongside|plus)\b/i;

/** Words that put a second period beside the first, just before it: "and", "vs", "compared with". */
const JOINED_BEFORE = /(?:\band|\bvs\.?|\bversus|\bcompared\s+(?:to|with)|\bagainst|\bwith)\s*$/i;

interface Extracted {
  companies: Found[];
  metrics: MetricId[];
  ratios: RatioId[];
  unknownFigures: string[];
  period: PeriodSpec | null;
  relative: Relative | null;
  comparison: Comparison | null;
  /** The comparison only follows from a word for a change ("grow", "fall"), not from one named ("yoy", "vs Q1"). */
  impliedComparison?: boolean;
  alsoQoq: boolean;
  versus: PeriodSpec | null;
  form: '10-K' | '10-Q' | null;
  adding: boolean;
  ttm: boolean;
  /** "YTD", "year to date": the fiscal year to date through the period. */
  toDate: boolean;
  byCompany: { cik: number; period: PeriodSpec }[] | null;
  metricsByCompany: { cik: number; metrics: MetricId[] }[] | null;
  /** Two periods were named ("Q3 vs Q2 2024"), not one. */
  twoPeriods?: boolean;
}

/**
 * Companies each with figures of their own, said after the company ("Apple's revenue in Q3 2024
 * and Microsoft net income in Q3 2025") or before it ("revenue of Apple and net income of
 * Microsoft"): the figures named between each company and the next (or the one before), when
 * every company has some, none are named outside those stretches, and they are not all the same.
 * Otherwise every figure is for every company.
 */
function metricsOfCompanies(text: string, companies: Found[], index: CompanyIndex): { cik: number; metrics: MetricId[] }[] | null {
  const lower = text.toLowerCase();
  const found = companies
    .filter((c): c is Extract<Found, { status: 'found' }> => c.status === 'found')
    .map((c) => ({ ...c, at: lower.indexOf(c.text.toLowerCase()) }))
    .sort((a, b) => a.at - b.at);
  if (found.length < 2 || found.some((c) => c.at < 0) || new Set(found.map((c) => c.company.cik)).size !== found.length) return null;
  const metricsIn = (from: number, to: number) => extractMetrics(new Masked(text.slice(from, to)), index);
  const end = (i: number) => found[i]!.at + found[i]!.text.length;
  const split = (each: { cik: number; metrics: MetricId[] }[], outside: MetricId[]) => {
    if (outside.length || each.some((e) => !e.metrics.length)) return null;
    const key = (e: (typeof each)[number]) => [...e.metrics].sort().join(',');
    return new Set(each.map(key)).size > 1 ? each : null;
  };
  return (
    split(
      found.map((c, i) => ({ cik: c.company.cik, metrics: metricsIn(end(i), found[i + 1]?.at ?? text.length) })),
      metricsIn(0, found[0]!.at),
    ) ??
    split(
      found.map((c, i) => ({ cik: c.company.cik, metrics: metricsIn(i ? end(i - 1) : 0, c.at) })),
      metricsIn(end(found.length - 1), text.length),
    )
  );
}

/**
 * Two companies each said with a period of its own, in turn ("Apple's revenue in Q3 2024 and
 * Microsoft's in Q2 2025", "Q1 2025 for Apple vs Q2 2025 for Microsoft"): each company's period.
 */
function periodsOfCompanies(text: string, companies: Found[], first: PeriodSpec | null, second: PeriodSpec | null, at: [number, number]): { cik: number; period: PeriodSpec }[] | null {
  // Where each company is named in the question itself (a mention's own offset is in a re-spaced copy).
  const lower = text.toLowerCase();
  const found = companies
    .filter((c): c is Extract<Found, { status: 'found' }> => c.status === 'found')
    .map((c) => ({ ...c, at: lower.indexOf(c.text.toLowerCase()) }))
    .sort((a, b) => a.at - b.at);
  if (found.length !== 2 || !first || !second || at[0] < 0 || at[1] < 0 || found.some((c) => c.at < 0) || found[0]!.company.cik === found[1]!.company.cik) return null;
  const periods = at[0] < at[1] ? [{ p: first, at: at[0] }, { p: second, at: at[1] }] : [{ p: second, at: at[1] }, { p: first, at: at[0] }];
  const [c1, c2] = [found[0]!.at, found[1]!.at];
  const [p1, p2] = [periods[0]!.at, periods[1]!.at];
  const inTurn = (c1 < p1 && p1 < c2 && c2 < p2) || (p1 < c1 && c1 < p2 && p2 < c2);
  return inTurn ? [{ cik: found[0]!.company.cik, period: periods[0]!.p }, { cik: found[1]!.company.cik, period: periods[1]!.p }] : null;
}

const RANGE_QUARTER = `(?:fiscal\\s+|fy\\s*)?q([1-4])(?:\\s*,?\\s*(?:of\\s+)?(?:the\\s+)?(fiscal\\s+(?:year\\s+)?|fy\\s*|calendar\\s+(?:year\\s+)?|cy\\s*)?(?:'|’)?(\\d{4}|\\d{2}))?`;
const QUARTER_RANGE = new RegExp(`\\b(from\\s+)?(calendar\\s+|cy\\s*)?${RANGE_QUARTER}\\s*(?:-|–|—|to|through|thru|until)\\s*${RANGE_QUARTER}\\b`, 'gi');

export interface QuarterRange {
  /** The last quarter; `fy` null when no year was said (the latest such quarter). */
  last: { fy: number | null; q: 1 | 2 | 3 | 4 };
  /** How many quarters, both ends counted ("Q4 2023 to Q1 2024": 2). */
  quarters: number;
  calendar: boolean;
  /** Said as "from … to …". */
  from: boolean;
}

function quarterRangeOf(x: RegExpMatchArray): QuarterRange | null {
  const [qa, qb] = [Number(x[3]), Number(x[6])];
  let [ya, yb] = [x[5] ? fullYear(x[5]) : null, x[8] ? fullYear(x[8]) : null];
  // A year said once belongs to both ends; "Q4 to Q1 2024" starts in the year before.
  if (ya === null && yb !== null) ya = qa <= qb ? yb : yb - 1;
  if (yb === null && ya !== null) yb = qa <= qb ? ya : ya + 1;
  const quarters = ya !== null && yb !== null ? yb * 4 + qb - (ya * 4 + qa) + 1 : ((qb - qa + 4) % 4) + 1;
  if (quarters < 2) return null;
  const calendar = [x[2], x[4], x[7]].some((w) => w && /^(calendar|cy)/i.test(w));
  return { last: { fy: yb, q: qb as 1 | 2 | 3 | 4 }, quarters, calendar, from: Boolean(x[1]) };
}

/** The first quarter range a text names ("Q1 2023 through Q4 2024"), for the tables of many quarters. */
export function quarterRange(text: string): QuarterRange | null {
  for (const x of text.matchAll(QUARTER_RANGE)) {
    const range = quarterRangeOf(x);
    if (range) return range;
  }
  return null;
}

/**
 * Two periods named together: the later one, compared with the earlier. A year or a quarter apart
 * ("Q3 2024 vs Q3 2023", "FY2023 and FY2024") that is 'yoy' or 'qoq'; further apart, or balances
 * at dates of different kinds, 'versus' the earlier one. Other pairs are not read as a comparison.
 */
function comparedPair(a: PeriodSpec | null, b: PeriodSpec | null, balances: boolean): { period: PeriodSpec; comparison: Comparison; versus?: PeriodSpec } | null {
  // The same period said twice ("Apple cash at the end of 2024 and Microsoft cash at the end of 2024") is one.
  if (a && b && JSON.stringify(a) === JSON.stringify(b)) return null;
  // A period and the one it was moved from ("the latest quarter", then "a year earlier"): the later against the earlier.
  for (const [moved, from] of [[a, b], [b, a]] as const) {
    if (moved?.kind === 'shift' && from && JSON.stringify(moved.base) === JSON.stringify(from)) {
      const steps = moved.quarters + 4 * moved.years;
      if (steps === -4 || steps === -1) return { period: from, comparison: steps === -4 ? 'yoy' : 'qoq' };
      if (steps === 4 || steps === 1) return { period: moved, comparison: steps === 4 ? 'yoy' : 'qoq' };
    }
  }
  // Two quarters without a year ("Q2 vs Q1", "the September quarter vs the June quarter"): one
  // right after the other is a change between them, the latest such pair ("Q1 vs Q4" crosses into
  // the next year); others are of one year, the later quarter against the earlier.
  if (a?.kind === 'fiscalQuarter' && b?.kind === 'fiscalQuarter' && a.fy === null && b.fy === null && !a.calendar === !b.calendar && a.q !== b.q) {
    if ((a.q - b.q + 4) % 4 === 1) return { period: a, comparison: 'qoq' };
    if ((b.q - a.q + 4) % 4 === 1) return { period: b, comparison: 'qoq' };
    const [later, earlier] = a.q > b.q ? [a, b] : [b, a];
    return { period: later, comparison: 'versus', versus: { kind: 'shift', base: later, quarters: earlier.q - later.q, years: 0 } };
  }
  if (a?.kind === 'fiscalQuarter' && b?.kind === 'fiscalQuarter' && (a.fy ?? b.fy) !== null && !a.calendar === !b.calendar) {
    // "from Q2 to Q3 2024": a quarter without its year takes the other's.
    if (a.fy === null) a = { ...a, fy: b.fy };
    if (b.fy === null) b = { ...b, fy: a.fy };
    if (a.fy === null || b.fy === null) return null;
    const gap = a.fy * 4 + a.q - (b.fy * 4 + b.q);
    if (Math.abs(gap) === 4) return { period: gap > 0 ? a : b, comparison: 'yoy' };
    if (Math.abs(gap) === 1) return { period: gap > 0 ? a : b, comparison: 'qoq' };
  }
  // "H1 2024 vs H1 2023": the same part of two fiscal years.
  if (a?.kind === 'span' && b?.kind === 'span' && a.quarters === b.quarters && a.base?.kind === 'fiscalQuarter' && b.base?.kind === 'fiscalQuarter' && a.base.q === b.base.q) {
    const [fa, fb] = [a.base.fy, b.base.fy];
    if (fa !== null && fb !== null && Math.abs(fa - fb) === 1) return { period: fa > fb ? a : b, comparison: 'yoy' };
  }
  // "H2 2024 vs H1 2024": months and the months just before them, as many; 'qoq' on a span means those.
  if (a?.kind === 'span' && b?.kind === 'span' && a.quarters !== null && a.quarters === b.quarters && a.base?.kind === 'fiscalQuarter' && b.base?.kind === 'fiscalQuarter' && !a.base.calendar === !b.base.calendar) {
    const [fa, fb] = [a.base.fy, b.base.fy];
    const gap = fa !== null && fb !== null ? fa * 4 + a.base.q - (fb * 4 + b.base.q) : null;
    if (gap !== null && Math.abs(gap) === a.quarters) return { period: gap > 0 ? a : b, comparison: 'qoq' };
  }
  // "the first nine months of 2024 vs 2023": the same months of the other year.
  if (a?.kind === 'span' && a.base?.kind === 'fiscalQuarter' && a.base.fy !== null && b?.kind === 'fiscalYear' && b.fy !== null && b.fy !== a.base.fy) {
    const other: PeriodSpec = { ...a, base: { ...a.base, fy: b.fy } };
    const [later, earlier] = a.base.fy > b.fy ? [a, other] : [other, a];
    return Math.abs(a.base.fy - b.fy) === 1 ? { period: later, comparison: 'yoy' } : { period: later, comparison: 'versus', versus: earlier };
  }
  // "calendar 2024 vs fiscal 2024": the calendar year, against the fiscal year.
  if (a?.kind === 'calendarYear' && b?.kind === 'fiscalYear' && b.fy !== null) return { period: a, comparison: 'versus', versus: b };
  if (b?.kind === 'calendarYear' && a?.kind === 'fiscalYear' && a.fy !== null) return { period: b, comparison: 'versus', versus: a };
  if (a?.kind === 'fiscalYear' && b?.kind === 'fiscalYear' && a.fy !== null && b.fy !== null && Math.abs(a.fy - b.fy) === 1) {
    return { period: a.fy > b.fy ? a : b, comparison: 'yoy' };
  }
  // Two periods of one kind further apart ("FY2024 vs FY2022", "Q3 2024 vs Q1 2024"): the later one, compared with the earlier.
  const [ka, kb] = [a && orderOf(a), b && orderOf(b)];
  if (ka && kb && ka.kind === kb.kind && ka.at !== kb.at) {
    const [later, earlier] = ka.at > kb.at ? [a!, b!] : [b!, a!];
    return { period: later, comparison: 'versus', versus: earlier };
  }
  // Balances at any two dates, of whatever kinds ("cash at the end of last quarter vs the end of
  // fiscal 2024"); which is later is known once they are resolved. A quarter's revenue against a
  // year's is not a change.
  if (a && b && balances) return { period: a, comparison: 'versus', versus: b };
  return null;
}

/** A period moved from another ("the same quarter last year" of calendar Q4 2024) and that one: the later compared with the earlier. */
function shiftedPair(moved: PeriodSpec | null, from: PeriodSpec): { period: PeriodSpec; comparison: Comparison; versus?: PeriodSpec } | null {
  if (moved?.kind !== 'shift' || JSON.stringify(moved.base) !== JSON.stringify(from)) return null;
  const steps = moved.quarters + 4 * moved.years;
  if (!steps) return null;
  const [later, earlier] = steps > 0 ? [moved, from] : [from, moved];
  return Math.abs(steps) === 4 ? { period: later, comparison: 'yoy' } : Math.abs(steps) === 1 ? { period: later, comparison: 'qoq' } : { period: later, comparison: 'versus', versus: earlier };
}

/** Where a period stands among periods of its kind (a span among spans of as many quarters), when its year is said. */
function orderOf(p: PeriodSpec): { kind: string; at: number } | null {
  switch (p.kind) {
    case 'fiscalQuarter':
      return p.fy === null ? null : { kind: `quarter${p.calendar ? ' calendar' : ''}`, at: p.fy * 4 + p.q };
    case 'fiscalYear':
      return p.fy === null ? null : { kind: 'year', at: p.fy };
    case 'calendarYear':
      return { kind: 'calendar year', at: p.year };
    case 'ended':
      return { kind: `ended ${p.span}`, at: Date.parse(p.date) };
    case 'span': {
      const base = p.base && p.quarters !== null ? orderOf(p.base) : null;
      return base && { kind: `${p.quarters} ${base.kind}`, at: base.at };
    }
    default:
      return null;
  }
}

/** Words that ask for the change from a year earlier as such. */
const EXPLICIT_YOY = /\b(?:yoy|y\/y|y-o-y|year[- ](?:over|on)[- ]year|a year (?:ago|earlier|before)|(?:last|prior|previous) year|annual(?:ly)?)\b/i;

/** The change asked for; `both` when year over year and quarter over quarter were each named ("yoy and qoq"). */
function extractComparison(m: Masked): { comparison: Comparison | null; both: boolean; implied: boolean } {
  let found: Comparison | null = null;
  let yearOverYear = false;
  const yoy = /\b(?:yoy|y\/y|y-o-y|year[- ](?:over|on)[- ]year|(?:vs\.?|versus|compared? (?:to|with)|with|against|than)\s+(?:the\s+)?(?:a\s+)?(?:(?:prior|previous|preceding)\s+(?:twelve|12)\s+months|year[- ](?:ago|earlier|before)|same (?:quarter|period) (?:a year ago|last year|of (?:the )?(?:previous|prior|last) year)|last year|prior year|previous year|(?:last|prior|previous)(?:'s)?\s*(?=\?|$))|annual(?:ly)? growth|(?:up|down|higher|lower|more|less|grew|grown|rose|risen|fell|fallen|increased?|decreased?|changed?)\s+(?:from|since|on|over)\s+(?:the\s+)?(?:a\s+)?(?:year[- ](?:ago|earlier|before)|last year|prior year|previous year))\b/gi;
  const qoq = /\b(?:qoq|q\/q|q-o-q|quarter[- ](?:over|on)[- ]quarter|sequential(?:ly)?|(?:vs\.?|versus|compared (?:to|with)|against)\s+(?:the\s+)?(?:previous|prior|last|preceding) quarter)\b/gi;
  m.take(qoq, () => ((found = 'qoq'), true));
  m.take(yoy, () => ((yearOverYear = true), (found ??= 'yoy'), true));
  if (found === 'qoq' && yearOverYear) return { comparison: 'yoy', both: true, implied: false };
  const named = found !== null;
  // "How much more … than Microsoft" compares companies, not periods; "how much revenue did Apple add" asks for growth.
  if (!found) m.take(/\b(?:growth|grow|grew|growing|faster|slower|change|changed|increase[sd]?|decrease[sd]?|rise|rose|fall|fell|decline[sd]?|up or down|(?:go(?:es)?|went|gone) (?:up|down)|gain(?:ed|s)?|shr[iau]nk(?:s|en)?|drop(?:s|ped)?|jump(?:s|ed)?|climb(?:s|ed)?|improve[sd]?|worsen(?:s|ed)?|expand(?:s|ed)?|contract(?:s|ed)|widen(?:s|ed)?|narrow(?:s|ed)|mov(?:e|es|ed)|compress(?:es|ed)?|how much (?:more|less)(?![^?.!]*\bthan\b)|added|how much\b[^?.!]*\badd(?:s|ing)?)\b/gi, () => ((found = 'yoy'), false));
  return { comparison: found, both: false, implied: !named && found !== null };
}

function extractPeriod(m: Masked, form: '10-K' | '10-Q' | null): { period: PeriodSpec | null; relative: Relative | null; second: PeriodSpec | null; toDate: boolean; at: [number, number] } {
  let period: PeriodSpec | null = null;
  let second: PeriodSpec | null = null;
  let relative: Relative | null = null;
  let third: PeriodSpec | null = null;
  // Where the first two periods were said, to tell whose each is ("Apple's Q3 2024 revenue and Microsoft's Q2 2025").
  const at: [number, number] = [-1, -1];
  const set = (p: PeriodSpec) => {
    if (period && second) third ??= p;
    if (period && !second) (second = p), (at[1] = m.at);
    if (!period) (period = p), (at[0] = m.at);
    return true;
  };
  const span = (quarters: 2 | 3 | 4, base: PeriodSpec) => set({ kind: 'span', base, quarters });
  const spanQuarters = (words: string) => (/^(?:six|6|26)$/i.test(words) ? 2 : 3);
  // "six months ended March 30, 2024", "nine months ending June 2024", "26 weeks ended …": the quarters ending then, together.
  m.take(new RegExp(`\\b(six|6|nine|9|26|39)[- ](?:months?|weeks?)\\s+(?:that\\s+)?(?:ended|ending|ends|through|to)\\s+(?:on\\s+)?${DATE}`, 'gi'), (x) => {
    const date = dateFrom(x, 2);
    return date ? span(spanQuarters(x[1]!), { kind: 'ended', date, span: 'quarter', toleranceDays: 7 }) : false;
  });
  m.take(new RegExp(`\\b(six|6|nine|9|26|39)[- ](?:months?|weeks?)\\s+(?:ended|ending|through|to)\\s+(?:in\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi'), (x) => {
    const [month, year] = [MONTHS[x[2]!.toLowerCase().replace('.', '')]!, Number(x[3])];
    return span(spanQuarters(x[1]!), { kind: 'ended', date: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}`, span: 'quarter', toleranceDays: 10 });
  });
  // Halves and the first nine months of a fiscal (or calendar) year: "first half of fiscal 2024", "H1 2024", "1H24", "FY24 H2", "first nine months of 2024".
  const part = (which: string, year: string | undefined, yearWord: string | undefined) => {
    const w = which.toLowerCase().replace(/\s+/g, ' ');
    const [quarters, q] = /nine|9/.test(w) ? [3, 3] : /second|2nd|back|h2|2h/.test(w) ? [2, 4] : [2, 2];
    const calendar = yearWord && /^(calendar|cy)/i.test(yearWord) ? { calendar: true } : {};
    return span(quarters as 2 | 3, { kind: 'fiscalQuarter', fy: year ? fullYear(year) : null, q: q as 2 | 4, ...calendar });
  };
  const yearAfter = `(?:\\s*,?\\s*(?:of|in|for)?\\s*(?:the\\s+)?(?:(fiscal\\s+(?:year\\s+)?|fy\\s*|calendar\\s+(?:year\\s+)?|cy\\s*)(?:'|’)?(\\d{4}|\\d{2})|(\\d{4})))?`;
  m.take(new RegExp(`\\b((?:first|1st|second|2nd|back)[\\s-]+half|first\\s+(?:six|6|nine|9)\\s+months)(?:\\s+of\\s+the\\s+(?:fiscal\\s+)?year)?${yearAfter}(?![\\w-])`, 'gi'), (x) => part(x[1]!, x[3] ?? x[4], x[2]));
  // "9 months fiscal 2024", "six months of 2024": the first months of the year said (a year must follow; "last 9 months" is read below).
  m.take(new RegExp(`(?<!\\b(?:last|past|trailing|previous|prior|latest|recent|first)\\s+)\\b((?:six|6|nine|9)[- ]months?)(?=\\s*,?\\s*(?:of|in|for)?\\s*(?:the\\s+)?(?:fiscal|fy|calendar|cy|'|’|\\d{4}))${yearAfter}(?![\\w-])`, 'gi'), (x) => (x[3] ?? x[4] ? part(/^(?:nine|9)/i.test(x[1]!) ? 'first nine months' : 'first half', x[3] ?? x[4], x[2]) : false));
  m.take(/\b(fy\s*|cy\s*|fiscal\s+|calendar\s+)?(?:'|’)?(\d{4}|\d{2})\s*[- ]?(h[12]|[12]h)\b/gi, (x) => (x[2]!.length === 2 && !x[1] ? false : part(x[3]!, x[2], x[1])));
  // A two-digit year only glued on ("1H24", "H1'24") or after FY/CY: "H1 24" is not read as a year.
  const glued = `(?:\\s*(fy\\s*|cy\\s*|fiscal\\s+(?:year\\s+)?|calendar\\s+(?:year\\s+)?)(?:'|’)?(\\d{4}|\\d{2})|(?:'|’)?(\\d{2})|\\s*(\\d{4}))?\\b`;
  m.take(new RegExp(`\\b(calendar\\s+|cy\\s*)?(h[12]|[12]h)${glued}`, 'gi'), (x) => part(x[2]!, x[4] ?? x[5] ?? x[6], x[1] ?? x[3]));
  m.take(new RegExp(`\\b([69]m)(?=\\s*(?:fy|'|’|\\d))${glued}`, 'gi'), (x) => (x[3] ?? x[4] ?? x[5] ? part(x[1]!.startsWith('9') ? 'nine' : 'first half', x[3] ?? x[4] ?? x[5], x[2]) : false));
  // Quarters from one to another, taken together: "Q1-Q3 2024", "Q4 2023 through Q1 2024", "Q1 to Q3 of fiscal 2024".
  // Two in a row after "from" ("from Q2 to Q3") are a change between them, read below as a comparison.
  m.take(QUARTER_RANGE, (x) => {
    const range = quarterRangeOf(x);
    if (!range || range.quarters > 4 || (range.from && range.quarters === 2)) return false;
    const { last } = range;
    const calendar = range.calendar ? { calendar: true } : {};
    if (range.quarters === 4 && last.q === 4) return set(range.calendar && last.fy !== null ? { kind: 'calendarYear', year: last.fy } : { kind: 'fiscalYear', fy: last.fy });
    return span(range.quarters as 2 | 3 | 4, { kind: 'fiscalQuarter', fy: last.fy, q: last.q, ...calendar });
  });
  // "the last six months", "past 9 months", "trailing three months": the latest quarters (twelve months are TTM, above).
  m.take(/\b(?:the\s+)?(?:last|past|trailing|previous|prior|latest|most\s+recent|recent)\s+(three|3|six|6|nine|9)\s+months\b/gi, (x) => {
    const n = spanQuarters(x[1]!) === 2 ? 2 : /^(?:three|3)$/i.test(x[1]!) ? 1 : 3;
    return n === 1 ? set({ kind: 'latest', span: 'quarter' }) : set({ kind: 'span', base: null, quarters: n });
  });
  // The fiscal year to date, through the period said or the latest quarter: "YTD", "year-to-date", "so far this year".
  let toDate = false;
  // "This year" is the fiscal year under way: to date as well (the latest fiscal year, said as
  // "this year", read as a year already over would pass off a year ago as this one).
  m.take(/\b(?:f?ytd|(?:fiscal[- ])?year[- ]to[- ]date|so\s+far\s+this\s+(?:fiscal\s+)?year|this\s+(?:fiscal\s+)?year(?:\s+so\s+far)?|so\s+far)\b/gi, () => ((toDate = true), true));
  // "the quarter ended June 29, 2024", "three months ended 2024-06-29", "fiscal year ended September 28, 2024".
  m.take(new RegExp(`\\b(?:(fiscal\\s+)?(year|twelve months|12 months|52 weeks|53 weeks)|quarter|three months|3 months|13 weeks|14 weeks|period)\\s+(?:that\\s+)?(?:ended|ending|ends|through)\\s+(?:on\\s+)?${DATE}`, 'gi'), (x) => {
    const date = dateFrom(x, 3);
    return date ? set({ kind: 'ended', date, span: x[2] ? 'year' : 'quarter', toleranceDays: 7 }) : false;
  });
  // "quarter ended June 2024", "the June 2024 quarter", "June quarter of 2024", "the holiday quarter of 2024";
  // without a year, "the June quarter": the latest quarter ending in June.
  m.take(new RegExp(`\\b(?:(?:quarter|three months|period)\\s+(?:ended|ending)\\s+(?:in\\s+)?${MONTH},?\\s+(\\d{4})|(?:${MONTH}|(holiday))\\s+(?:(\\d{4})\\s+)?quarter(?:\\s+(?:of\\s+)?(\\d{4}))?)\\b`, 'gi'), (x) => {
    const month = x[4] ? 12 : MONTHS[(x[1] ?? x[3])!.toLowerCase().replace('.', '')]!;
    const year = Number(x[2] ?? x[5] ?? x[6]);
    if (!year) return month % 3 === 0 ? set({ kind: 'fiscalQuarter', fy: null, q: (month / 3) as 1 | 2 | 3 | 4, calendar: true }) : false;
    return set({ kind: 'ended', date: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}`, span: 'quarter', toleranceDays: 10 });
  });
  // "as of June 29, 2024", "at September 28, 2024", or a date on its own: balances at that date (or the quarter ending then).
  m.take(new RegExp(`(?:\\b(?:as of|as at|at|on)\\s+)?${DATE}`, 'gi'), (x) => {
    const date = dateFrom(x, 1);
    return date ? set({ kind: 'ended', date, span: form === '10-K' ? 'year' : 'quarter', toleranceDays: 7 }) : false;
  });
  // A month of a year, or the end of one ("cash at the end of December 2024", "total liabilities
  // December 2024"), or the end of a year ("at the end of 2024"): the quarter ending then. After
  // full dates, so that "29 June 2024" is one; a lowercase "may" is the verb.
  m.take(new RegExp(`\\b(?:((?:fiscal\\s+)?(?:year|twelve months|12 months)\\s+(?:that\\s+)?(?:ended|ending|ends)\\s+(?:in\\s+)?)|(?:at\\s+|by\\s+)?(?:the\\s+)?end\\s+of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi'), (x) => {
    if (/^may\b/.test(x[0])) return false;
    const [month, year] = [MONTHS[x[2]!.toLowerCase().replace('.', '')]!, Number(x[3])];
    return set({ kind: 'ended', date: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}`, span: x[1] ? 'year' : 'quarter', toleranceDays: 10 });
  });
  m.take(/\b(?:at\s+|by\s+)?(?:the\s+)?end\s+of\s+(?:(?:the\s+)?calendar\s+(?:year\s+)?)?(\d{4})\b/gi, (x) => set({ kind: 'ended', date: `${x[1]}-12-31`, span: 'quarter', toleranceDays: 10 }));
  // Quarters: "Q3 2024", "fiscal Q3 2024", "Q3 FY24", "Q3'24", "FY2024 Q3", "2024 Q3", "3Q24", "third quarter of fiscal 2024", "calendar Q3 2024".
  const quarter = (q: string, y: string | undefined, calendarWord: string | undefined) => {
    const qn = (ORDINAL[q.toLowerCase()] ?? Number(q)) as 1 | 2 | 3 | 4;
    return set({ kind: 'fiscalQuarter', fy: y ? fullYear(y) : null, q: qn, ...(calendarWord && /^(calendar|cy)/i.test(calendarWord) ? { calendar: true } : {}) });
  };
  m.take(/\b(calendar\s+|cy\s*)?(?:fy|fiscal(?:\s+year)?)?\s*(?:'|’)?(\d{4}|\d{2})\s*[- ]?q([1-4])\b/gi, (x) => (x[2]!.length === 2 && !/fy|fiscal|cy/i.test(x[0]) ? false : quarter(x[3]!, x[2], x[1])));
  m.take(/\b(calendar\s+|cy\s*)?(?:fiscal\s+|fy\s*|f)?q([1-4])(?:\s*(?:of\s+)?(fiscal\s+(?:year\s+)?|fy\s*|cy\s*|calendar\s+(?:year\s+)?)?(?:'|’)?(\d{4}|\d{2}))?\b/gi, (x) =>
    quarter(x[2]!, x[4], x[1] ?? (x[3] && /^(calendar|cy)/i.test(x[3]) ? x[3] : /\bcy/i.test(x[0]) ? 'cy' : undefined)),
  );
  // "2Q24", "2Q FY25", "3Q calendar 2024".
  m.take(/\b([1-4])q(?:\s*(?:of\s+)?(fiscal\s+(?:year\s+)?|fy\s*|cy\s*|calendar\s+(?:year\s+)?)?(?:'|’)?(\d{4}|\d{2}))?\b/gi, (x) =>
    x[3] || x[2] ? quarter(x[1]!, x[3], x[2] && /^(calendar|cy)/i.test(x[2]) ? x[2] : undefined) : quarter(x[1]!, undefined, undefined),
  );
  m.take(/\b(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th|last|final)[\s-]+(calendar\s+|fiscal\s+)?quarter(?:\s+(?:of\s+)?(calendar\s+|fiscal\s+(?:year\s+)?|fy\s*)?(?:'|’)?(\d{4}|\d{2}))?\b/gi, (x) =>
    x[1]!.toLowerCase() === 'last' && !x[4] ? false : quarter(x[1]!, x[4], x[2] ?? x[3]),
  );
  // Calendar years: "calendar 2024", "calendar year 2024", "CY2024", "the 2024 calendar year".
  m.take(/\b(?:calendar(?:[- ]year)?\s+|cy\s*(?:'|’)?)(\d{4}|\d{2})\b|\b(\d{4})\s+calendar[- ]year\b/gi, (x) => set({ kind: 'calendarYear', year: fullYear((x[1] ?? x[2])!) }));
  // Fiscal years: "FY2024", "fiscal 2024", "fiscal year 2024", "full year 2024", "2024 annual".
  m.take(/\b(?:fy\s*(?:'|’)?(\d{4}|\d{2})|fiscal\s+(?:year\s+)?(?:'|’)?(\d{4}|\d{2})|full[- ]year\s+(\d{4})|(\d{4})\s+(?:fiscal\s+year|full[- ]year|annual(?:\s+report)?))\b/gi, (x) =>
    set({ kind: 'fiscalYear', fy: fullYear((x[1] ?? x[2] ?? x[3] ?? x[4])!) }),
  );
  // Relative to the conversation's period (or to one named beside it, or to the latest): "the quarter before", "two quarters earlier", "a year ago", "next quarter".
  const move = (r: Relative, at: number) => {
    relative ??= JOINED_BEFORE.test(m.text.slice(0, at)) ? { ...r, joined: true } : r;
    return true;
  };
  // Before "last year" is read as the latest year: "the same quarter last year", "the year-ago quarter".
  // "The same quarter two years ago": as many years back.
  m.take(/\b(?:the\s+)?(?:same|comparable|corresponding)\s+(?:quarter|period)\s+(?:(a|an|one|two|three|four|five|\d)\s+years?\s+(?:ago|earlier|before|back)|(?:of\s+)?last\s+year|(?:of\s+|in\s+)?the\s+(?:previous|prior)\s+year|the\s+year\s+before)\b|\b(?:the\s+)?(?:year[- ]ago|prior[- ]year|previous[- ]year|year[- ]earlier)\s+(?:quarter|period)\b/gi, (x) =>
    move({ quarters: 0, years: -(x[1] ? (COUNT[x[1].toLowerCase()] ?? Number(x[1])) : 1) }, x.index!),
  );
  m.take(/\b(?:the\s+)?(quarter|year|fiscal\s+year)\s+before\s+(?:the\s+)?last\b/gi, (x) =>
    set(/^q/i.test(x[1]!) ? { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: -1, years: 0 } : { kind: 'shift', base: { kind: 'latest', span: 'year' }, quarters: 0, years: -1 }),
  );
  // The latest: "last quarter", "most recent quarter", "latest fiscal year", "last year", "latest" (of several companies, "their latest fiscal years").
  m.take(/\b(?:latest|most recent|last|recent|current|this|newest|past)\s+(?:reported\s+|fiscal\s+|full\s+|completed\s+)?(quarters?|qtrs?|q|years?|fys?|annual(?: reports?)?|10-?ks?|10-?qs?)\b/gi, (x) =>
    set({ kind: 'latest', span: /^(year|fy|annual|10-?k)/i.test(x[1]!) ? 'year' : 'quarter' }),
  );
  m.take(/\b(?:the\s+)?(?:(a|an|one|two|three|four|five|six|seven|eight|\d)\s+)?(quarters?|years?)\s+(?:before|earlier|prior|ago|back|previously)\b/gi, (x) => {
    const n = x[1] ? (COUNT[x[1].toLowerCase()] ?? Number(x[1])) : 1;
    return move(/^q/i.test(x[2]!) ? { quarters: -n, years: 0 } : { quarters: 0, years: -n }, x.index!);
  });
  m.take(/\b(?:the\s+)?(?:previous|prior|preceding|earlier)\s+(quarter|fiscal year|year)\b/gi, (x) => move(/^q/i.test(x[1]!) ? { quarters: -1, years: 0 } : { quarters: 0, years: -1, year: true }, x.index!));
  m.take(/\b(?:the\s+)?(?:next|following|subsequent)\s+(quarter|year|fiscal year)\b|\b(?:the\s+)?(quarter|year)\s+after\b/gi, (x) => move(/^q/i.test((x[1] ?? x[2])!) ? { quarters: 1, years: 0 } : { quarters: 0, years: 1 }, x.index!));
  m.take(/\b(?:latest|most recent|newest|current|currently|now|today|recent)\b/gi, () => set({ kind: 'latest', span: form === '10-K' ? 'year' : 'quarter' }));
  // "over the full year", "annual", "for the year": the latest fiscal year ("full year 2024" names its year).
  m.take(/\b(?:(?:the\s+)?(?:full|whole|entire)[- ](?:fiscal\s+)?year|annual(?:ly)?|yearly|for the year)\b(?!\s*(?:fy\s*|fiscal\s+)?'?\d{2,4})/gi, () => set({ kind: 'latest', span: 'year' }));
  // A quarter or year on its own: "Q3" (the most recent third quarter), "in 2024" (fiscal 2024).
  m.take(/\bq([1-4])\b/gi, (x) => quarter(x[1]!, undefined, undefined));
  m.take(/\b(19[89]\d|20\d{2})\b/g, (x) => set({ kind: 'fiscalYear', fy: Number(x[1]) }));
  // A quarter whose year is said apart from it ("Q3 revenue in 2023", "Q3, fiscal 2023", "the third
  // quarter of calendar year 2024"): that year is the quarter's, not a second period to compare.
  const p = period as PeriodSpec | null;
  const y = second as PeriodSpec | null;
  const withYear = (q: Extract<PeriodSpec, { kind: 'fiscalQuarter' }>, year: Extract<PeriodSpec, { kind: 'fiscalYear' | 'calendarYear' }>): PeriodSpec =>
    year.kind === 'fiscalYear' ? { ...q, fy: year.fy } : { ...q, fy: year.year, calendar: true };
  const z = third as PeriodSpec | null;
  if ((y?.kind === 'fiscalYear' || y?.kind === 'calendarYear') && p?.kind === 'fiscalQuarter' && p.fy === null) {
    period = withYear(p, y);
    // "Q2 revenue in fiscal 2023 and fiscal 2024": that quarter of each year, to be compared.
    second = z?.kind === y.kind ? withYear(p, z) : null;
  } else if ((y?.kind === 'fiscalYear' || y?.kind === 'calendarYear') && p?.kind === 'span' && p.base?.kind === 'fiscalQuarter' && p.base.fy === null) {
    period = { ...p, base: withYear(p.base, y) };
    second = null;
  }
  return { period, relative, second, toDate, at };
}

function extractForm(m: Masked): '10-K' | '10-Q' | null {
  let form: '10-K' | '10-Q' | null = null;
  m.take(/\b10-?k(?:\/a)?\b|\bannual reports?\b/gi, () => ((form ??= '10-K'), true));
  m.take(/\b10-?q(?:\/a)?\b|\bquarterly reports?\b/gi, () => ((form ??= '10-Q'), true));
  return form;
}

function extractMetrics(m: Masked, index: CompanyIndex): MetricId[] {
  const found: { id: MetricId; at: number }[] = [];
  for (const g of METRIC_GROUPS) m.take(g.pattern, (x) => (found.push(...g.metrics.map((id, i) => ({ id, at: x.index! + i / 100 }))), true));
  // Money spent on dividends ("how much did Apple spend on buybacks and dividends?") is dividends paid, not per share.
  m.take(/(?<=\b(?:spen[dt]|spending|paid|paying|pays|returned|returning)\b[^.?!]{0,40})\bdividends?\b(?!\s+(?:per|a)\s+(?:common\s+)?share)/gi, (x) => (found.push({ id: 'dividendsPaid', at: x.index! }), true));
  // "How long is their runway?", "when do they run out of cash?": months of cash at the burn, free cash flow below zero (the cash balance comes with it).
  m.take(new RegExp(RUNWAY_ASKED.source, 'gi'), (x) => (found.push({ id: 'freeCashFlow', at: x.index! }), true));
  // "How much cash is Microsoft burning?": the burn, free cash flow below zero, not the cash balance.
  const burns: number[] = [];
  m.take(/(?<=\bcash\b[^.?!]{0,40})\bburn(?:s|ing|ed|t)?\b(?!\s+(?:through\s+)?cash\b)/gi, (x) => (burns.push(x.index!), true));
  m.take(/\bcash\b(?!\s+burn)/gi, (x) => burns.some((at) => at > x.index! && at - x.index! <= 45) && (found.push({ id: 'freeCashFlow', at: x.index! }), true));
  // "How much cash did Microsoft generate from operations?": operating cash flow, not the cash balance.
  m.take(/\bcash\b(?=[^.?!]{0,50}?\b(?:generat(?:e|ed|es|ing)|produc(?:e|ed|es|ing)|brought\s+in|bring\s+in|brings\s+in|throw(?:s|n)?\s+off|threw\s+off|made|make|makes)\s+(?:from|by|in|through)\s+(?:its\s+|their\s+|the\s+)?(?:operations|operating\s+activities|core\s+operations)\b)/gi, (x) => (found.push({ id: 'operatingCashFlow', at: x.index! }), true));
  // Before exact words: "opertaing income" is operating income, not the net income "income" alone would be.
  found.push(...extractMisspeltMetrics(m, index, PHRASES_OF_WORDS.filter((p) => p.words.length > 1)));
  for (const { phrase, id } of METRIC_PHRASES) {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
    m.take(new RegExp(`(?<![\\p{L}\\p{N}&])${escaped}(?![\\p{L}\\p{N}&])`, 'giu'), (x) => (found.push({ id, at: x.index! }), true));
  }
  // A single word with a typo only when no figure was named as such: a question naming one has said what it wants.
  if (!found.length) found.push(...extractMisspeltMetrics(m, index, PHRASES_OF_WORDS));
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.id))];
}

/** Metric phrases of plain words, longest first, for matching with typos. */
const PHRASES_OF_WORDS = METRIC_PHRASES.filter((p) => /^[a-z]+(?: [a-z]+)*$/.test(p.phrase)).map((p) => ({ ...p, words: p.phrase.split(' ') }));

/** Whether a word of the question is a typo of a metric word: one edit in words of five letters or more, two from nine. */
function isTypoOf(token: Token, word: string, index: CompanyIndex): boolean {
  if (token.norm === word) return true;
  const max = word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0;
  if (!max || token.norm.length < 5 || NOT_TYPOS.has(token.norm) || isStop(token.norm) || GENERAL_WORDS.has(token.norm)) return false;
  // A company's own name or ticker is never a typo of a figure ("Incyte" is not "income").
  if (index.exact([token.norm]).length || (token.raw === token.raw.toUpperCase() && index.byTicker(token.raw))) return false;
  return editDistance(token.norm, word, max) <= max;
}

/** Metric phrases written with a typo ("revnue", "earnigns per share"), taken out so they are not read as a company. */
function extractMisspeltMetrics(m: Masked, index: CompanyIndex, phrases: typeof PHRASES_OF_WORDS): { id: MetricId; at: number }[] {
  const found: { id: MetricId; at: number }[] = [];
  const tokens = tokenize(m.text);
  const adjacent = (a: Token, b: Token) => /^\s+$/.test(m.text.slice(a.end, b.start));
  for (let i = 0; i < tokens.length; i++) {
    for (const { id, words } of phrases) {
      const run = tokens.slice(i, i + words.length);
      if (run.length < words.length || run.some((t, k) => k > 0 && !adjacent(run[k - 1]!, t))) continue;
      // Phrases written correctly are the exact pass's.
      if (run.every((t, k) => t.norm === words[k]) || !run.every((t, k) => isTypoOf(t, words[k]!, index))) continue;
      found.push({ id, at: run[0]!.start });
      const [a, b] = [run[0]!.start, run.at(-1)!.end];
      m.text = m.text.slice(0, a) + '\u0000'.repeat(b - a) + m.text.slice(b);
      i += words.length - 1;
      break;
    }
  }
  return found;
}

const isStop = (w: string) => STOPWORDS.has(w) || /^\d+$/.test(w);

/** Splits tokens where the text between them is blanked or punctuation: a company name never spans those. */
function segments(text: string): Token[][] {
  const tokens = tokenize(text.replace(/\u0000/g, ' \u0001 '));
  const out: Token[][] = [[]];
  let last = 0;
  const source = text.replace(/\u0000/g, ' \u0001 ');
  for (const t of tokens) {
    const between = source.slice(last, t.start);
    if (/[\u0001,;:?!()/"]|\.\s/.test(between) && out.at(-1)!.length) out.push([]);
    out.at(-1)!.push(t);
    last = t.end;
  }
  return out.filter((s) => s.length);
}

const LIST_WORDS = new Set(['and', 'vs', 'versus', 'or', '&', 'with', 'against', 'compared', 'to']);
/** Words between a list word and the name it lists ("and whats msft …", "and also for googl"). */
const LIST_FILLERS = new Set(['what', 'whats', "what's", 'about', 'how', 'hows', "how's", 'is', 'the', 'for', 'also', 'then', 'same']);

/** `implied`: the owner of a product named ("iPhone revenue" is Apple's), not a company named. */
type Found = CompanyMention & { at: number; implied?: boolean };

/** The longest run of words from `i` that is exactly a company's name, at least `minWords` long. */
function exactAt(seg: Token[], i: number, index: CompanyIndex, minWords: number): { n: number; entries: CompanyEntry[] } | null {
  for (let n = Math.min(6, seg.length - i); n >= minWords; n--) {
    const words = seg.slice(i, i + n).map((t) => t.norm);
    if (isStop(words[0]!) || (n > 1 && isStop(words.at(-1)!) && !['co', 'inc', 'corp'].includes(words.at(-1)!))) continue;
    const phrase = words.join(' ');
    // "Coca-Cola" is filed as "COCA COLA CO": try hyphenated words apart and joined too.
    for (const form of new Set([phrase, phrase.replace(/-/g, ' '), phrase.replace(/-/g, '')])) {
      const entries = dedupe(index.exact(coreName(form)));
      if (entries.length) return { n, entries };
    }
  }
  return null;
}

/**
 * Two words or more that begin a company's name without being all of it: "Apple Hospitality" is
 * Apple Hospitality REIT, not Apple Inc. with a word left over. Words that are figures or periods
 * ("Apple revenue", "Apple Q3") begin no name, so they find none.
 */
function longerNameAt(seg: Token[], i: number, index: CompanyIndex): { n: number; entries: CompanyEntry[] } | null {
  for (let n = Math.min(4, seg.length - i); n >= 2; n--) {
    const words = seg.slice(i, i + n).map((t) => t.norm);
    if (words.some(isStop)) continue;
    const entries = dedupe(index.prefix(coreName(words.join(' '))));
    if (entries.length) return { n, entries: entries.slice(0, 12) };
  }
  return null;
}

/** Names of two words or more, found before figures are read ("Realty Income" is a company, not income). */
function extractLongNames(m: Masked, index: CompanyIndex): Found[] {
  const found: Found[] = [];
  for (const seg of segments(m.text)) {
    for (let i = 0; i < seg.length; ) {
      const hit = exactAt(seg, i, index, 2) ?? longerNameAt(seg, i, index);
      if (!hit) {
        i++;
        continue;
      }
      const tokens = seg.slice(i, i + hit.n);
      found.push(mention(tokens, hit.entries));
      const [a, b] = [tokens[0]!.start, tokens.at(-1)!.end];
      m.text = m.text.slice(0, a) + '\u0000'.repeat(b - a) + m.text.slice(b);
      i += hit.n;
    }
  }
  return found;
}

/** The companies of a question, and the words left over beside them that were not read as one. */
/**
 * `carried`: the conversation already has a company, so that words of no filer that are not written
 * as a name ("rates", "3yr", "operating", "CEO") are what is asked about it, not a company asked about.
 */
function extractCompanies(text: string, index: CompanyIndex, already: Found[], carried = false): { companies: Found[]; leftovers: string[]; acronyms: string[] } {
  const found: Found[] = [...already];
  const residual: { tokens: Token[]; afterList: boolean }[] = [];
  const acronyms: { token: Token; ticker: CompanyEntry | undefined }[] = [];
  const source = text.replace(/\u0000/g, ' \u0001 ');
  const prose = (source.match(/\p{L}+/gu) ?? []).length > PROSE_WORDS;
  for (const seg of segments(text)) {
    let span: Token[] = [];
    // "apple, msft and googl": a short segment after a comma, once a company is found, lists another.
    let afterList = found.length > 0 && seg.length <= 3 && /,\s*$/.test(source.slice(0, seg[0]!.start));
    let afterCompany: boolean = false;
    const closeSpan = () => {
      if (span.length) residual.push({ tokens: span, afterList });
      span = [];
    };
    for (let i = 0; i < seg.length; ) {
      const hit = exactAt(seg, i, index, 1);
      if (hit) {
        closeSpan();
        found.push(mention(seg.slice(i, i + hit.n), hit.entries));
        i += hit.n;
        afterList = false;
        afterCompany = true;
        continue;
      }
      const t = seg[i]!;
      if (FIGURE_ACRONYMS.has(t.norm)) {
        closeSpan();
        acronyms.push({ token: t, ticker: index.byTicker(withoutPossessive(t.raw)) });
        i++;
        continue;
      }
      // "MSFT's eps": the ticker is "MSFT".
      const raw = withoutPossessive(t.raw);
      // "apple msft googl": a lowercase ticker right after a company is listed with it.
      const listed: boolean = afterCompany && !span.length && /^[a-z]{3,5}$/.test(raw) && !isStop(t.norm) && !GENERAL_WORDS.has(t.norm);
      const ticker: CompanyEntry | undefined = (/^\$?[A-Z][A-Z0-9]{0,5}(?:[.-][A-Z])?$/.test(raw) && (raw.length >= 2 || raw.startsWith('$')) && !NOT_TICKERS.test(raw)) || listed ? index.byTicker(raw.toUpperCase()) : undefined;
      afterCompany = Boolean(ticker);
      if (ticker) {
        closeSpan();
        found.push({ status: 'found', text: t.raw, company: refOf(ticker), fuzzy: false, at: t.start });
      } else if (isStop(t.norm) || /^[-+−$€£]?\d[\d.,]*[%x×]?$/.test(t.raw)) {
        // A number ("from 46.2% to 47.1%") names no company.
        closeSpan();
        // "… and whats msft gross margin": words asking after "and" keep what it lists.
        afterList = LIST_WORDS.has(t.norm) ? found.length > 0 : afterList && LIST_FILLERS.has(t.norm);
      } else {
        span.push(t);
      }
      i++;
    }
    closeSpan();
  }
  const namedAny = found.length > 0;
  const leftovers: string[] = [];
  const figureAcronyms: string[] = [];
  // Beside a company found, "ROIC" is a figure asked for; alone, it may be the ticker it also is.
  for (const { token, ticker } of acronyms) {
    if (namedAny || !ticker) figureAcronyms.push(token.raw);
    else found.push({ status: 'found', text: token.raw, company: refOf(ticker), fuzzy: false, at: token.start });
  }
  // A name read from words that are not exactly one ("googles", "microsfot") is a company named
  // too: plain words beside it ("… margin dip in Q4") are not names of their own.
  // In a paste of prose (lorem ipsum, a paragraph of notes), words that are no filer's name exactly
  // are only read as one when written like one: not every run of plain words is a company asked about.
  // Those words may still be the figure asked for, in the sentence that asks ("… What was Apple's goodwill?").
  if (prose) {
    for (const r of residual) {
      if (plausibleName(r.tokens, source, r.afterList)) continue;
      const { from, to } = sentenceAround(source, r.tokens[0]!.start);
      if (source[to] === '?' || found.some((c) => c.at >= from && c.at < to)) leftovers.push(r.tokens.map((t) => t.raw).join(' '));
    }
  }
  const named = (prose ? residual.filter((r) => plausibleName(r.tokens, source, r.afterList)) : residual).slice(0, 8).map(({ tokens: all, afterList }) => {
    // "should i buy msft": a word about companies in general beside a name is not part of it.
    let [from, to] = [0, all.length];
    while (from < to - 1 && GENERAL_WORDS.has(all[from]!.norm)) from++;
    while (to - 1 > from && GENERAL_WORDS.has(all[to - 1]!.norm)) to--;
    const tokens = all.slice(from, to);
    const properNoun = tokens.some((t) => /^\p{Lu}/u.test(t.raw) && t.start > 0);
    // "Best stock to buy?": words about companies in general, not a name.
    const general = !properNoun && tokens.every((t) => GENERAL_WORDS.has(t.norm));
    return { tokens, afterList, properNoun, general, resolved: general || (namedAny && !properNoun && !afterList) ? null : resolveResidual(tokens, index, !namedAny || afterList) };
  });
  const nameRead = named.some((r) => r.resolved?.some((c) => c.status === 'found'));
  for (const { tokens, afterList, properNoun, general, resolved } of named) {
    if (general) continue;
    // Words left over beside a company found are not a company unless written like a name or listed after "and"/"vs".
    // (A capitalised word in a follow-up, "and Tesla?", is still a name; "CEO", "GM" written as abbreviations are not.)
    const asName = properNoun && tokens.some((t) => /^\p{Lu}\p{Ll}/u.test(t.raw));
    if (!resolved || (nameRead && !properNoun && !afterList && resolved.every((c) => c.status === 'unknown')) || (carried && !asName && resolved.every((c) => c.status === 'unknown'))) {
      leftovers.push(tokens.map((t) => t.raw).join(' '));
      continue;
    }
    // In a paste of prose, a name found from words that are no name exactly is only taken where
    // those words read as a name (see plausibleName): not "magna aliqua" for Magna International.
    if (prose) {
      const kept = resolved.filter((c) => plausibleName(tokens.filter((t) => t.start >= c.at && t.start < c.at + c.text.length), source, afterList));
      found.push(...(namedAny && !afterList ? kept.filter((c) => c.status !== 'unknown') : kept));
      continue;
    }
    // A name beside a company found, not listed with it, that is no filer is someone's or something
    // else's ("Quick question from Sarah: Apple revenue?", "For my Bloomberg notes, …"), not a company asked about.
    found.push(...(namedAny && !afterList ? resolved.filter((c) => c.status !== 'unknown') : resolved));
  }
  return { companies: found.sort((a, b) => a.at - b.at), leftovers, acronyms: figureAcronyms };
}

/** More words than this in a turn make it a paste of prose, whose plain words are not taken for names (see plausibleName). */
const PROSE_WORDS = 25;
/** Words that end a company's name ("Zorblax Corp", "Acme Holdings"). */
const CORPORATE_WORD = /^(?:inc|incorporated|corp|corporation|co|company|companies|ltd|limited|plc|llc|lp|holdings?|group|bancorp|technologies|therapeutics|pharmaceuticals|biosciences|industries|enterprises|partners|trust|reit|ag|sa|nv|se)\.?$/i;

/** The sentence holding a position: from its first character to the mark that ends it (or the text's end). */
function sentenceAround(source: string, at: number): { from: number; to: number } {
  let from = at;
  while (from > 0 && !/[.!?\n]/.test(source[from - 1]!)) from--;
  const end = source.slice(at).search(/[.!?\n]/);
  return { from, to: end < 0 ? source.length : at + end };
}

const WEEKDAY_OR_MONTH = /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/;

/** Whether a word begins a sentence (after a full stop, a question or exclamation mark, a line break, or at the start). */
function atSentenceStart(source: string, at: number): boolean {
  const before = source.slice(0, at).replace(/["'(\[\s\u0001]+$/, '');
  return before === '' || /[.!?:;\n]$/.test(before) || /\n\s*$/.test(source.slice(0, at));
}

/**
 * Whether words that found no filer, in a paste of prose, read as a company asked about: a ticker
 * written as one ("ZZZQ", "$ZZQX"), a name ending in a corporate word ("Zorblax Corp"), a capitalised
 * word of up to five that does not merely begin a sentence, in a sentence that asks ("… than
 * Zorblax?"), or one or two words listed right after a company found ("Apple and zorblax"). Plain words ("sed", "consectetur
 * adipiscing elit") and sentence openers ("Lorem ipsum dolor sit amet", "Duis aute") are not.
 */
function plausibleName(words: Token[], source: string, afterList: boolean): boolean {
  if (!words.length) return false;
  if (words.some((t) => /^\$?[A-Z]{2,5}(?:[.-][A-Z])?$/.test(withoutPossessive(t.raw)) && !NOT_TICKERS.test(withoutPossessive(t.raw)))) return true;
  if (words.length > 5) return false;
  if (words.length >= 2 && CORPORATE_WORD.test(withoutPossessive(words.at(-1)!.raw))) return true;
  // A capitalised word mid-sentence, in the sentence that asks (ends in "?"): a person's or a place's
  // name in the notes around it ("the offsite in Denver") is no company asked about.
  const { to } = sentenceAround(source, words[0]!.start);
  if (source[to] === '?' && words.some((t) => /^\p{Lu}/u.test(t.raw) && !atSentenceStart(source, t.start) && !WEEKDAY_OR_MONTH.test(t.norm))) return true;
  return afterList && words.length <= 2 && /\b(?:and|or|vs\.?|versus|with|against|to)\s*$/i.test(source.slice(0, words[0]!.start).trimEnd() + ' ');
}

/** Capitalised words that are not meant as tickers even when a company trades under them. */
const NOT_TICKERS = /^(I|A|Q[1-4]|FY|YOY|QOQ|EPS|SEC|US|USA|USD|CEO|CFO|AI|OK|IT|PE|TTM|YTD|GAAP|SGA|FCF|CAPEX|COGS|OPEX|EBIT|EBITDA|AND|OR|THE|OF|VS)$/;

function mention(tokens: Token[], entries: CompanyEntry[]): Found {
  const text = tokens.map((t) => t.raw).join(' ');
  const at = tokens[0]!.start;
  return entries.length === 1
    ? { status: 'found', text, company: refOf(entries[0]!), fuzzy: false, at }
    : { status: 'ambiguous', text, candidates: entries.map(refOf), at };
}

/** Words that named no company exactly: the start of a name ("Johnson"), a lowercase ticker, a typo, or an unknown name. */
function resolveResidual(tokens: Token[], index: CompanyIndex, alone: boolean): Found[] {
  // "aapl msft googl": tickers in lower case one after another, each a company (as one alone is).
  if (alone && tokens.length >= 2) {
    const tickers = tokens.map((t) => {
      const raw = withoutPossessive(t.raw);
      return /^[a-z]{2,5}$/i.test(raw) && !isStop(t.norm) && !GENERAL_WORDS.has(t.norm) ? index.byTicker(raw.toUpperCase()) : undefined;
    });
    if (tickers.every(Boolean)) return tokens.map((t, i) => ({ status: 'found', text: t.raw, company: refOf(tickers[i]!), fuzzy: false, at: t.start }));
  }
  for (let k = tokens.length; k >= 1; k--) {
    const head = tokens.slice(0, k);
    const words = head.map((t) => t.norm);
    const prefix = dedupe(index.prefix(words));
    if (prefix.length) return [mention(head, prefix.slice(0, 12)), ...(k < tokens.length ? resolveResidual(tokens.slice(k), index, alone) : [])];
  }
  const text = tokens.map((t) => t.raw).join(' ');
  const at = tokens[0]!.start;
  const close = index.fuzzy(tokens.map((t) => t.norm).join(' '));
  if (alone && tokens.length === 1) {
    const byTicker = index.byTicker(withoutPossessive(tokens[0]!.raw));
    // "Aple" is the ticker of a small REIT, but written in lower case it is more likely a typo of Apple.
    const typoOfLarger = tokens[0]!.raw !== tokens[0]!.raw.toUpperCase() && byTicker && close[0] && close[0].rank < byTicker.rank;
    if (typoOfLarger) return [{ status: 'found', text, company: refOf(close[0]!), fuzzy: true, at }];
    if (byTicker && tokens[0]!.norm.length >= 2) return [{ status: 'found', text, company: refOf(byTicker), fuzzy: false, at }];
  }
  if (close.length === 1 || (close.length > 1 && close[0]!.rank < 50 && close[1]!.rank > close[0]!.rank * 20)) return [{ status: 'found', text, company: refOf(close[0]!), fuzzy: true, at }];
  // "Tesla's revenue": the name asked about is "Tesla".
  return [{ status: 'unknown', text: withoutPossessive(text), suggestions: close.slice(0, 5).map(refOf), at }];
}

/** A word without its possessive ("MSFT's" → "MSFT", "Jones'" → "Jones"). */
const withoutPossessive = (raw: string) => raw.replace(/['’]s?$/i, '');

function dedupe(entries: CompanyEntry[]): CompanyEntry[] {
  return [...new Map(entries.map((e) => [e.cik, e])).values()];
}

/** Three months from a quarter's first to its last ("oct-dec 2024", "Jan to Mar 2025"). */
const CALENDAR_MONTHS = /\b(jan|apr|jul|oct)[a-z]*\.?\s*(?:-|–|to|through|thru)\s*(mar|jun|sep|dec)[a-z]*\.?,?\s+((?:19|20)\d\d)\b/gi;
function calendarQuarterOf(said: string, from: string, to: string, year: string): string {
  const q = ['jan', 'apr', 'jul', 'oct'].indexOf(from.toLowerCase()) + 1;
  return ['mar', 'jun', 'sep', 'dec'].indexOf(to.toLowerCase()) + 1 === q ? `calendar Q${q} ${year}` : said;
}

function extract(text: string, index: CompanyIndex, carried = false): Extracted {
  // Citation markers pasted from an answer ("revenue of $85.8 billion [1]") are not words of the question.
  // Full-width and other compatibility forms ("Ｍｉｃｒｏｓｏｆｔ") read as their plain letters.
  // Web addresses (a Kalshi link earlier in the conversation) are no company's name.
  // "next qtr", "over 3 yrs": the words in full; "oct-dec 2024" is calendar Q4 2024.
  const plain = text.normalize('NFKC').replace(/[’‘]/g, "'").replace(/[“”]/g, '"').replace(/\s*\[\d{1,3}\]/g, '').replace(/(?:https?:\/\/|www\.)\S+|\b\S+\.(?:com|net|org|io|gov)\/\S*/gi, ' ').replace(/\b((?:19|20)\d\d) calendar(?: year)?\b/gi, 'calendar $1').replace(/\b(how|what|where|who)'d\b/gi, '$1 did').replace(/\bwat\b/gi, 'what').replace(/\bqtr(s?)\b/gi, 'quarter$1').replace(/\byrs\b/gi, 'years').replace(/\byr\b/gi, 'year').replace(/\b(\d+)\s*-?\s*yrs?\b/gi, '$1 years').replace(/\bw\/\s*/gi, 'with ').replace(/\bop(?=\.?\s+(?:margins?|income|expenses?|ex|leverage|cash\s+flow|profit)\b)\.?/gi, 'operating').replace(CALENDAR_MONTHS, calendarQuarterOf);
  const m = new Masked(plain);
  // "Is that more than Microsoft?" puts another company beside the one just answered.
  const adding = /\b(?:also|too|as well|add|include|compare[ds]?|comparison|vs\.?|versus|against|side[- ]by[- ]side|alongside)\b|\b(?:more|less|higher|lower|bigger|smaller|greater|larger|fewer)\s+than\b/i.test(text);
  // Taken out before companies are read: "TTM" is also a ticker.
  let ttm = false;
  m.take(TTM, () => ((ttm = true), true));
  // "Operating leverage" is how costs grew against revenue: those figures' growth, not a figure of its own nor debt.
  m.take(/\b(?:(?:the\s+)?degree\s+of\s+)?(?:operating|operational)\s+leverage\b/gi, () => true);
  // Before other lines of the statements: "net debt" is a ratio of two figures, not a line.
  const ratios: RatioId[] = [];
  m.take(RATIO_WORDS, (x) => {
    const ratio = ratioNamed(x[0]);
    if (ratio && !ratios.includes(ratio.id)) ratios.push(ratio.id);
    return true;
  });
  // "Which is riskier?" of companies: what their balance sheets say of it, their leverage and liquidity.
  if (!ratios.length && /\b(?:riskier|riskiest|safer|safest|less risky|more risky|most risky|least risky)\b/i.test(text)) ratios.push('debtToEquity', 'currentRatio');
  // "Which is most liquid?": the current ratio.
  if (!ratios.length && /\b(?:(?:more|most|less|least) liquid|liquidity)\b/i.test(text)) ratios.push('currentRatio');
  m.take(/\b(?:riskiest|safest|(?:more|most|less|least) liquid|liquidity)\b/gi, () => true);
  // "At the same date", "closest date": when, read in parseSecQuestion (sameDateAs), no figure.
  m.take(new RegExp(SAME_DATE.source, 'gi'), () => true);
  // "CIK 320193", as EDGAR numbers filers: before periods and figures read its digits.
  const byCik: Found[] = [];
  m.take(/\bcik\s*(?:#|no\.?|number)?\s*:?\s*0*(\d{1,10})\b/gi, (x) => {
    const entry = index.byCik(Number(x[1]));
    byCik.push(entry ? { status: 'found', text: x[0], company: refOf(entry), fuzzy: false, at: x.index! } : { status: 'unknown', text: x[0], suggestions: [], at: x.index! });
    return true;
  });
  const unsupported: string[] = [];
  // Before periods: "current" in "current assets" is not the latest period.
  const current: MetricId[] = [];
  m.take(/(?<![\w-])(?:total\s+)?current\s+(assets|liabilities)\b/gi, (x) => (current.push(x[1]!.toLowerCase() === 'assets' ? 'currentAssets' : 'currentLiabilities'), true));
  m.take(OTHER_LINES, (x) => (unsupported.push(x[0].replace(/\s+/g, ' ')), true));
  // Cash and marketable securities over current liabilities: the securities are no figure read here (and "ratio" is no company).
  m.take(/\bcash\s+ratio\b/gi, (x) => (unsupported.push(x[0].replace(/\s+/g, ' ')), true));
  // "Q5 2024" is no quarter: said so, and its year not read as the fiscal year asked for.
  m.take(/\b(?:f?q[05-9]|[05-9]q)\b(?:\s*(?:of\s+)?(?:fy\s*|fiscal\s+(?:year\s+)?)?(?:'|’)?(?:\d{4}|\d{2})\b)?/gi, (x) => (unsupported.push(x[0].replace(/\s+/g, ' ')), true));
  const { comparison, both, implied: impliedComparison } = extractComparison(m);
  const form = extractForm(m);
  // Prose pasted around the question ("The quarterly review was circulated… What was Microsoft net income FY2024?"):
  // the sentence asking decides the period when it names one; periods said in the prose are read, and left.
  const asking = askingRange(plain);
  const askingOnly = asking ? new Masked(m.text.slice(0, asking[0]).replace(/[^\n]/g, ' ') + m.text.slice(asking[0], asking[1]) + m.text.slice(asking[1]).replace(/[^\n]/g, ' ')) : null;
  const own = askingOnly ? extractPeriod(askingOnly, form) : null;
  const whole = extractPeriod(m, form);
  const { period: first, relative, second, toDate, at } = own && (own.period || own.relative || own.toDate) ? own : whole;
  const longNames = [...byCik, ...extractLongNames(m, index)];
  m.take(UNKNOWN_FIGURES, (x) => (unsupported.push(x[0].replace(/\s+/g, ' ')), true));
  m.take(QUALIFIED_FIGURES, (x) => (unsupported.push(x[0].replace(/\s+/g, ' ')), true));
  m.take(PRODUCT_ALONE, (x) => (unsupported.push(x[0].replace(/\s+/g, ' ')), true));
  // "Should I sell my MSFT shares?": shares held, not the figure of shares outstanding.
  m.take(/(?<=\b(?:buy|buying|sell|selling|short|own|hold|holding|dump|trim|add to|load up on)\s+(?:(?:my|our|your|the|some|more|its|his|her|their)\s+)?(?:[a-z0-9.&'-]+\s+)?)(?:shares|stock|stocks)\b/gi, () => true);
  // A ratio asks for the two figures it is computed from.
  const read = [...new Set([...current, ...extractMetrics(m, index), ...ratios.flatMap((id) => ratioMetrics(ratioById(id)))])];
  // "What share of its operating cash flow went to capex?": capex is the part, named second.
  const metrics = read.length === 2 && !ratios.length && SPENT_OUT_OF.test(plain) ? [read[1]!, read[0]!] : read;
  const balances = metrics.length > 0 && metrics.every((id) => metricById(id).type === 'instant');
  const pair = comparedPair(first, second, balances);
  // "How has cash changed over the past year?": a balance from a year before the latest one, not at the last fiscal year-end.
  const overPastYear = balances && first?.kind === 'latest' && first.span === 'year' && !pair && /\b(?:over|in|during|within)\s+the\s+(?:last|past|previous)\s+(?:year|12\s+months|twelve\s+months)\b/i.test(text);
  const period: PeriodSpec | null = overPastYear ? { kind: 'latest', span: 'quarter' } : (pair?.period ?? first);
  // A balance's change "during" a quarter is from the quarter's start (the end of the one before), not from a year earlier.
  const yearKind = period?.kind === 'fiscalYear' || period?.kind === 'calendarYear' || (period?.kind === 'latest' && period.span === 'year') || (period?.kind === 'ended' && period.span === 'year');
  const during = balances && !pair && comparison === 'yoy' && !yearKind && /\b(?:during|over the (?:quarter|period|three months)|in the course of)\b/i.test(text) && !EXPLICIT_YOY.test(text);
  // "… with margin": the word left after the figures asks for their share of revenue, not for a company.
  m.take(/\bmargins?\b/gi, () => true);
  const { companies, leftovers, acronyms } = extractCompanies(m.text, index, longNames, carried);
  // "Google Cloud revenue" alone: the company whose part it is.
  if (!companies.length) {
    for (const part of unsupported) {
      const owner = PRODUCT_OWNERS.find(([pattern]) => pattern.test(part))?.[1];
      const entry = owner ? index.byTicker(owner) : undefined;
      if (entry) {
        companies.push({ status: 'found', text: part, company: refOf(entry), fuzzy: false, at: plain.toLowerCase().indexOf(part.toLowerCase()), implied: true });
        break;
      }
    }
  }
  const byCompany = periodsOfCompanies(plain, companies, first, second, at);
  const metricsByCompany = metrics.length > 1 && !ratios.length ? metricsOfCompanies(plain, companies, index) : null;
  // Words left beside a company when no figure was recognised are the figure asked for ("Apple goodwill"), unless they ask about the company in general.
  const asked = metrics.length ? [] : leftovers.filter((w) => !w.toLowerCase().split(/\s+/).every((x) => GENERAL_WORDS.has(x)));
  const unknownFigures = [...new Set([...unsupported, ...acronyms, ...asked])];
  // Two periods named are more precise than a growth word ("change from Q2 to Q3 2024").
  // Each company with its own period is not a change over time of both.
  if (byCompany) return { companies, metrics, ratios, unknownFigures, period: byCompany[0]!.period, relative, comparison, alsoQoq: both, versus: null, form, adding, ttm, toDate, byCompany, metricsByCompany, twoPeriods: true };
  return { companies, metrics, ratios, unknownFigures, period, relative, comparison: pair?.comparison ?? (during ? 'qoq' : comparison), impliedComparison: impliedComparison && !pair && !during, alsoQoq: both && !pair, versus: pair?.versus ?? null, form, adding, ttm, toDate, byCompany: null, metricsByCompany, twoPeriods: second !== null };
}

/**
 * A period moved from the latest, with no other to move from. "The previous quarter" is the
 * latest reported (as "last quarter"), "two quarters ago" the one before it, "the prior year" the
 * latest fiscal year, "a year ago" the latest quarter a year earlier, "next quarter" one not reported yet.
 */
function fromLatest(r: Relative): PeriodSpec {
  const quarter: PeriodSpec = { kind: 'latest', span: 'quarter' };
  if (r.year) return r.years === -1 ? { kind: 'latest', span: 'year' } : shiftPeriod({ kind: 'latest', span: 'year' }, { quarters: 0, years: r.years + 1 });
  if (r.years && !r.quarters) return shiftPeriod(quarter, r);
  if (r.quarters < -1) return shiftPeriod(quarter, { quarters: r.quarters + 1, years: 0 });
  if (r.quarters > 0 || r.years > 0) return shiftPeriod(quarter, r);
  return quarter;
}

/** Moves a period by whole quarters and years, in fiscal terms when it is a fiscal label. */
export function shiftPeriod(base: PeriodSpec, by: Relative): PeriodSpec {
  if (base.kind === 'fiscalQuarter' && base.fy !== null && !base.calendar) {
    const index = (base.fy + by.years) * 4 + (base.q - 1) + by.quarters;
    return { kind: 'fiscalQuarter', fy: Math.floor(index / 4), q: ((index % 4) + 1) as 1 | 2 | 3 | 4 };
  }
  if (base.kind === 'fiscalYear' && base.fy !== null && by.quarters === 0) return { kind: 'fiscalYear', fy: base.fy + by.years };
  if (base.kind === 'calendarYear' && by.quarters === 0) return { kind: 'calendarYear', year: base.year + by.years };
  if (base.kind === 'shift') return { kind: 'shift', base: base.base, quarters: base.quarters + by.quarters, years: base.years + by.years };
  // "and a year earlier?" after the first half of 2024: the first half of 2023.
  if (base.kind === 'span') return { ...base, base: shiftPeriod(base.base ?? { kind: 'latest', span: 'quarter' }, by) };
  return { kind: 'shift', base, quarters: by.quarters, years: by.years };
}

/**
 * Parses one question, completing what it leaves out from the previous question of the
 * conversation: a turn without a company keeps the companies, without a figure keeps the
 * figures, and its period is read relative to the previous one.
 */
/** "Last year" itself ("what about last year?"), not the latest of several years ("the last years"). */
const LAST_YEAR = /\blast\s+(?:fiscal\s+|full\s+)?year\b/i;

export function parseSecQuestion(text: string, index: CompanyIndex, previous?: SecQuestion | null): SecQuestion {
  const carried = Boolean(previous?.companies.some((c) => c.status === 'found'));
  let x = extract(text, index, carried);
  // "GM" beside a company discussed or named ("aapl rev FY24", "GM?"; "MSFT Q3: rev, GM, EPS") is
  // gross margin; before a figure ("GM revenue 2024") it is General Motors.
  if (GROSS_MARGIN_ABBREVIATION.test(text) && (carried || x.companies.some((c) => c.status === 'found' && !/^gm$/i.test(c.text)))) {
    text = text.replace(new RegExp(GROSS_MARGIN_ABBREVIATION.source, 'g'), 'gross margin');
    x = extract(text, index, carried);
  }
  const companies = x.companies.map(({ at: _at, implied: _implied, ...c }) => c as CompanyMention);
  // ("ok iphone rev then" after Apple's figures for fiscal 2024 follows them up: the product names no company of its own.)
  const impliedOnly = x.companies.length > 0 && x.companies.every((c) => c.implied);
  const stated = { companies: companies.length > 0 && !(impliedOnly && carried), metrics: x.metrics.length > 0, period: x.period !== null || x.relative !== null || x.toDate, comparison: x.comparison !== null };
  // Naming both a company and a figure starts afresh, unless it is put against what came before
  // ("how does that stack up against MSFT FCF, same calendar year?").
  const followUp = previous && (!(stated.companies && stated.metrics) || (x.adding && REFERS_BACK.test(text)));
  let period: PeriodSpec | null = x.period;
  let comparison = x.comparison;
  let versus = x.versus;
  // "why did it fall?" after "Q2 2025 vs Q1 2025": the change just discussed, not a year-over-year one the word alone implies.
  if (followUp && x.impliedComparison && previous.comparison && !stated.period) [comparison, versus] = [previous.comparison, previous.versus];
  let movedFrom: PeriodSpec | null = null;
  if (period && x.relative) {
    // Moved from a period named in the same question: "the quarter after Q2 2024", "the year before fiscal 2024";
    // beside it, compared with it: "Q3 2024 and the quarter before", "FY2024 vs two years earlier".
    const moved = shiftPeriod(period, x.relative);
    if (!x.relative.joined) period = moved;
    else {
      const steps = x.relative.quarters + 4 * x.relative.years;
      const [later, earlier] = steps > 0 ? [moved, period] : [period, moved];
      period = later;
      comparison = Math.abs(steps) === 4 ? 'yoy' : Math.abs(steps) === 1 ? 'qoq' : 'versus';
      versus = comparison === 'versus' ? earlier : null;
    }
  } else if (!period && x.relative) {
    const base = followUp ? previous.period : null;
    period = base ? shiftPeriod(base, x.relative) : fromLatest(x.relative);
    movedFrom = base;
    // "How does that compare with two years earlier?": the period discussed against that one, not that one alone.
    const pair = base && x.relative.joined && VERSUS_NAMED.test(text) ? (comparedPair(period, base, false) ?? shiftedPair(period, base)) : null;
    if (pair) ({ period, comparison } = pair), (versus = pair.versus ?? null), (movedFrom = null);
  }
  // "What about last year?" after a fiscal year named ("Apple revenue FY2024"): the year before it, not that year again.
  else if (followUp && !stated.companies && !stated.metrics && !x.twoPeriods && period?.kind === 'latest' && period.span === 'year' && LAST_YEAR.test(text) && previous.period?.kind === 'fiscalYear' && previous.period.fy !== null) {
    movedFrom = previous.period;
    period = { kind: 'fiscalYear', fy: previous.period.fy - 1 };
  }
  // "And at the end of FY23?" after FY24: another period of the same figures, so that "change?" next is between the two.
  else if (followUp && period && !stated.companies && !stated.metrics && !x.twoPeriods && previous.period && previous.period.kind === period.kind && JSON.stringify(previous.period) !== JSON.stringify(period)) movedFrom = previous.period;
  // "what was the change?" right after moving ("Alphabet net income 2024", "and the prior fiscal
  // year?"): between the two periods just discussed, not from the second to the one before it.
  // ("Growth?" after "and the same quarter last year": the two quarters just discussed, a year apart.)
  // ("Which is bigger?" after "Apple revenue Q1 2024?", "and Q2 2024?": those two quarters, one company's, set against each other.)
  // ("How many bps?" after a margin's two periods asked in turn: the margin's move between them.)
  const comparesPeriods = followUp && !comparison && !stated.companies && !stated.metrics && !previous.switchedFrom && (COMPARES_THEM.test(text) || /\bhow many (?:bps|basis points|percentage points|points)\b/i.test(text));
  if (followUp && !period && (comparesPeriods || (comparison && comparison !== 'versus')) && previous.movedFrom && !previous.comparison && !EXPLICIT_YOY.test(text) && !/\b(?:qoq|quarter[- ](?:over|on)[- ]quarter|sequential)/i.test(text)) {
    const pair = comparedPair(previous.period, previous.movedFrom, false) ?? shiftedPair(previous.period, previous.movedFrom);
    if (pair) ({ period, comparison } = pair), (versus = pair.versus ?? null);
  }
  // "What's the trailing twelve month revenue?" naming no period: the latest twelve months, not those to the period discussed.
  if (!period && followUp && !(x.ttm && !previous.ttm)) period = previous.period;
  // "And apples op margin same yr": a new question keeps the period it points back to.
  if (!period && previous && /\b(?:same|that|this) (?:year|yr|quarter|qtr|period|fiscal year|fy|time)\b/i.test(text)) period = previous.period;
  // "The same calendar year" of a fiscal year discussed: the calendar year it is named for.
  if (followUp && !stated.period && period?.kind === 'fiscalYear' && period.fy !== null && /\bcalendar\s+year\b/i.test(text)) period = { kind: 'calendarYear', year: period.fy };
  // "and Q2?" after a question about fiscal 2024: the second quarter of that year, not the latest second quarter.
  if (followUp && period?.kind === 'fiscalQuarter' && period.fy === null) {
    const before = previous.period;
    if ((before?.kind === 'fiscalQuarter' || before?.kind === 'fiscalYear') && before.fy !== null) period = { ...period, fy: before.fy };
    // After "calendar 2023": the quarter of that calendar year (April to June for Q2).
    else if (before?.kind === 'calendarYear') period = { ...period, fy: before.year, calendar: true };
  }
  // "same for 2023", "and 2023?" after Q2 2024: that quarter of 2023; "FY2023" or "fiscal 2023" asks for the year.
  if (followUp && previous.period?.kind === 'fiscalQuarter' && previous.period.fy !== null && period?.kind === 'fiscalYear' && SAME_FOR_YEAR.test(text) && !/\b(?:fy|fiscal|full[- ]year|annual|whole year|year)\b/i.test(text)) {
    period = { ...previous.period, fy: period.fy };
  }
  // "How did that compare to Q3?", "and yoy vs Q4 23", "which expanded the most vs FY2023?" after Q4 2024 (or
  // FY2024): the period discussed against the one named, not the one named against the one before it.
  if (followUp && stated.period && !x.relative && !x.twoPeriods && previous.period && period && VERSUS_NAMED.test(text)) {
    const ids = stated.metrics ? x.metrics : previous.metrics;
    const pair = comparedPair(previous.period, period, ids.length > 0 && ids.every((id) => metricById(id).type === 'instant'));
    if (pair) ({ period, comparison } = pair), (versus = pair.versus ?? null);
  }
  if (!period && x.form) period = { kind: 'latest', span: x.form === '10-K' ? 'year' : 'quarter' };
  // "Apple ROE": a year's, not a quarter's. ("Apple ROE TTM": the twelve months to the latest quarter.)
  if (!period && x.ratios.some((id) => isAnnualRatio(ratioById(id)))) period = { kind: 'latest', span: x.ttm ? 'quarter' : 'year' };
  // "YTD" wraps the period said or carried ("2024 YTD", "and year to date?" after Q3); a half or the nine months is one already.
  if (x.toDate && period?.kind !== 'span') period = { kind: 'span', base: period, quarters: null };
  let merged = companies;
  let switchedFrom: CompanyMention[] | null = null;
  if (!stated.companies && previous) {
    // "which is bigger?" after "and Microsoft?" following an Apple question: the two of them.
    // (So do "working capital for both", "for each of them", "all three".)
    // (A company carried is not said to be guessed again: "(Taking "aple" to mean Apple)" belongs to the turn that misspelt it.)
    const carriedOn = previous.companies.map(asCarried);
    // (So do "which one is cheaper to buy?" and "is either of them cheap?": their valuations, side by side.)
    merged = previous.switchedFrom && (COMPARES_THEM.test(text) || VALUES_THEM.test(text) || /\b(?:both|each(?: of them)?|either(?: of them| one)?|all three|the two|all of them|combined|together|in total|altogether)\b/i.test(text)) ? unionCompanies(previous.switchedFrom.map(asCarried), carriedOn) : carriedOn;
    // "What's the latest quarter you have for each?" after three companies asked one at a time: all of them.
    const discussed = (previous.discussed ?? []).filter((c) => c.status === 'found');
    // (So does "rank them by R&D intensity".)
    // (So does "which is most efficient with its assets?" after the three were compared and one of them asked about:
    // a superlative of no period, "which quarter was strongest?", weighs the companies discussed.)
    const superlative = /\b(?:which|who|whose)\b[^?]*\b(?:most|least|best|worst|highest|lowest|biggest|largest|smallest|fastest|slowest|strongest|weakest)\b/i.test(text) && !/\b(?:quarters?|years?|periods?|months?|halves|half)\b/i.test(text);
    if ((superlative || /\b(?:for |of )?(?:each|every one|all of them|all (?:three|four|five))\b|\b(?:rank|ranking|order|sort)\s+(?:them|those|these|the three|all)\b/i.test(text)) && discussed.length > merged.length && !comparedTogether(previous)) merged = unionCompanies(merged, discussed);
    // "Revenue for both" after "Apple and Zorblax Corp", a turn on Apple alone between: the two named, the one not found
    // among them, so that the answer says it is no company in the data rather than leave it out unsaid.
    const named = previous.discussed ?? [];
    if (/\b(?:both|the two|each of them|either)\b/i.test(text) && named.length === 2 && merged.length < 2 && named.some((c) => c.status !== 'found')) merged = unionCompanies(merged, named.map(asCarried));
  }
  else if (stated.companies && followUp && x.adding) merged = unionCompanies(previous.companies.map(asCarried), companies);
  // ("How about msft eps" names a figure too, yet asks it beside the company before.)
  // (Companies asked one after another, "Apple's revenue?", "and Microsoft's?", "and Alphabet's?", are all switched from:
  // "as a table" or "which is biggest?" next is of all of them.)
  else if (stated.companies && previous?.companies.length && (followUp || /^\s*(?:and|how about|what about|same for|now)\b/i.test(text))) {
    const before = previous.switchedFrom && !stated.metrics ? unionCompanies(previous.switchedFrom, previous.companies) : previous.companies;
    const keys = new Set(companies.map(companyKey));
    const others = before.filter((c) => !keys.has(companyKey(c))).map(asCarried);
    // ("Now just Alphabet": that one alone, the others left.)
    switchedFrom = sameCompanies(previous.companies, companies) || !others.length || /\b(?:just|only)\b/i.test(text) ? null : others;
  }
  // "I meant Microsoft not Alphabet", "swap apple for alphabet": the company said in place of the one
  // it replaces, the others of the comparison kept.
  if (stated.companies && previous && previous.companies.length > 1 && REPLACED.test(text)) {
    const keys = new Set(previous.companies.map(companyKey));
    const [leaving, coming] = [companies.filter((c) => keys.has(companyKey(c))), companies.filter((c) => !keys.has(companyKey(c)))];
    if (leaving.length === 1 && coming.length === 1) {
      merged = previous.companies.map((c) => (companyKey(c) === companyKey(leaving[0]!) ? coming[0]! : c));
      switchedFrom = null;
    }
  }
  // "what % of that was net income?" after revenue: net income's share of that revenue.
  const ofThat = Boolean(followUp && /(?:%|\bpercent(?:age)?|\bshare|\bproportion)\s+of\s+(?:that|it|this|those)\b/i.test(text) && previous.metrics.includes('revenue') && x.metrics.length && !x.metrics.includes('revenue'));
  // ("Who spends the most in absolute dollars?" after an intensity: the amounts, not their share of revenue.)
  const absolute = /\b(?:absolute|in dollars|dollar (?:terms|amounts?)|raw (?:dollars|numbers|amounts?))\b/i.test(text);
  // (A margin named only in prose pasted around the question, "directors raised questions about the margins", is not asked.)
  const askingRangeOf = askingRange(text);
  const margin = !absolute && (MARGIN.test(askingRangeOf ? text.slice(...askingRangeOf) : text) || ofThat || Boolean(followUp && !stated.metrics && previous.margin));
  // "R&D as a share of revenue": revenue is the denominator there, not a figure asked for.
  const ofRevenue = margin && OF_REVENUE.test(text);
  const asked = ofRevenue && x.metrics.length > 1 ? x.metrics.filter((id) => id !== 'revenue') : x.metrics;
  // "what % of revenue is that?" after a figure: that figure's share, revenue only its denominator.
  const shareOfPrevious = Boolean(followUp && ofRevenue && !stated.companies && x.metrics.every((id) => id === 'revenue') && Boolean(previous?.metrics.some((id) => id !== 'revenue')));
  // ("Compared to its cash?" after its debt: the two figures, set against each other.)
  const againstFigure = followUp && !stated.companies && !stated.period && !margin && !x.ratios.length && !previous.ratios?.length && AGAINST_FIGURE.test(text);
  const metrics: MetricId[] = shareOfPrevious && previous ? previous.metrics.filter((id) => id !== 'revenue') : stated.metrics ? (followUp && !stated.companies && (ADD_FIGURE.test(text) || againstFigure) && !/\bhow much\b/i.test(text) ? [...new Set([...previous.metrics, ...asked])] : asked) : followUp && !x.unknownFigures.length ? previous.metrics : [];
  // "How did it change over the past year?" of a balance, "msft ttm eps, which grew faster over the last year":
  // from a year before the latest quarter, not the last fiscal year against the one before.
  const ttmAsked = x.ttm || Boolean(followUp && (!stated.period || x.relative) && previous.ttm);
  if (period?.kind === 'latest' && period.span === 'year' && /\b(?:over|in|during|within)\s+the\s+(?:last|past|previous)\s+(?:year|12\s+months|twelve\s+months)\b/i.test(text) && (ttmAsked || (metrics.length > 0 && metrics.every((id) => metricById(id).type === 'instant')))) {
    period = { kind: 'latest', span: 'quarter' };
    comparison ??= 'yoy';
  }
  // "Apple's margin?", "what about its margin?" after revenue: a margin without its name is each of them.
  // (So is "which has better margins?" after ratios or balances, which have no margin: not those again.)
  const anyMargin = margin && !stated.metrics && !ofRevenue && /\bmargins?\b/i.test(text) && (metrics.every((id) => id === 'revenue') || !metrics.some((id) => HAS_MARGIN.includes(id)));
  // "Which is growing faster?" after ratios or balances: how fast the business grows, its revenue's growth.
  // ("Did Microsoft grow faster than Apple?", naming no figure and none carried: a business grows by its revenue.)
  const growthOf = Boolean(!stated.metrics && !anyMargin && !x.ratios.length && GROWING_FASTER.test(text) && ((followUp && (previous.ratios?.length || previous.margin || (metrics.length > 0 && metrics.every((id) => metricById(id).type === 'instant')))) || !metrics.length));
  // "And per share?" after net income (or free cash flow, equity): that figure per share, kept by the follow-ups after it.
  const perShareAsked = followUp && !stated.metrics && !x.ratios.length && !previous.ratios?.length && PER_SHARE_ALONE.test(text);
  const perShare = perShareAsked ? perShareOf(metrics) : null;
  // "Operating leverage": operating income's growth against revenue's; a follow-up naming no figure ("and Alphabet?") keeps asking it.
  const operatingLeverage = OPERATING_LEVERAGE.test(text) || Boolean(followUp && !stated.metrics && !x.ratios.length && !x.unknownFigures.length && !perShareAsked && previous.operatingLeverage);
  if (operatingLeverage && !stated.period && !followUp) period ??= { kind: 'latest', span: 'year' };
  // ("And Microsoft?" after "Apple operating cash flow vs net income FY2024": the two set against each other again.)
  // ("And Microsoft's? yes or no" after "did it grow? just yes or no": did Microsoft's grow.)
  const bare = text.replace(/\b(?:just|only|simply)?\s*(?:yes\s+or\s+no|yes\/no|y\/n)\b/gi, ' ');
  const askedAs = followUp && !stated.metrics && !ASKS_DIRECTION.test(bare) && (BARE_FOLLOW_UP.test(bare) || (bare.match(/[\w']+/g) ?? []).length <= 3) && (previous.askedAs || (previous.comparison && ASKS_DIRECTION.test(previous.text))) ? (previous.askedAs ?? previous.text) : undefined;
  const against = (x.metrics.length === 2 && !x.ratios.length && FIGURES_AGAINST.test(text)) || Boolean(followUp && !stated.metrics && !x.ratios.length && !x.unknownFigures.length && !perShareAsked && previous.against);
  // ("And per share?" after revenue: no such figure, said so beside the figure, never the figure again as if it were.)
  const noPerShare = perShareAsked && !perShare && metrics.length ? metrics.map((id) => `${metricById(id).label} per share`) : [];
  return {
    text,
    companies: merged,
    // "add net income", "and net income too" beside the previous figures; "and EBITDA?" asks for another figure instead.
    metrics: operatingLeverage ? [...new Set<MetricId>(['operatingIncome', 'revenue', ...x.metrics])] : (perShare?.metrics ?? (anyMargin ? ['grossProfit', 'operatingIncome', 'netIncome'] : growthOf ? ['revenue'] : metrics)),
    period,
    ...(operatingLeverage ? { operatingLeverage: true } : {}),
    // (Kept by a follow-up that moves neither period nor comparison: "and Microsoft?" is its two periods too.)
    ...((x.twoPeriods && !x.byCompany && x.period && comparison && !COMPARING.test(text)) || (followUp && previous.periodsListed && !stated.period && !stated.comparison && !x.relative && !COMPARING.test(text)) ? { periodsListed: true } : {}),
    ...(askedAs ? { askedAs } : {}),
    ...(against && !operatingLeverage ? { against: true } : {}),
    // The earlier period compared with stays only while the period does ("and net income?").
    // (Operating leverage is growth against growth: a year over year unless another change is asked.)
    ...(operatingLeverage && !comparison && !(followUp && previous.comparison)
      ? { comparison: 'yoy' as const, versus: null, alsoQoq: false }
      : comparison
      ? { comparison, versus, alsoQoq: comparison === 'yoy' && x.alsoQoq }
      : followUp && previous.comparison && (previous.comparison !== 'versus' || !stated.period) && !(x.ttm && !previous.ttm)
        ? { comparison: previous.comparison, versus: previous.versus, alsoQoq: previous.alsoQoq ?? false }
        : { comparison: null, versus: null, alsoQoq: false }),
    form: x.form ?? (followUp ? previous.form : null),
    stated,
    switchedFrom,
    shareOf: SHARE_OF.test(text) || Boolean(followUp && !stated.metrics && previous.shareOf),
    // "How many bps did it move?", then "same for MSFT": in basis points too.
    bps: BPS.test(text) || Boolean(followUp && !stated.metrics && previous.bps),
    // "In billions please": the amounts of this answer and of its follow-ups in that scale.
    ...((scaleAsked(text) ?? (followUp ? previous.scale : undefined)) ? { scale: scaleAsked(text) ?? previous!.scale } : {}),
    sameDateAs: sameDateAs(text, previous ?? null, Boolean(followUp), stated.period, stated.companies && Boolean(previous?.companies.length) && !sameCompanies(previous!.companies, companies)),
    // (Companies named but not found are kept too: "for both" of one found and one not says which is not.)
    discussed: unionCompanies(previous?.discussed ?? [], merged),
    // Kept by a follow-up that moves nowhere ("gross margin that quarter?" after "and the year
    // before?"): "why did it change?" next is still between the two periods discussed.
    movedFrom: movedFrom ?? (followUp && !stated.period && !x.relative && previous.movedFrom && JSON.stringify(period) === JSON.stringify(previous.period) ? previous.movedFrom : null),
    // Kept by a follow-up that changes only the figure ("and net income?").
    periodsByCompany: x.byCompany && period === x.period ? x.byCompany : followUp && !stated.period && !stated.companies ? (previous.periodsByCompany ?? null) : null,
    // A follow-up naming a figure asks it of every company again.
    metricsByCompany: x.metricsByCompany,
    margin: margin && !growthOf && !perShare,
    // Kept by a follow-up moving the period ("and the year before?" after TTM: the twelve months a year earlier).
    ttm: x.ttm || Boolean(followUp && (!stated.period || x.relative) && previous.ttm),
    unknownFigures: [...x.unknownFigures, ...noPerShare],
    // Kept by a follow-up that changes the company or period only ("and Microsoft?").
    ratios: perShare?.ratios ?? (x.ratios.length ? x.ratios : followUp && !stated.metrics && !x.unknownFigures.length && !anyMargin && !growthOf ? (previous.ratios ?? []) : []),
    // "And Alphabet?" after "what's Apple's cash burn?": its burn, or that it burns none, too.
    ...(BURN_ASKED.test(text) || RUNWAY_ASKED.test(text) || (followUp && !stated.metrics && previous.burn) ? { burn: true } : {}),
    // (And "and Alphabet?" after a runway: its runway, or that it burns no cash.)
    ...(RUNWAY_ASKED.test(text) || (followUp && !stated.metrics && previous.runway) ? { runway: true } : {}),
  };
}

/** A follow-up asking only "per share" ("and per share?", "what's that on a per-share basis?"). */
const PER_SHARE_ALONE = /^\W*(?:(?:and|so|ok|okay|what about|how about|what(?:'s| is| was| are| were)|now)\W+)*(?:(?:it|that|this|those|them)\s+)?(?:on\s+a\s+|in\s+)?per[- ]share(?:\s+(?:basis|terms|figure|number))?\s*(?:please|pls)?\W*$/i;

/** Figures with a per-share ratio computed from them: free cash flow per share, book value per share. */
const PER_SHARE_RATIO: Partial<Record<MetricId, RatioId>> = { freeCashFlow: 'fcfPerShare', stockholdersEquity: 'bookValuePerShare', revenue: 'revenuePerShare' };

/** The per-share form of the figures asked: net income's is diluted EPS (filed); the others', a ratio computed here. Null when they have none. */
function perShareOf(metrics: readonly MetricId[]): { metrics?: MetricId[]; ratios?: RatioId[] } | null {
  if (metrics.includes('netIncome')) return { metrics: ['dilutedEps'], ratios: [] };
  const ratio = metrics.map((id) => PER_SHARE_RATIO[id]).find(Boolean);
  return ratio ? { ratios: [ratio] } : null;
}

const BPS = /\b(?:bps|basis points?)\b/i;
/** Figures with a margin (a share of revenue) of their own. */
const HAS_MARGIN: MetricId[] = ['revenue', 'grossProfit', 'operatingIncome', 'netIncome', 'freeCashFlow', 'operatingCashFlow'];
const GROWING_FASTER = /\b(?:grow|growing|grows|grew|grown)\s+(?:the\s+)?(?:faster|fastest|quicker|quickest|more)\b|\bfaster[- ]growing\b/i;

/** One company said in place of another ("I meant Microsoft not Alphabet", "Microsoft instead of Alphabet", "swap apple for alphabet"). */
const REPLACED = /\b(?:not|instead of|rather than|in place of|swap|swapped|replace|replacing)\b/i;

/** The scale amounts are asked in ("in billions", "in $bn", "millions please"), as a power of ten. */
function scaleAsked(text: string): 3 | 6 | 9 | undefined {
  const m = /\b(?:in|as|into|to)\s+(?:\$\s?|usd\s+)?(billions?|bn|bns|millions?|mn|mm|mns|thousands?)\b|\b(billions?|millions?|thousands?)\s+(?:please|pls|plz|instead)\b|^\W*(billions?|millions?|thousands?)\W*$/i.exec(text);
  const word = (m?.[1] ?? m?.[2] ?? m?.[3])?.toLowerCase();
  return word === undefined ? undefined : /^b/.test(word) ? 9 : /^(?:mi|mn|mm)/.test(word) ? 6 : 3;
}

export const SAME_DATE = /\b(?:(?:at|on|as of|for|by) (?:the )?same (?:date|day|time|point|quarter[- ]end|year[- ]end|balance[- ]sheet date)|(?:at|on|as of) (?:that|this|those) (?:date|day|point|quarter[- ]end|year[- ]end)s?|same date|(?:(?:at|on|as of) the )?(?:closest|nearest) (?:date|day|quarter[- ]end))\b/i;

/** "The same period", "same quarter" of another company: its quarter ending when the one discussed did, not its fiscal label. */
const SAME_PERIOD = /\b(?:for|in|over|during)?\s*(?:the )?same (?:period|quarter|qtr|three months|calendar quarter|months)\b(?!\s+(?:last|a|one|two|three|the prior|the previous)\s|\s+(?:ago|earlier|before)\b)/i;

/** The company and period whose end date a balance asked "at the same date" is at (see SecQuestion.sameDateAs). */
function sameDateAs(text: string, previous: SecQuestion | null, followUp: boolean, periodStated: boolean, otherCompany: boolean): SecQuestion['sameDateAs'] {
  if (!previous) return undefined;
  if (SAME_DATE.test(text) || (otherCompany && SAME_PERIOD.test(text))) {
    if (previous.sameDateAs) return previous.sameDateAs;
    const first = previous.companies.find((c) => c.status === 'found');
    return first?.status === 'found' ? { company: first.company, period: previous.period } : undefined;
  }
  return followUp && !periodStated ? previous.sameDateAs : undefined;
}

/** "GM" not followed by a figure of its own ("GM revenue", "GM's eps"). */
const GROSS_MARGIN_ABBREVIATION = /\bGMs?\b(?!['’]s?\b|\s+(?:rev(?:enue)?s?|sales|eps|earnings|net|income|profit|cash|debt|stock|shares?|assets|capex|opex|fcf)\b)/;

function companyKey(c: CompanyMention): string {
  return c.status === 'found' ? `cik:${c.company.cik}` : `text:${c.text.toLowerCase()}`;
}

/** The companies of the comparison a conversation is in: those asked one after another ("Apple's revenue?", "and Microsoft's?"), and this turn's. */
export function comparedCompanies(q: SecQuestion): CompanyMention[] {
  return q.switchedFrom ? unionCompanies(q.switchedFrom, q.companies) : q.companies;
}

/** A company carried from an earlier turn: whether that turn guessed it from a misspelling is said on that turn only. */
const asCarried = (c: CompanyMention): CompanyMention => (c.status === 'found' && c.fuzzy ? { ...c, fuzzy: false } : c);

function unionCompanies(a: CompanyMention[], b: CompanyMention[]): CompanyMention[] {
  const seen = new Set(a.map(companyKey));
  return [...a, ...b.filter((c) => !seen.has(companyKey(c)))];
}

const sameCompanies = (a: CompanyMention[], b: CompanyMention[]) => a.length === b.length && a.every((c, i) => companyKey(c) === companyKey(b[i]!));

/** "Which companies do you cover?": a question about the data itself, not about a company in it. */
export function asksCoverage(text: string): boolean {
  return /\b(?:which|what)\s+(?:companies|tickers|firms|stocks|filers|issuers|names)\b[^?]*\b(?:cover|covered|have|has|hold|holds|contain|contains|support(?:ed)?|know|available|include[ds]?|in (?:your|the|this) (?:data(?:\s?set|base)?|snapshot|db|universe|coverage|list|index|sample)|can (?:i|we) (?:ask|query|look up|search|get))\b|\bwhat(?:'s| is| do you have) in (?:your|the|this) (?:data(?:\s?set|base)?|snapshot|db)\b(?!\s+(?:for|about|on|of)\b)|\bwhat(?:'?s| is) (?:your|the) (?:coverage|universe)\b|\bcompanies\s+(?:do|can)\s+you\b|\bwho do you cover\b|\b(?:list|show)(?: me)?(?: the| all| your)? (?:companies|tickers)\b|^\s*(?:do|can) you (?:cover|have|support)\b/i.test(text) && !RANKED_AMONG.test(text);
}

/**
 * Several companies named side by side in the turn followed up ("Apple vs Microsoft vs NVIDIA gross
 * margin"): a ranking of them ("which one's highest?") is of those, not of every company asked about before.
 */
const comparedTogether = (q: SecQuestion) => q.stated.companies && q.companies.length > 1;

/** "Which companies have the highest margin?": a ranking of the companies, not which are covered. */
const RANKED_AMONG = /\b(?:highest|lowest|most|least|largest|biggest|smallest|best|worst|fastest|slowest|strongest|weakest|more|less|fewer|greater|higher|lower)\b/i;

/**
 * The question a conversation ends with: each user turn parsed against the one before, so
 * that follow-ups carry their context. Assistant turns are not read.
 */
export function parseConversation(turns: readonly { role: string; content: string }[], index: CompanyIndex): SecQuestion | null {
  let question: SecQuestion | null = null;
  // The recent turns carry the context; a long history would only cost time.
  const recent = turns.filter((t) => t.role === 'user' && t.content.trim()).slice(-MAX_CONTEXT_TURNS);
  recent.forEach((turn, i) => {
    const parsed = parseSecQuestion(clipped(turn.content), index, question);
    // A turn between about something else ("lakers odds tonight?" to svc-agent) names no company
    // found and no figure: the companies and figures before it carry past it.
    // (So does one about prediction markets, "any kalshi market on apple?".)
    const elsewhere = i < recent.length - 1 && question !== null && !parsed.stated.metrics && !parsed.stated.period && ((parsed.companies.length > 0 && parsed.companies.every((c) => c.status === 'unknown')) || /\b(?:kalshi|polymarket|odds|prediction markets?|bet|betting)\b|kalshi\.com/i.test(turn.content));
    // "Where's that number from?" after a figure it could not give ("days inventory outstanding"): the number is the one before.
    const unanswered = i === recent.length - 2 && question !== null && !parsed.metrics.length && parsed.unknownFigures.length > 0 && SOURCE_OF_ANSWER.test(recent.at(-1)!.content);
    // "Which filing says that?", "show me where it says that", "source?" between: about the answer before, its figures carry past it ("and Microsoft?" next is the same figure).
    const aboutAnswer = i < recent.length - 1 && question !== null && !parsed.stated.metrics && !parsed.stated.companies && ABOUT_ANSWER.test(turn.content);
    if (!elsewhere && !unanswered && !aboutAnswer) question = parsed;
  });
  return question;
}

/**
 * As parseConversation, with the companies the instructions name ("Always answer about Apple
 * Inc.") as the context of a conversation that names none itself.
 */
export function parseWithInstructions(turns: readonly { role: string; content: string }[], instructions: string | null, index: CompanyIndex): SecQuestion | null {
  const question = parseConversation(turns, index);
  if (!instructions?.trim() || question?.companies.some((c) => c.status === 'found')) return question;
  const named = parseSecQuestion(clipped(instructions), index, null)?.companies.flatMap((c) => (c.status === 'found' && !c.fuzzy ? [c.company.ticker || c.company.name] : [])) ?? [];
  return named.length ? parseConversation([{ role: 'user', content: [...new Set(named)].join(' and ') }, ...turns], index) : question;
}

/** Words of prose around the one sentence asking, at least, for that sentence alone to decide the period. */
const PROSE_AROUND_WORDS = 8;

/**
 * Where the one sentence asking a question (ending in "?") is in a turn that says other things
 * besides, in sentences not asking anything ("The quarterly review was circulated internally
 * before the board meeting. What was Microsoft net income FY2024?"): [start, end), or null when
 * the turn is one question, asks several, or the rest is a few words ("Apple revenue Q3 2024.
 * And Q2?" is one question said in two).
 */
function askingRange(text: string): [number, number] | null {
  const sentences = [...text.matchAll(/[^.!?…\n]+(?:[.!?…]+|$)/g)].filter((x) => /\p{L}/u.test(x[0]));
  const asking = sentences.filter((x) => /\?\s*$/.test(x[0]));
  if (asking.length !== 1 || sentences.length < 2) return null;
  const [x] = asking as [RegExpMatchArray];
  const rest = sentences.filter((y) => y !== x).map((y) => y[0]).join(' ');
  if ((rest.match(/\p{L}+/gu) ?? []).length < PROSE_AROUND_WORDS) return null;
  return [x.index!, x.index! + x[0].length];
}

/**
 * The sentence asking, when prose is pasted around it and that sentence names a period of its own
 * (see askingRange): the periods a table shows are read from it, not from the prose. Null otherwise.
 */
export function askingSentence(text: string): string | null {
  const range = askingRange(text);
  if (!range) return null;
  const sentence = text.slice(range[0], range[1]);
  const own = extractPeriod(new Masked(sentence), null);
  return own.period || own.relative || own.toDate ? sentence : null;
}

/** A long turn's start and end: a question comes before or after what was pasted with it, rarely in its middle. */
export function clipped(text: string): string {
  if (text.length <= MAX_TURN_CHARS) return text;
  const half = MAX_TURN_CHARS / 2;
  const head = text.slice(0, half).replace(/\s+\S*$/, '');
  const tail = text.slice(-half).replace(/^\S*\s+/, '');
  return `${head}. ${tail}`;
}

const MAX_CONTEXT_TURNS = 12;
/** The source of the answer before asked ("where's that number from?", "source pls"). */
/** A turn asking about the answer before rather than for figures: its sources, its filing, where it is printed. */
const ABOUT_ANSWER = /\b(?:sources?|citations?|where did you get|show me where|point me to|where (?:does|did|do|is|are|was|were|can|could) (?:it|that|this|they|those|these|i)\b|(?:what|which)\s+(?:filing|form|10-?[kq]|report|document)\b)/i;
const SOURCE_OF_ANSWER = /\b(?:sources?|citations?|where did you get|where(?:'s| is| does| did| do) (?:that|this|it|these|those)\b[^?]*\bfrom)\b/i;
const MAX_TURN_CHARS = 2000;
