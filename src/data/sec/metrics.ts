/**
 * The figures the SEC library answers, each with the XBRL concepts that carry it (in order of
 * preference, synonyms merged per period), its unit and whether it is a flow over a period
 * (duration) or a balance at a date (instant), and the words people use for it.
 */

export type MetricId =
  | 'revenue'
  | 'costOfRevenue'
  | 'grossProfit'
  | 'operatingExpenses'
  | 'operatingIncome'
  | 'pretaxIncome'
  | 'incomeTax'
  | 'netIncome'
  | 'dilutedEps'
  | 'basicEps'
  | 'dilutedShares'
  | 'researchAndDevelopment'
  | 'sellingGeneralAdministrative'
  | 'salesAndMarketing'
  | 'generalAdministrative'
  | 'depreciationAmortization'
  | 'interestExpense'
  | 'operatingCashFlow'
  | 'capitalExpenditure'
  | 'freeCashFlow'
  | 'dividendsPerShare'
  | 'dividendsPaid'
  | 'shareRepurchases'
  | 'cash'
  | 'inventory'
  | 'currentAssets'
  | 'totalAssets'
  | 'currentLiabilities'
  | 'totalLiabilities'
  | 'stockholdersEquity'
  | 'longTermDebt'
  | 'sharesOutstanding';

export type UnitKind = 'money' | 'perShare' | 'shares';

export interface Concept {
  taxonomy: string;
  name: string;
}

/** A metric computed from others when no concept carries it, with the formula said out loud. */
export interface Formula {
  /** Terms added (+1) or subtracted (−1); each names a metric or a bare concept. */
  terms: { sign: 1 | -1; metric?: MetricId; concepts?: Concept[]; label: string }[];
  describe: string;
}

export interface MetricDef {
  id: MetricId;
  label: string;
  unit: UnitKind;
  type: 'duration' | 'instant';
  concepts: Concept[];
  /** When several concepts carry a value for the same period, take the largest (the top-line total). */
  preferLargest?: boolean;
  formula?: Formula;
  /** Answering a derived Q4 by subtraction is only approximate (per-share figures). */
  approximateWhenDerived?: boolean;
  /** A weighted average over the period, not a sum: no quarter by subtracting year-to-date figures, no year by adding quarters. */
  averaged?: boolean;
  /** Words people use for it; matched as whole words, longest first. */
  phrases: string[];
  /** Its label is a plural noun ("total assets were", "share repurchases were"). */
  plural?: true;
}

/** The past of "to be" agreeing with a figure's label: "net income was", "share repurchases were". */
export const wasOf = (metric: Pick<MetricDef, 'plural'>): 'was' | 'were' => (metric.plural ? 'were' : 'was');

const g = (name: string): Concept => ({ taxonomy: 'us-gaap', name });
const ifrs = (name: string): Concept => ({ taxonomy: 'ifrs-full', name });

export const METRICS: readonly MetricDef[] = [
  {
    id: 'revenue',
    label: 'revenue',
    unit: 'money',
    type: 'duration',
    concepts: [
      g('RevenueFromContractWithCustomerExcludingAssessedTax'),
      g('Revenues'),
      g('RevenueFromContractWithCustomerIncludingAssessedTax'),
      g('SalesRevenueNet'),
      g('SalesRevenueGoodsNet'),
      g('RevenuesNetOfInterestExpense'),
      ifrs('Revenue'),
    ],
    preferLargest: true,
    phrases: ['revenue', 'revenues', 'total revenue', 'total revenues', 'net revenue', 'net revenues', 'sales', 'net sales', 'total net sales', 'total sales', 'top line', 'top-line', 'topline', 'turnover', 'rev', 'revs'],
  },
  {
    id: 'costOfRevenue',
    label: 'cost of revenue',
    unit: 'money',
    type: 'duration',
    concepts: [g('CostOfRevenue'), g('CostOfGoodsAndServicesSold'), g('CostOfGoodsSold'), g('CostOfServices'), ifrs('CostOfSales')],
    phrases: ['cost of revenue', 'cost of revenues', 'costs of revenue', 'costs of revenues', 'cost of sales', 'costs of sales', 'cost of goods sold', 'cost of goods', 'cogs'],
  },
  {
    id: 'grossProfit',
    label: 'gross profit',
    unit: 'money',
    type: 'duration',
    concepts: [g('GrossProfit'), ifrs('GrossProfit')],
    formula: {
      terms: [
        { sign: 1, metric: 'revenue', label: 'revenue' },
        { sign: -1, metric: 'costOfRevenue', label: 'cost of revenue' },
      ],
      describe: 'revenue minus cost of revenue',
    },
    phrases: ['gross profit', 'gross profits', 'gross margin', 'gross margins', 'gross income'],
  },
  {
    id: 'operatingExpenses',
    label: 'operating expenses',
    unit: 'money',
    type: 'duration',
    concepts: [g('OperatingExpenses')],
    // Filers that list R&D, sales and marketing and G&A without a total (Microsoft, Alphabet):
    // what lies between gross profit and operating income, as Apple's "Total operating expenses".
    formula: {
      terms: [
        { sign: 1, metric: 'revenue', label: 'revenue' },
        { sign: -1, metric: 'costOfRevenue', label: 'cost of revenue' },
        { sign: -1, metric: 'operatingIncome', label: 'operating income' },
      ],
      describe: 'revenue minus cost of revenue minus operating income',
    },
    plural: true,
    phrases: ['operating expenses', 'operating expense', 'total operating expenses', 'opex'],
  },
  {
    id: 'operatingIncome',
    label: 'operating income',
    unit: 'money',
    type: 'duration',
    // Never pre-tax income in its place: the two differ by interest and other income.
    concepts: [g('OperatingIncomeLoss'), ifrs('ProfitLossFromOperatingActivities')],
    phrases: ['operating income', 'operating profit', 'operating profits', 'operating loss', 'income from operations', 'operating earnings', 'operating income (loss)', 'operating margin', 'operating margins', 'ebit margin', 'op income', 'op inc', 'operating inc', 'op profit', 'op margin', 'op margins'],
  },
  {
    id: 'pretaxIncome',
    label: 'pre-tax income',
    unit: 'money',
    type: 'duration',
    concepts: [
      g('IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest'),
      g('IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments'),
      ifrs('ProfitLossBeforeTax'),
    ],
    phrases: [
      'pre-tax income',
      'pretax income',
      'pre tax income',
      'income before taxes',
      'income before income taxes',
      'income before provision for income taxes',
      'earnings before taxes',
      'earnings before income taxes',
      'pre-tax profit',
      'pretax profit',
      'profit before tax',
      'profit before taxes',
      'ebt',
    ],
  },
  {
    id: 'incomeTax',
    label: 'income tax expense',
    unit: 'money',
    type: 'duration',
    concepts: [g('IncomeTaxExpenseBenefit'), ifrs('IncomeTaxExpenseContinuingOperations')],
    phrases: ['income tax', 'income taxes', 'income tax expense', 'provision for income taxes', 'tax expense', 'tax provision', 'taxes'],
  },
  {
    id: 'netIncome',
    label: 'net income',
    unit: 'money',
    type: 'duration',
    concepts: [g('NetIncomeLoss'), g('ProfitLoss'), g('NetIncomeLossAvailableToCommonStockholdersBasic'), ifrs('ProfitLossAttributableToOwnersOfParent'), ifrs('ProfitLoss')],
    phrases: ['net income', 'net income (loss)', 'ni', 'net inc', 'net earnings', 'net profit', 'net profits', 'net loss', 'net margin', 'net margins', 'profit margin', 'profit margins', 'net profit margin', 'earnings', 'profit', 'profits', 'bottom line', 'bottom-line', 'income', 'earn', 'earned', 'make money', 'made money', 'making money', 'lose money', 'lost money', 'losing money', 'profitable', 'profitability'],
  },
  {
    id: 'dilutedEps',
    label: 'diluted EPS',
    unit: 'perShare',
    type: 'duration',
    concepts: [g('EarningsPerShareDiluted'), g('EarningsPerShareBasicAndDiluted'), ifrs('DilutedEarningsLossPerShare')],
    approximateWhenDerived: true,
    phrases: ['diluted eps', 'eps', 'earnings per share', 'diluted earnings per share', 'earnings per diluted share', 'per share earnings', 'diluted earnings', 'net income per share', 'net income per diluted share', 'profit per share'],
  },
  {
    id: 'basicEps',
    label: 'basic EPS',
    unit: 'perShare',
    type: 'duration',
    concepts: [g('EarningsPerShareBasic'), g('EarningsPerShareBasicAndDiluted'), ifrs('BasicEarningsLossPerShare')],
    approximateWhenDerived: true,
    phrases: ['basic eps', 'basic earnings per share', 'earnings per basic share', 'eps basic', 'eps, basic', 'earnings per share basic', 'earnings per share, basic', 'basic net income per share', 'net income per share basic', 'net income per share, basic'],
  },
  {
    id: 'dilutedShares',
    label: 'diluted weighted-average shares',
    plural: true,
    unit: 'shares',
    type: 'duration',
    concepts: [g('WeightedAverageNumberOfDilutedSharesOutstanding'), g('WeightedAverageNumberOfShareOutstandingBasicAndDiluted')],
    averaged: true,
    phrases: [
      'diluted shares',
      'diluted shares outstanding',
      'diluted share count',
      'weighted average diluted shares',
      'weighted-average diluted shares',
      'diluted weighted average shares',
      'diluted weighted-average shares',
      'weighted average shares',
      'weighted-average shares',
    ],
  },
  {
    id: 'researchAndDevelopment',
    label: 'R&D expense',
    unit: 'money',
    type: 'duration',
    concepts: [g('ResearchAndDevelopmentExpense'), g('ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost')],
    phrases: ['r&d', 'r & d', 'r and d', 'r&d expense', 'r&d expenses', 'r&d spending', 'research and development', 'research & development', 'research and development expense', 'research and development expenses', 'research spending'],
  },
  {
    id: 'sellingGeneralAdministrative',
    label: 'SG&A expense',
    unit: 'money',
    type: 'duration',
    concepts: [g('SellingGeneralAndAdministrativeExpense')],
    formula: {
      terms: [
        { sign: 1, concepts: [g('SellingAndMarketingExpense')], label: 'sales and marketing' },
        { sign: 1, concepts: [g('GeneralAndAdministrativeExpense')], label: 'general and administrative' },
      ],
      describe: 'sales and marketing plus general and administrative expense',
    },
    phrases: ['sg&a', 'sg & a', 'sga', 'sg&a expense', 'sg&a expenses', 'selling, general and administrative', 'selling general and administrative', 'selling, general & administrative', 'selling, general, and administrative', 'selling general & administrative'],
  },
  {
    id: 'salesAndMarketing',
    label: 'sales and marketing expense',
    unit: 'money',
    type: 'duration',
    concepts: [g('SellingAndMarketingExpense'), g('MarketingAndAdvertisingExpense')],
    phrases: ['s&m', 's & m', 's&m expense', 's&m expenses', 'sales and marketing', 'sales & marketing', 'selling and marketing', 'selling & marketing', 'sales and marketing expense', 'sales and marketing expenses', 'sales & marketing expense', 'selling and marketing expense', 'selling and marketing expenses', 'marketing expense', 'marketing expenses', 'marketing spend', 'marketing spending'],
  },
  {
    id: 'generalAdministrative',
    label: 'general and administrative expense',
    unit: 'money',
    type: 'duration',
    concepts: [g('GeneralAndAdministrativeExpense')],
    phrases: ['g&a', 'g & a', 'g&a expense', 'g&a expenses', 'general and administrative', 'general & administrative', 'general and administrative expense', 'general and administrative expenses', 'general & administrative expense', 'administrative expense', 'administrative expenses'],
  },
  {
    id: 'depreciationAmortization',
    label: 'depreciation and amortization',
    unit: 'money',
    type: 'duration',
    concepts: [g('DepreciationDepletionAndAmortization'), g('DepreciationAndAmortization'), g('DepreciationAmortizationAndAccretionNet')],
    phrases: ['depreciation and amortization', 'depreciation & amortization', 'depreciation, depletion and amortization', 'd&a', 'd & a', 'depreciation'],
  },
  {
    id: 'interestExpense',
    label: 'interest expense',
    unit: 'money',
    type: 'duration',
    // Not InterestPaid: that is the cash paid, from the cash flow statement's notes.
    concepts: [g('InterestExpense'), g('InterestExpenseNonoperating'), g('InterestExpenseDebt'), ifrs('InterestExpense')],
    phrases: ['interest expense', 'interest expenses', 'interest costs', 'interest cost'],
  },
  {
    id: 'operatingCashFlow',
    label: 'operating cash flow',
    unit: 'money',
    type: 'duration',
    concepts: [g('NetCashProvidedByUsedInOperatingActivities'), g('NetCashProvidedByUsedInOperatingActivitiesContinuingOperations'), ifrs('CashFlowsFromUsedInOperatingActivities')],
    phrases: [
      'operating cash flow',
      'operating cash flows',
      'cash flow from operations',
      'cash flows from operations',
      'cash flow from operating activities',
      'cash flows from operating activities',
      'cash from operations',
      'cash from operating activities',
      'cash generated by operating activities',
      'cash generated from operations',
      'cash provided by operating activities',
      'net cash from operating activities',
      'operating cash',
      'cfo',
      'ocf',
      'cash flow',
    ],
  },
  {
    id: 'capitalExpenditure',
    label: 'capital expenditure',
    unit: 'money',
    type: 'duration',
    concepts: [g('PaymentsToAcquirePropertyPlantAndEquipment'), g('PaymentsToAcquireProductiveAssets'), ifrs('PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities')],
    phrases: [
      'capex',
      'cap ex',
      'capital expenditure',
      'capital expenditures',
      'capital spending',
      'capital spend',
      'capital investment',
      'capital investments',
      'purchases of property and equipment',
      'purchases of property, plant and equipment',
      'payments for acquisition of property, plant and equipment',
      'payments for property, plant and equipment',
    ],
  },
  {
    id: 'freeCashFlow',
    label: 'free cash flow',
    unit: 'money',
    type: 'duration',
    concepts: [],
    formula: {
      terms: [
        { sign: 1, metric: 'operatingCashFlow', label: 'operating cash flow' },
        { sign: -1, metric: 'capitalExpenditure', label: 'capital expenditure' },
      ],
      describe: 'operating cash flow minus capital expenditure',
    },
    // (Cash burn is free cash flow below zero: asked of a company that burns none, its free cash flow says so.)
    phrases: ['free cash flow', 'free cash flows', 'fcf', 'cash burn', 'cash burn rate', 'burn rate', 'burning cash', 'burning through cash', 'burn through cash'],
  },
  {
    id: 'dividendsPerShare',
    label: 'dividends declared per share',
    plural: true,
    unit: 'perShare',
    type: 'duration',
    concepts: [g('CommonStockDividendsPerShareDeclared'), g('CommonStockDividendsPerShareCashPaid')],
    phrases: [
      'dividends per share',
      'dividend per share',
      'dividends declared per share',
      'dividends per common share',
      'dividend per common share',
      'cash dividends per share',
      'cash dividends declared per share',
      'dividends declared',
      'dps',
      'dividend',
      'dividends',
    ],
  },
  {
    id: 'dividendsPaid',
    label: 'dividends paid',
    plural: true,
    unit: 'money',
    type: 'duration',
    concepts: [g('PaymentsOfDividends'), g('PaymentsOfDividendsCommonStock')],
    phrases: ['dividends paid', 'dividend payments', 'payments of dividends', 'payments for dividends', 'cash dividends paid', 'total dividends', 'spend on dividends', 'spent on dividends', 'spending on dividends', 'paid in dividends', 'paid out in dividends', 'paid out as dividends', 'returned in dividends', 'dividend spending'],
  },
  {
    id: 'shareRepurchases',
    label: 'share repurchases',
    plural: true,
    unit: 'money',
    type: 'duration',
    concepts: [g('PaymentsForRepurchaseOfCommonStock'), g('PaymentsForRepurchaseOfEquity')],
    phrases: [
      'share repurchases',
      'share repurchase',
      'share buybacks',
      'share buyback',
      'stock buybacks',
      'stock buyback',
      'stock repurchases',
      'stock repurchase',
      'buybacks',
      'buyback',
      'buy backs',
      'buy back',
      'buying back',
      'bought back',
      'buys back',
      'repurchasing',
      'repurchased',
      'buying back shares',
      'buying back stock',
      'buying back its shares',
      'buying back its stock',
      'buying back their shares',
      'buying back their stock',
      'bought back shares',
      'bought back stock',
      'bought back its shares',
      'bought back its stock',
      'bought back their shares',
      'bought back their stock',
      'buys back shares',
      'buys back stock',
      'buys back its shares',
      'buys back its stock',
      'buys back their shares',
      'buys back their stock',
      'buy back shares',
      'buy back stock',
      'buy back its shares',
      'buy back its stock',
      'buy back their shares',
      'buy back their stock',
      'repurchasing shares',
      'repurchasing stock',
      'repurchasing its shares',
      'repurchasing its stock',
      'repurchasing their shares',
      'repurchasing their stock',
      'repurchased shares',
      'repurchased stock',
      'repurchased its shares',
      'repurchased its stock',
      'repurchased their shares',
      'repurchased their stock',
      'repurchase shares',
      'repurchase stock',
      'repurchase its shares',
      'repurchase its stock',
      'repurchase their shares',
      'repurchase their stock',
      'repurchases shares',
      'repurchases stock',
      'repurchases its shares',
      'repurchases its stock',
      'repurchases their shares',
      'repurchases their stock',
      'repurchases of common stock',
      'repurchase of common stock',
      'payments for repurchase of common stock',
      'repurchases',
    ],
  },
  {
    id: 'cash',
    label: 'cash and cash equivalents',
    unit: 'money',
    type: 'instant',
    concepts: [g('CashAndCashEquivalentsAtCarryingValue'), g('CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents'), g('Cash'), ifrs('CashAndCashEquivalents')],
    plural: true,
    phrases: ['cash and cash equivalents', 'cash & cash equivalents', 'cash and equivalents', 'cash & equivalents', 'cash on hand', 'cash balance', 'cash position', 'cash'],
  },
  {
    id: 'inventory',
    label: 'inventory',
    unit: 'money',
    type: 'instant',
    concepts: [g('InventoryNet'), ifrs('Inventories')],
    phrases: ['inventory', 'inventories', 'net inventories', 'inventories, net', 'inventory, net'],
  },
  {
    id: 'currentAssets',
    label: 'total current assets',
    unit: 'money',
    type: 'instant',
    concepts: [g('AssetsCurrent'), ifrs('CurrentAssets')],
    plural: true,
    phrases: ['total current assets', 'current assets'],
  },
  {
    id: 'totalAssets',
    label: 'total assets',
    unit: 'money',
    type: 'instant',
    concepts: [g('Assets'), ifrs('Assets')],
    plural: true,
    phrases: ['total assets', 'assets'],
  },
  {
    id: 'currentLiabilities',
    label: 'total current liabilities',
    unit: 'money',
    type: 'instant',
    concepts: [g('LiabilitiesCurrent'), ifrs('CurrentLiabilities')],
    plural: true,
    phrases: ['total current liabilities', 'current liabilities'],
  },
  {
    id: 'totalLiabilities',
    label: 'total liabilities',
    unit: 'money',
    type: 'instant',
    concepts: [g('Liabilities'), ifrs('Liabilities')],
    formula: {
      terms: [
        { sign: 1, concepts: [g('LiabilitiesAndStockholdersEquity')], label: "total liabilities and shareholders' equity" },
        { sign: -1, concepts: [g('StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'), g('StockholdersEquity')], label: "total shareholders' equity" },
      ],
      describe: "total liabilities and shareholders' equity minus total equity",
    },
    plural: true,
    phrases: ['total liabilities', 'liabilities'],
  },
  {
    id: 'stockholdersEquity',
    label: "shareholders' equity",
    unit: 'money',
    type: 'instant',
    concepts: [g('StockholdersEquity'), g('StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'), ifrs('EquityAttributableToOwnersOfParent')],
    phrases: ["shareholders' equity", 'shareholders equity', "stockholders' equity", 'stockholders equity', 'total equity', 'book value', 'equity'],
  },
  {
    id: 'longTermDebt',
    label: 'long-term debt',
    unit: 'money',
    type: 'instant',
    concepts: [g('LongTermDebtNoncurrent'), g('LongTermDebt'), g('LongTermDebtAndCapitalLeaseObligations'), g('LongTermNotesPayable')],
    phrases: ['long-term debt', 'long term debt', 'longterm debt', 'term debt', 'non-current debt', 'noncurrent debt', 'total debt', 'debt', 'borrowings'],
  },
  {
    id: 'sharesOutstanding',
    label: 'shares outstanding',
    unit: 'shares',
    type: 'instant',
    // Falls back to the cover page's dei:EntityCommonStockSharesOutstanding of the period's own filing.
    concepts: [g('CommonStockSharesOutstanding')],
    plural: true,
    phrases: ['shares outstanding', 'outstanding shares', 'common shares outstanding', 'shares of common stock outstanding', 'share count', 'number of shares', 'shares'],
  },
];

export const metricById = (id: MetricId): MetricDef => METRICS.find((m) => m.id === id)!;

/** Every metric phrase, longest first, so "earnings per share" wins over "earnings". */
export const METRIC_PHRASES: readonly { phrase: string; id: MetricId }[] = METRICS.flatMap((m) => m.phrases.map((phrase) => ({ phrase, id: m.id }))).sort(
  (a, b) => b.phrase.length - a.phrase.length,
);
