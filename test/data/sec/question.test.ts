import { describe, expect, it } from 'vitest';
import { CompanyIndex } from '../../../src/data/sec/companies.js';
import { parseConversation, parseSecQuestion, quarterRange, type SecQuestion } from '../../../src/data/sec/question.js';
import { DEMO_WORLD, tickersFile } from '../../fixtures/sec-world.js';

const index = CompanyIndex.fromTickers(
  tickersFile({
    ...DEMO_WORLD,
    otherTickers: [
      ...DEMO_WORLD.otherTickers,
      { cik: 21344, ticker: 'KO', title: 'COCA COLA CO' },
      { cik: 732717, ticker: 'T', title: 'AT&T INC.' },
      { cik: 70858, ticker: 'BAC', title: 'BANK OF AMERICA CORP /DE/' },
      { cik: 37996, ticker: 'F', title: 'FORD MOTOR CO' },
      { cik: 909832, ticker: 'COST', title: 'COSTCO WHOLESALE CORP /NEW' },
    ],
  }),
);

const companies = (q: SecQuestion) => q.companies.map((c) => (c.status === 'found' ? `${c.company.ticker}${c.fuzzy ? '~' : ''}` : `${c.status}:${c.text}`));
const parse = (text: string) => parseSecQuestion(text, index);

describe('companies', () => {
  it.each([
    ["What was Apple's revenue?", ['AAPL']],
    ['AAPL revenue', ['AAPL']],
    ['msft revenue', ['MSFT']],
    ['Ｍｉｃｒｏｓｏｆｔ revenue FY2024', ['MSFT']],
    ['$GOOG revenue', ['GOOGL']],
    ['Apple Inc. net income', ['AAPL']],
    ['Alphabet and Meta', ['GOOGL', 'META']],
    ['google capex', ['GOOGL']],
    ['Coca-Cola revenue', ['KO']],
    ['AT&T free cash flow', ['T']],
    ['Bank of America total assets', ['BAC']],
    ['Realty Income total assets', ['O']],
    ['Ford revenue', ['F']],
    ["Microsft's capex", ['MSFT~']],
    ['Johnson revenue', ['ambiguous:Johnson']],
    ['Foobarco revenue', ['unknown:Foobarco']],
    ['Compare Apple, Microsoft and Alphabet revenue', ['AAPL', 'MSFT', 'GOOGL']],
    ['Apple and Foobarco revenue', ['AAPL', 'unknown:Foobarco']],
    ["Apple's revenue, roughly, please", ['AAPL']],
    ['what did costs of revenue look like at apple', ['AAPL']],
    ['what is the weather like', ['unknown:weather']],
    // A ticker in the possessive is still the ticker.
    ["MSFT's eps last quarter", ['MSFT']],
    ["What's AAPL's top line for FY24?", ['AAPL']],
    ["aapl's revenue Q2 2025", ['AAPL']],
    ["googl's revenue 2024", ['GOOGL']],
    // A lowercase ticker listed with others is that company, not an unknown name.
    ['compare operating margin apple vs msft vs googl fy2024', ['AAPL', 'MSFT', 'GOOGL']],
    // Plain words beside a name read from a misspelling or a possessive are no companies of their own.
    ['why did googles margin dip in q4?', ['GOOGL~']],
    // Words asking for the source, or how to compute a figure, name no company.
    ['whats the source? link me the 10-K page', []],
    ['ok and net cash = cash minus debt for each quarter?', []],
    // Segments of a company are parts of its total, not companies.
    ['MSFT segment revenue - intelligent cloud vs productivity vs personal computing, FY24', ['MSFT']],
    ['Foobarco and zorblax revenue', ['unknown:Foobarco', 'unknown:zorblax']],
    // Numbers are no names.
    ["why did apple's gross margin go up from 46.2% to 47.1%?", ['AAPL']],
  ])('%s → %j', (text, expected) => {
    expect(companies(parse(text))).toEqual(expected);
  });

  it('lists every candidate of an ambiguous name, largest first', () => {
    const c = parse('Johnson revenue').companies[0]!;
    expect(c.status === 'ambiguous' && c.candidates.map((x) => x.ticker)).toEqual(['JNJ', 'JCI', 'JOUT']);
  });
});

describe('metrics, in the words people use', () => {
  it.each([
    ['Apple sales', ['revenue']],
    ['Apple top line', ['revenue']],
    ['Apple turnover', ['revenue']],
    ['Apple cost of sales', ['costOfRevenue']],
    ['Apple COGS', ['costOfRevenue']],
    ['Apple gross margin', ['grossProfit']],
    ['Apple operating profit', ['operatingIncome']],
    ['Apple income from operations', ['operatingIncome']],
    ['Apple earnings', ['netIncome']],
    ['Apple profit', ['netIncome']],
    ['how much did Apple earn', ['netIncome']],
    ['Apple bottom line', ['netIncome']],
    ['Apple EPS', ['dilutedEps']],
    ['Apple earnings per share', ['dilutedEps']],
    ['Apple R&D', ['researchAndDevelopment']],
    ['Apple research and development expense', ['researchAndDevelopment']],
    ['Apple SG&A', ['sellingGeneralAdministrative']],
    ['Apple operating cash flow', ['operatingCashFlow']],
    ['Apple cash from operations', ['operatingCashFlow']],
    ['Apple capex', ['capitalExpenditure']],
    ['Apple capital expenditures', ['capitalExpenditure']],
    ['Apple free cash flow', ['freeCashFlow']],
    ['Apple cash and cash equivalents', ['cash']],
    ['Apple cash on hand', ['cash']],
    ['Apple total assets', ['totalAssets']],
    ['Apple total liabilities', ['totalLiabilities']],
    ['Apple long-term debt', ['longTermDebt']],
    ['Apple debt', ['longTermDebt']],
    ['Apple shares outstanding', ['sharesOutstanding']],
    ["Apple stockholders’ equity", ['stockholdersEquity']],
    ['Apple revenue and net income', ['revenue', 'netIncome']],
    ['Apple balance sheet', ['cash', 'totalAssets', 'totalLiabilities', 'stockholdersEquity', 'longTermDebt']],
    ['Apple inventory at June 29, 2024', ['inventory']],
    ['Apple inventories', ['inventory']],
    ['did apple make money last year', ['netIncome']],
    ['Is Apple profitable?', ['netIncome']],
    ['Apple dividends per share 2024', ['dividendsPerShare']],
    ['Apple dividend', ['dividendsPerShare']],
    ['Apple dividends paid 2024', ['dividendsPaid']],
    // Money spent on them, said around other figures: what was paid, not the amount per share.
    ['how much did apple spend on buybacks and dividends in fy2024?', ['shareRepurchases', 'dividendsPaid']],
    ['how much has Microsoft paid out in dividends', ['dividendsPaid']],
    ['Apple paid dividends per share of what?', ['dividendsPerShare']],
    ['Apple buybacks 2024', ['shareRepurchases']],
    ['Apple share repurchases', ['shareRepurchases']],
    ['Apple pre-tax income', ['pretaxIncome']],
    ['Apple income before income taxes', ['pretaxIncome']],
    ['Apple provision for income taxes', ['incomeTax']],
    ['Apple diluted shares outstanding', ['dilutedShares']],
    ['Apple depreciation and amortization', ['depreciationAmortization']],
  ])('%s → %j', (text, expected) => {
    expect(parse(text).metrics).toEqual(expected);
  });
});

describe('figure names with a typo', () => {
  it.each([
    ['Aple revnue Q3 2024', ['AAPL~'], ['revenue']],
    ['msft reveune fy2024', ['MSFT'], ['revenue']],
    ['apple earnigns per share q1 2024', ['AAPL'], ['dilutedEps']],
    ['Apple opertaing income', ['AAPL'], ['operatingIncome']],
    ['Microsoft inventroy', ['MSFT'], ['inventory']],
    ['Alphabet captial expenditures', ['GOOGL'], ['capitalExpenditure']],
  ])('%s → %j %j', (text, expectedCompanies, expectedMetrics) => {
    const q = parse(text);
    expect(companies(q)).toEqual(expectedCompanies);
    expect(q.metrics).toEqual(expectedMetrics);
  });

  it('are not read into real words, company names or figures named correctly', () => {
    expect(parse('what has Apple learned').metrics).toEqual([]);
    expect(parse('Apple market share').metrics).toEqual([]);
    expect(parse('Apple revenue and ernings')).toMatchObject({ metrics: ['revenue'] });
    expect(companies(parse('Coca-Cola revenue'))).toEqual(['KO']);
  });
});

describe('"the full year", "annual": the latest fiscal year', () => {
  it.each([
    ['Apple annual revenue', { kind: 'latest', span: 'year' }],
    ['Apple full-year revenue', { kind: 'latest', span: 'year' }],
    ['Apple revenue for the whole year', { kind: 'latest', span: 'year' }],
    ['Apple full year 2024 revenue', { kind: 'fiscalYear', fy: 2024 }],
  ])('%s', (text, period) => {
    expect(parse(text).period).toEqual(period);
  });

  it('"annual growth" is still a change, not a period', () => {
    expect(parse('Apple revenue annual growth')).toMatchObject({ period: null, comparison: 'yoy' });
  });
});

describe('ratios are asked as the two figures they are computed from', () => {
  it.each([
    ['Apple return on equity', ['returnOnEquity'], ['netIncome', 'stockholdersEquity']],
    ["What's MSFT's ROE?", ['returnOnEquity'], ['netIncome', 'stockholdersEquity']],
    ['Apple return on assets', ['returnOnAssets'], ['netIncome', 'totalAssets']],
    ['Microsoft debt to equity ratio', ['debtToEquity'], ['longTermDebt', 'stockholdersEquity']],
    ['Microsoft D/E', ['debtToEquity'], ['longTermDebt', 'stockholdersEquity']],
    ['Alphabet liabilities-to-equity', ['liabilitiesToEquity'], ['totalLiabilities', 'stockholdersEquity']],
    ['Apple book value per share', ['bookValuePerShare'], ['stockholdersEquity', 'sharesOutstanding']],
    ['Microsoft equity per share', ['bookValuePerShare'], ['stockholdersEquity', 'sharesOutstanding']],
    ['Apple net debt', ['netDebt'], ['longTermDebt', 'cash']],
    ['Apple effective tax rate 2024', ['effectiveTaxRate'], ['incomeTax', 'pretaxIncome']],
    ['Apple dividend payout ratio', ['payoutRatio'], ['dividendsPaid', 'netIncome']],
    ['Apple ROE and net debt', ['returnOnEquity', 'netDebt'], ['netIncome', 'stockholdersEquity', 'longTermDebt', 'cash']],
  ])('%s → %j %j', (text, ratios, metrics) => {
    const q = parse(text);
    expect(companies(q)).toEqual([text.includes('MSFT') || text.includes('Microsoft') ? 'MSFT' : text.includes('Alphabet') ? 'GOOGL' : 'AAPL']);
    expect(q).toMatchObject({ ratios, metrics, unknownFigures: [] });
  });

  it('a return with no period named is over the latest fiscal year; a balance ratio is at the latest date', () => {
    expect(parse('Apple ROE').period).toEqual({ kind: 'latest', span: 'year' });
    expect(parse('Apple ROE Q1 2025').period).toMatchObject({ kind: 'fiscalQuarter', fy: 2025, q: 1 });
    expect(parse('Apple debt to equity').period).toBeNull();
  });

  it('are kept by a follow-up about another company or period, and dropped by one naming a figure', () => {
    const turns = (...t: string[]) => parseConversation(t.map((content) => ({ role: 'user', content })), index)!;
    expect(turns('Apple ROE', 'and Microsoft?')).toMatchObject({ ratios: ['returnOnEquity'], metrics: ['netIncome', 'stockholdersEquity'] });
    expect(turns('Apple ROE', 'and for fiscal 2023?')).toMatchObject({ ratios: ['returnOnEquity'], period: { kind: 'fiscalYear', fy: 2023 } });
    expect(turns('Apple ROE', 'and revenue?')).toMatchObject({ ratios: [], metrics: ['revenue'] });
  });

  it('"up from a year ago" compares with a year before; "and a year ago?" moves to it', () => {
    const turns = (...t: string[]) => parseConversation(t.map((content) => ({ role: 'user', content })), index)!;
    expect(turns('Apple revenue Q3 2024', 'is that up from a year ago?')).toMatchObject({ comparison: 'yoy', period: { kind: 'fiscalQuarter', fy: 2024 } });
    expect(turns('Alphabet Q4 2024', 'is that higher than last year?')).toMatchObject({ comparison: 'yoy' });
    expect(turns('Apple revenue Q3 2024', 'and a year ago?')).toMatchObject({ comparison: null, period: { kind: 'fiscalQuarter', fy: 2023 } });
  });

  it('a margin without its name ("its margin?", "Apple margin") is each of them; a named one is that one', () => {
    const turns = (...t: string[]) => parseConversation(t.map((content) => ({ role: 'user', content })), index)!;
    expect(turns('Apple revenue last quarter', 'what about its margin?')).toMatchObject({ metrics: ['grossProfit', 'operatingIncome', 'netIncome'], margin: true });
    expect(turns('Apple margin last quarter')).toMatchObject({ metrics: ['grossProfit', 'operatingIncome', 'netIncome'], margin: true });
    expect(turns('Apple revenue last quarter', 'and its gross margin?')).toMatchObject({ metrics: ['grossProfit'], margin: true });
    expect(turns('Apple net income', 'and the margin?')).toMatchObject({ metrics: ['netIncome'], margin: true });
  });
});

describe('figures it does not know are named, never read as a company nor replaced by key figures', () => {
  it.each([
    ['Apple EBITDA Q3 2024', ['EBITDA']],
    ['apple adjusted ebitda', ['adjusted ebitda']],
    ['Apple EBIT', ['EBIT']],
    ['Apple ROIC 2024', ['ROIC']],
    ['Apple return on invested capital', ['return on invested capital']],
    ['Apple cash ratio', ['cash ratio']],
    ['Apple stock price', ['stock price']],
    ['Apple goodwill 2024', ['goodwill']],
    ['Apple revenue and EBITDA', ['EBITDA']],
    // Not silently the cash figure alone.
    ['Apple cash plus marketable securities', ['cash plus marketable securities']],
    ['Apple short-term investments', ['short-term investments']],
    // A remark around the question names no figure.
    ['thats tiny for apple, what about cash plus marketable securities', ['cash plus marketable securities']],
  ])('%s → %j', (text, expected) => {
    const q = parse(text);
    expect(companies(q)).toEqual(['AAPL']);
    expect(q.unknownFigures).toEqual(expected);
  });

  it.each([
    ['Apple services revenue FY2024', ['services revenue']],
    ['Apple iPhone revenue Q1 2025', ['iPhone revenue']],
    ['Microsoft Azure revenue fiscal 2024', ['Azure revenue']],
    ['Alphabet Google Cloud revenue Q3 2024', ['Google Cloud revenue']],
    ['Apple Greater China revenue FY2024', ['Greater China revenue']],
    ['Apple revenue in China FY2024', ['revenue in China']],
    ['Microsoft revenue by segment 2024', ['revenue by segment']],
    ['Apple non-GAAP EPS Q1 2025', ['non-GAAP EPS']],
    ['Apple adjusted net income FY2024', ['adjusted net income']],
    ['Alphabet revenue excluding TAC 2024', ['revenue excluding TAC']],
    ['Alphabet ad revenue 2024', ['ad revenue']],
    ['Apple devices revenue FY2024', ['devices revenue']],
    ['Microsoft data center revenue FY2024', ['data center revenue']],
    // Apple's own word for revenue, "net sales", and breakdowns asked as such.
    ['Apple Americas net sales Q1 2025', ['Americas net sales']],
    ['Apple iPhone net sales Q1 2025', ['iPhone net sales']],
    ['Apple Services net sales fiscal 2024', ['Services net sales']],
    ['Alphabet revenue of Google Search 2024', ['revenue of Google Search']],
    ['Apple net sales by geography FY2024', ['net sales by geography']],
    ['Microsoft revenue breakdown FY2024', ['revenue breakdown']],
    ['Apple revenue mix FY2024', ['revenue mix']],
  ])('a part of the total or a non-GAAP measure is not the total: %s → %j', (text, expected) => {
    const q = parse(text);
    expect(q.unknownFigures).toEqual(expected);
    expect(q.metrics).toEqual([]);
  });

  it.each([
    ['GOOGL interest income FY2024', ['interest income']],
    ['Microsoft other income FY2024', ['other income']],
    ['Alphabet comprehensive income 2024', ['comprehensive income']],
    ['Microsoft core earnings FY2024', ['core earnings']],
    ['Microsoft short-term debt Q3 2025', ['short-term debt']],
    ['Apple senior debt', ['senior debt']],
    ['Apple non-current liabilities last quarter', ['non-current liabilities']],
    ['Apple operating lease liabilities', ['operating lease liabilities']],
    ['Apple intangible assets last quarter', ['intangible assets']],
    ['Microsoft cash flow from financing FY2024', ['cash flow from financing']],
    ['Apple cash from investing FY2024', ['cash from investing']],
    ['Microsoft unearned revenue Q3 2025', ['unearned revenue']],
    ['Alphabet recurring revenue 2024', ['recurring revenue']],
    ['Apple gross profit per share FY2024', ['gross profit per share']],
  ])('another line of the statements, sharing a figure\'s last word, is not that figure: %s → %j', (text, expected) => {
    // Each was answered as the figure its last word names (net income, long-term debt, total assets, …).
    const q = parse(text);
    expect(q.unknownFigures).toEqual(expected);
    expect(q.metrics).toEqual([]);
  });
  it('current assets and current liabilities are figures, and "current" in them is not the latest period', () => {
    const q = parse('Apple current assets and current liabilities last quarter');
    expect(q.metrics).toEqual(['currentAssets', 'currentLiabilities']);
    expect(q.unknownFigures).toEqual([]);
    expect(q.period).toEqual({ kind: 'latest', span: 'quarter' });
    expect(parse('Apple total current assets FY2023').period).toMatchObject({ kind: 'fiscalYear', fy: 2023 });
  });


  it('the start of a longer name is that company, not the one its first word names', () => {
    // "Apple Hospitality" was Apple Inc. with "Hospitality" left over as an unknown company.
    expect(companies(parse('Apple Hospitality revenue 2024'))).toEqual(['APLE']);
    expect(parse('Apple Hospitality revenue 2024').metrics).toEqual(['revenue']);
    for (const text of ['Apple revenue 2024', 'Apple Q3 2024 net income', 'Apple net income']) expect(companies(parse(text)), text).toEqual(['AAPL']);
  });

  it.each([
    ['GOOGL op income FY2024', ['operatingIncome']],
    ['Apple op margin Q3 2024', ['operatingIncome']],
    ['Apple operating inc last quarter', ['operatingIncome']],
    ['aapl rev last quarter', ['revenue']],
    ["What was Apple's rev in FY24?", ['revenue']],
    ['msft NI fy2024', ['netIncome']],
    ['AAPL OCF FY24', ['operatingCashFlow']],
  ])('the abbreviations analysts write: %s → %j', (text, expected) => {
    const q = parse(text);
    expect(q.metrics).toEqual(expected);
    expect(q.unknownFigures).toEqual([]);
    expect(q.companies.every((c) => c.status === 'found')).toBe(true);
  });

  it('each company with figures of its own keeps them; figures said once are for every company', () => {
    const cik = (text: string) => parse(text).companies.map((c) => (c.status === 'found' ? c.company.cik : 0));
    const own = parse('Apple revenue in Q3 2024 and Microsoft net income in Q3 2025');
    const [apple, microsoft] = cik('Apple revenue in Q3 2024 and Microsoft net income in Q3 2025');
    expect(own.metricsByCompany).toEqual([
      { cik: apple, metrics: ['revenue'] },
      { cik: microsoft, metrics: ['netIncome'] },
    ]);
    // Said before each company, as well.
    expect(parse('revenue of Apple and net income of Microsoft').metricsByCompany).toEqual([
      { cik: apple, metrics: ['revenue'] },
      { cik: microsoft, metrics: ['netIncome'] },
    ]);
    for (const text of ['Compare Apple and Microsoft revenue and net income Q2 2024', 'Apple revenue and net income vs Microsoft revenue and net income', 'Apple revenue and Microsoft revenue', 'revenue and net income of Apple and Microsoft', 'revenue for Apple and Microsoft net income']) {
      expect(parse(text).metricsByCompany, text).toBeNull();
    }
  });

  it('basic EPS however it is worded, and both when both are asked', () => {
    for (const text of ['Apple basic EPS Q2 2025', 'Apple EPS basic Q2 2025', 'Apple earnings per share, basic, for Q3 2024']) expect(parse(text).metrics, text).toEqual(['basicEps']);
    expect(parse('Microsoft basic and diluted EPS fiscal 2024').metrics).toEqual(['basicEps', 'dilutedEps']);
    expect(parse('Microsoft EPS, diluted and basic, fiscal 2024').metrics).toEqual(['basicEps', 'dilutedEps']);
    // Plain revenue questions are untouched.
    for (const text of ['Apple revenue in Q3 2024', 'Apple revenue by quarter in 2024', 'Microsoft research and development expense 2024']) expect(parse(text).unknownFigures, text).toEqual([]);
  });

  it('a question about the company in general names no figure, known or not', () => {
    for (const text of ['Apple financials', 'how is Apple doing', 'Apple results', "How's Apple doing lately?", 'How did Apple perform in Q3 2024', 'What did Apple file last quarter']) {
      expect(parse(text), text).toMatchObject({ metrics: [], unknownFigures: [] });
    }
  });

  it('"ebit margin" is operating margin, not an unknown EBIT', () => {
    expect(parse('Apple EBIT margin')).toMatchObject({ metrics: ['operatingIncome'], unknownFigures: [] });
  });

  it('an unknown figure asked as a follow-up is not answered with the previous figure', () => {
    const q = parseConversation(['Apple revenue Q3 2024', 'and EBITDA?'].map((content) => ({ role: 'user', content })), index)!;
    expect(companies(q)).toEqual(['AAPL']);
    expect(q).toMatchObject({ metrics: [], unknownFigures: ['EBITDA'], period: { kind: 'fiscalQuarter', fy: 2024, q: 3 } });
  });
});

describe('periods', () => {
  it.each([
    ['Apple revenue Q3 2024', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Apple revenue fiscal Q3 2024', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Apple revenue Q3 FY24', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ["Apple revenue Q3'24", { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Apple revenue FY2024 Q3', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Apple revenue 3Q24', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Microsoft revenue 2Q FY25', { kind: 'fiscalQuarter', fy: 2025, q: 2 }],
    ['Microsoft revenue 2Q fiscal 2025', { kind: 'fiscalQuarter', fy: 2025, q: 2 }],
    ['Apple revenue FQ3 2024', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Apple revenue 2Q', { kind: 'fiscalQuarter', fy: null, q: 2 }],
    ['Apple revenue third quarter of fiscal 2024', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Apple revenue calendar Q3 2024', { kind: 'fiscalQuarter', fy: 2024, q: 3, calendar: true }],
    ['Microsoft revenue for calendar 2024', { kind: 'calendarYear', year: 2024 }],
    ['Microsoft revenue for calendar year 2024', { kind: 'calendarYear', year: 2024 }],
    ['Microsoft revenue CY2024', { kind: 'calendarYear', year: 2024 }],
    ['Microsoft revenue in the 2024 calendar year', { kind: 'calendarYear', year: 2024 }],
    ['Apple revenue Q3', { kind: 'fiscalQuarter', fy: null, q: 3 }],
    ['Apple revenue for the quarter ended June 29, 2024', { kind: 'ended', date: '2024-06-29', span: 'quarter', toleranceDays: 7 }],
    ['Apple revenue three months ended 2024-06-29', { kind: 'ended', date: '2024-06-29', span: 'quarter', toleranceDays: 7 }],
    ['Apple revenue for the fiscal year ended September 28, 2024', { kind: 'ended', date: '2024-09-28', span: 'year', toleranceDays: 7 }],
    ['Apple revenue in the June 2024 quarter', { kind: 'ended', date: '2024-06-30', span: 'quarter', toleranceDays: 10 }],
    ['Apple total assets as of 6/29/2024', { kind: 'ended', date: '2024-06-29', span: 'quarter', toleranceDays: 7 }],
    ['Apple revenue FY2023', { kind: 'fiscalYear', fy: 2023 }],
    ['Apple revenue fiscal year 2023', { kind: 'fiscalYear', fy: 2023 }],
    ['Apple revenue in 2023', { kind: 'fiscalYear', fy: 2023 }],
    ['Apple revenue last quarter', { kind: 'latest', span: 'quarter' }],
    ['Apple latest revenue', { kind: 'latest', span: 'quarter' }],
    ['Apple revenue last year', { kind: 'latest', span: 'year' }],
    ['Apple revenue', null],
  ])('%s', (text, expected) => {
    expect(parse(text).period).toEqual(expected);
  });

  it.each([
    ['Apple revenue Q3 2024 yoy', 'yoy'],
    ['Apple revenue Q3 2024 year over year', 'yoy'],
    ['Apple revenue growth Q3 2024', 'yoy'],
    ['Apple revenue Q3 2024 vs the prior year', 'yoy'],
    ['Apple revenue Q3 2024 qoq', 'qoq'],
    ['Apple revenue Q3 2024 sequentially', 'qoq'],
    ['Apple revenue Q3 2024 compared to the previous quarter', 'qoq'],
    ['Apple revenue Q3 2024', null],
  ])('%s → %s', (text, expected) => {
    expect(parse(text).comparison).toBe(expected);
  });

  it('a quarter that does not exist is said so, and its year is not read as the fiscal year asked for', () => {
    const q = parse('Apple revenue Q5 2024');
    expect(q.period).toBeNull();
    expect(q.unknownFigures).toEqual(['Q5 2024']);
  });

  it('a follow-up that adds a figure keeps the ones before beside it; one that names another figure replaces them', () => {
    const after = (q: string) => parseConversation([{ role: 'user', content: 'Apple revenue for the last 4 quarters' }, { role: 'assistant', content: '…' }, { role: 'user', content: q }], index)!;
    expect(after('add net income').metrics).toEqual(['revenue', 'netIncome']);
    expect(after('and net income too?').metrics).toEqual(['revenue', 'netIncome']);
    expect(after('and net income?').metrics).toEqual(['netIncome']);
    expect(after('and net income vs last year?').metrics).toEqual(['netIncome']);
    expect(after('how much net income did it add?').metrics).toEqual(['netIncome']);
  });

  it('year over year and quarter over quarter named together are both asked for, and carried by a follow-up', () => {
    for (const text of ['Apple revenue Q3 2024 yoy and qoq', 'Apple revenue Q3 2024, q/q and y/y growth', 'Apple net income sequential and year-over-year change in Q1 2025']) {
      expect(parse(text)).toMatchObject({ comparison: 'yoy', alsoQoq: true });
    }
    expect(parse('Apple revenue Q3 2024 qoq').alsoQoq).toBe(false);
    expect(parse('Apple revenue Q3 2024 yoy').alsoQoq).toBe(false);
    const followUp = parseConversation([{ role: 'user', content: 'Apple revenue Q3 2024 yoy and qoq' }, { role: 'assistant', content: '…' }, { role: 'user', content: 'and net income?' }], index);
    expect(followUp).toMatchObject({ metrics: ['netIncome'], comparison: 'yoy', alsoQoq: true });
  });

  it('two periods a year or a quarter apart are the later one compared with the earlier', () => {
    expect(parse('Apple revenue Q3 2024 vs Q3 2023')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'yoy' });
    expect(parse('Apple revenue Q3 2023 compared with Q3 2024')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'yoy' });
    expect(parse('msft net income Q1 2024 and Q4 2023')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 1 }, comparison: 'qoq' });
    expect(parse('Apple revenue FY2023 vs FY2024')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    expect(parse("how did apple's revenue change from Q2 to Q3 2024")).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'qoq' });
    expect(parse("Compare Apple's Q3 2024 revenue with the same quarter last year")).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'yoy' });
    expect(parse("Did Microsoft's net income go up in Q3 2024?")).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'yoy' });
    // Further apart: compared with the earlier one named, never with a quarter or year before in its place.
    expect(parse('Apple revenue Q3 2024 vs Q1 2022')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'versus', versus: { kind: 'fiscalQuarter', fy: 2022, q: 1 } });
  });

  it('a 10-K or 10-Q named alone means the latest year or quarter', () => {
    expect(parse('Apple latest 10-K')).toMatchObject({ form: '10-K', period: { kind: 'latest', span: 'year' } });
    expect(parse('Apple 10-Q')).toMatchObject({ form: '10-Q', period: { kind: 'latest', span: 'quarter' } });
  });
});

describe('several quarters together: halves, nine months, year to date', () => {
  const half = (fy: number | null, extra: object = {}) => ({ kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy, q: 2, ...extra } });
  it.each([
    ['Apple revenue for the six months ended March 30, 2024', { kind: 'span', quarters: 2, base: { kind: 'ended', date: '2024-03-30', span: 'quarter', toleranceDays: 7 } }],
    ['Apple revenue nine months ended 2024-06-29', { kind: 'span', quarters: 3, base: { kind: 'ended', date: '2024-06-29', span: 'quarter', toleranceDays: 7 } }],
    ['Apple revenue for the 26 weeks ended March 30, 2024', { kind: 'span', quarters: 2, base: { kind: 'ended', date: '2024-03-30', span: 'quarter', toleranceDays: 7 } }],
    ['Apple revenue for the nine months ending June 2024', { kind: 'span', quarters: 3, base: { kind: 'ended', date: '2024-06-30', span: 'quarter', toleranceDays: 10 } }],
    ['Apple revenue first half of fiscal 2024', half(2024)],
    ['Apple revenue in the first half of 2024', half(2024)],
    ['Apple revenue H1 2024', half(2024)],
    ['Apple revenue 1H24', half(2024)],
    ["Apple revenue H1'24", half(2024)],
    ['Apple revenue H1 FY24', half(2024)],
    ['Apple revenue FY24 H1', half(2024)],
    ['Apple revenue 2024 H1', half(2024)],
    ['Apple revenue first half of calendar 2024', half(2024, { calendar: true })],
    ['Apple revenue first half', half(null)],
    ['Apple first-half revenue in 2023', half(2023)],
    ['Microsoft revenue second half of fiscal 2024', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 4 } }],
    ['Microsoft revenue 2H FY2024', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 4 } }],
    ['Apple net income for the first nine months of 2024', { kind: 'span', quarters: 3, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple net income 9M24', { kind: 'span', quarters: 3, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple revenue YTD', { kind: 'span', quarters: null, base: null }],
    ['Apple revenue year-to-date', { kind: 'span', quarters: null, base: null }],
    ['Apple revenue so far this year', { kind: 'span', quarters: null, base: null }],
    ['Apple revenue fiscal year to date 2024', { kind: 'span', quarters: null, base: { kind: 'fiscalYear', fy: 2024 } }],
    ['Apple revenue YTD through Q3 2024', { kind: 'span', quarters: null, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple H1 2024 revenue YTD', half(2024)],
  ])('%s', (text, expected) => {
    expect(parse(text).period).toEqual(expected);
  });

  it('are never read as a company, and look-alikes are not read as them', () => {
    expect(companies(parse('Apple revenue H1 2024'))).toEqual(['AAPL']);
    expect(companies(parse('Apple revenue YTD'))).toEqual(['AAPL']);
    // "H1 24": a two-digit year is read only glued on or after FY.
    expect(parse('Apple revenue H1 24').period).toEqual(half(null));
    expect(parse('Apple revenue H1B visas').period).toBeNull();
    expect(parse('Apple revenue Q2 2024').period).toEqual({ kind: 'fiscalQuarter', fy: 2024, q: 2 });
  });

  it('the same part of two years is compared; follow-ups move it or take it to date', () => {
    expect(parse('Apple revenue H1 2024 vs H1 2023')).toMatchObject({ period: half(2024), comparison: 'yoy' });
    const conv = (...turns: string[]) => parseConversation(turns.map((content) => ({ role: 'user', content })), index)!;
    expect(conv('Apple revenue first half of 2024', 'and a year earlier?').period).toEqual(half(2023));
    expect(conv('Apple revenue Q3 2024', 'and year to date?').period).toEqual({ kind: 'span', quarters: null, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } });
    expect(conv('Apple revenue H1 2024', 'and net income?').period).toEqual(half(2024));
  });

  it.each([
    ['Apple revenue Q1-Q3 2024', { kind: 'span', quarters: 3, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple revenue Q1 through Q3 2024', { kind: 'span', quarters: 3, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple revenue Q1 to Q3 of fiscal 2024', { kind: 'span', quarters: 3, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple revenue from Q1 to Q3 2024', { kind: 'span', quarters: 3, base: { kind: 'fiscalQuarter', fy: 2024, q: 3 } }],
    ['Apple revenue Q4 2023 through Q1 2024', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 1 } }],
    ['Apple revenue Q4 to Q1 2024', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 1 } }],
    ['Apple revenue Q4 FY23 – Q1 FY24', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 1 } }],
    ['Apple revenue Q2 2024 - Q1 2025', { kind: 'span', quarters: 4, base: { kind: 'fiscalQuarter', fy: 2025, q: 1 } }],
    ['Apple revenue Q2-Q3', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: null, q: 3 } }],
    ['Microsoft revenue calendar Q1-Q2 2024', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 2, calendar: true } }],
    ['Apple revenue Q1 through Q4 2024', { kind: 'fiscalYear', fy: 2024 }],
    ['Microsoft revenue calendar Q1-Q4 2024', { kind: 'calendarYear', year: 2024 }],
    ['Apple revenue last six months', { kind: 'span', quarters: 2, base: null }],
    ['Apple revenue for the past 9 months', { kind: 'span', quarters: 3, base: null }],
    ['Apple revenue over the trailing six months', { kind: 'span', quarters: 2, base: null }],
    ['Apple revenue last three months', { kind: 'latest', span: 'quarter' }],
  ])('quarters from one to another, and the latest months: %s', (text, expected) => {
    expect(parse(text).period).toEqual(expected);
    expect(companies(parse(text))).toEqual([text.startsWith('Microsoft') ? 'MSFT' : 'AAPL']);
  });

  it('two quarters in a row "from … to" are a change between them; ranges of more than a year are left to the tables', () => {
    expect(parse('Apple revenue from Q2 to Q3 2024')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'qoq' });
    expect(quarterRange('Apple revenue Q3 2022 through Q2 2024')).toEqual({ last: { fy: 2024, q: 2 }, quarters: 8, calendar: false, from: false });
    expect(quarterRange('Apple revenue Q3 2024 vs Q3 2023')).toBeNull();
    expect(quarterRange('Apple revenue Q3 2024 to Q3 2024')).toBeNull();
  });

  it('halves in a row are compared with each other, the later one answered', () => {
    expect(parse('Microsoft revenue H2 2024 vs H1 2024')).toMatchObject({ period: { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 4 } }, comparison: 'qoq' });
    expect(parse('Microsoft revenue H1 2025 vs H2 2024')).toMatchObject({ period: half(2025), comparison: 'qoq' });
  });

  it('"what was the change?" right after moving to another period compares the two just discussed', () => {
    const conv = (...turns: string[]) => parseConversation(turns.map((content) => ({ role: 'user', content })), index)!;
    expect(conv('Alphabet net income 2024', 'and the prior fiscal year?', 'what was the change?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    expect(conv('Apple revenue Q3 2024', 'and the quarter before?', 'what was the growth?')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'qoq' });
    // Asked as such, a change is the one asked for.
    expect(conv('Alphabet net income 2024', 'and the prior fiscal year?', 'what was the change year over year?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2023 }, comparison: 'yoy' });
    // Without a move just before, the usual change.
    expect(conv('Alphabet net income 2024', 'what was the change?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    // Growth verbs are not company names ("grow" was looked up as a company, and carried on).
    for (const verb of ['how much did it grow?', 'did it shrink?', 'how much did it drop?', 'did it improve?']) {
      const q = conv('Apple revenue Q2 2025', verb);
      expect(q.companies.map((c) => (c.status === 'found' ? c.company.ticker : c.text)), verb).toEqual(['AAPL']);
      expect(q, verb).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2025, q: 2 }, comparison: 'yoy' });
    }
    expect(conv('Apple revenue Q2 2025', 'how much did it grow?', 'and a year earlier?')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 2 } });
    expect(parse('Apple revenue last 12 months vs prior 12 months')).toMatchObject({ ttm: true, comparison: 'yoy' });
    // Another period named for the same figures ("and at the end of FY23?") is a move too: "change?" is between the two.
    expect(conv('working capital for apple at the end of FY24', 'and at the end of FY23?', 'change?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    expect(conv('Microsoft capex fiscal 2024', 'how does that compare with two years earlier?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2022 } });
    expect(conv('Microsoft capex fiscal 2024', 'what share of its operating cash flow went to capex?')).toMatchObject({ metrics: ['capitalExpenditure', 'operatingCashFlow'], shareOf: true });
    // So is a quarter moved from a calendar quarter ("the same quarter last year").
    expect(conv('MSFT revenue calendar Q4 2024', 'and the same quarter last year', 'growth?')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 4, calendar: true }, comparison: 'yoy' });
  });

  it('two companies each said with a period of its own: each its period, not a change over time of both', () => {
    const apple = index.byTicker('AAPL')!.cik;
    const msft = index.byTicker('MSFT')!.cik;
    const q = (fy: number, n: number) => ({ kind: 'fiscalQuarter', fy, q: n });
    expect(parse("What was Apple's revenue in Q3 2024 and Microsoft's revenue in Q2 2025?")).toMatchObject({ periodsByCompany: [{ cik: apple, period: q(2024, 3) }, { cik: msft, period: q(2025, 2) }], comparison: null, versus: null });
    expect(parse('Apple revenue FY2024 vs Microsoft revenue FY2023')).toMatchObject({ periodsByCompany: [{ cik: apple, period: { kind: 'fiscalYear', fy: 2024 } }, { cik: msft, period: { kind: 'fiscalYear', fy: 2023 } }] });
    expect(parse('Q1 2025 net income for Apple vs Q2 2025 for Microsoft')).toMatchObject({ periodsByCompany: [{ cik: apple, period: q(2025, 1) }, { cik: msft, period: q(2025, 2) }] });
    // Both companies before both periods: the periods are compared for each.
    expect(parse('Apple and Microsoft revenue Q3 2024 vs Q3 2023')).toMatchObject({ periodsByCompany: null, comparison: 'yoy' });
    const conv = (...turns: string[]) => parseConversation(turns.map((content) => ({ role: 'user', content })), index)!;
    expect(conv('Apple revenue FY2024 vs Microsoft revenue FY2023', 'and net income?').periodsByCompany).toHaveLength(2);
    expect(conv('Apple revenue FY2024 vs Microsoft revenue FY2023', 'and in FY2022?').periodsByCompany).toBeNull();
  });

  it('a month of a year, or the end of one, is the quarter ending then', () => {
    const ended = (date: string, span = 'quarter') => ({ kind: 'ended', date, span, toleranceDays: 10 });
    expect(parse('Apple cash at the end of December 2024')).toMatchObject({ period: ended('2024-12-31'), companies: [{ status: 'found', text: 'Apple' }] });
    // The month is not read as a company.
    expect(parse('Microsoft stockholders equity June 2024').companies).toHaveLength(1);
    expect(parse('Microsoft stockholders equity June 2024')).toMatchObject({ period: ended('2024-06-30') });
    expect(parse('Apple total assets at end of 2024')).toMatchObject({ period: ended('2024-12-31') });
    expect(parse('Apple total assets at the end of calendar 2024')).toMatchObject({ period: ended('2024-12-31') });
    expect(parse('Apple revenue for the fiscal year ended September 2024')).toMatchObject({ period: ended('2024-09-30', 'year') });
    // Full dates stay full dates; "may" the verb is no month; "end of fiscal 2024" is the fiscal year.
    expect(parse('Apple cash 29 June 2024')).toMatchObject({ period: { kind: 'ended', date: '2024-06-29' } });
    expect(parse('what may 2024 revenue be for Apple')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 } });
    expect(parse('Apple cash at the end of fiscal 2024')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 } });
  });

  it('two quarters without a year: one right after the other a change between them, others of one year', () => {
    expect(parse('Apple revenue Q2 vs Q1')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: null, q: 2 }, comparison: 'qoq', versus: null });
    expect(parse('Apple revenue Q1 vs Q2')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: null, q: 2 }, comparison: 'qoq' });
    // Q4 then Q1 crosses into the next fiscal year.
    expect(parse('Apple revenue Q1 compared with Q4')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: null, q: 1 }, comparison: 'qoq' });
    expect(parse('Apple revenue Q3 vs Q1')).toMatchObject({
      period: { kind: 'fiscalQuarter', fy: null, q: 3 },
      comparison: 'versus',
      versus: { kind: 'shift', base: { kind: 'fiscalQuarter', fy: null, q: 3 }, quarters: -2, years: 0 },
    });
    expect(parse('Apple revenue September quarter vs June quarter')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: null, q: 3, calendar: true }, comparison: 'qoq' });
    // A fiscal quarter and a calendar one are not put in a row.
    expect(parse('Apple revenue Q3 vs the June quarter')).toMatchObject({ comparison: null });
  });

  it('"how much more … than" another company compares the companies, not periods; "how much … add" asks for growth', () => {
    expect(parse('How much more revenue did Microsoft have than Apple in fiscal 2024?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: null });
    expect(parse('How much more revenue did Apple make than last year?')).toMatchObject({ comparison: 'yoy' });
    expect(parse('How much more revenue did Apple make in 2024 than in 2023?')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    expect(parse('How much more did Apple earn in fiscal 2024?')).toMatchObject({ comparison: 'yoy' });
    expect(parse('How much revenue did Apple add in fiscal 2024?')).toMatchObject({ metrics: ['revenue'], period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    expect(parse('Revenue Apple added in fiscal 2024')).toMatchObject({ comparison: 'yoy' });
  });

  it('two periods of a kind further apart: the later one, compared with the earlier one named', () => {
    expect(parse('Apple revenue FY2024 vs FY2022')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2022 } });
    expect(parse('Apple revenue Q1 2024 compared with Q3 2024')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'versus', versus: { kind: 'fiscalQuarter', fy: 2024, q: 1 } });
    expect(parse('Microsoft revenue H1 2025 vs H1 2023')).toMatchObject({ period: half(2025), comparison: 'versus', versus: half(2023) });
    expect(parse('Apple cash as of 2024-06-29 vs 2023-07-01')).toMatchObject({ period: { kind: 'ended', date: '2024-06-29' }, comparison: 'versus', versus: { kind: 'ended', date: '2023-07-01' } });
    // Periods of different kinds are not compared, except a calendar year with a fiscal year.
    expect(parse('Apple revenue FY2024 vs Q1 2022')).toMatchObject({ comparison: null, versus: null });
    expect(parse('Apple revenue fiscal 2024 vs calendar 2024')).toMatchObject({ period: { kind: 'calendarYear', year: 2024 }, comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2024 } });
    expect(parse('Apple revenue calendar 2024 compared with fiscal 2023')).toMatchObject({ period: { kind: 'calendarYear', year: 2024 }, comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2023 } });
    const conv = (...turns: string[]) => parseConversation(turns.map((content) => ({ role: 'user', content })), index)!;
    // The comparison stays with the period ("and net income?"), not with another one.
    expect(conv('Apple revenue FY2024 vs FY2022', 'and net income?')).toMatchObject({ comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2022 } });
    expect(conv('Apple revenue FY2024 vs FY2022', 'and Q3 2024?')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: null, versus: null });
  });

  it.each([
    ['Apple third-quarter 2024 revenue', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ["Alphabet's fourth-quarter 2023 net income", { kind: 'fiscalQuarter', fy: 2023, q: 4 }],
    ["Microsoft revenue in fiscal year '24", { kind: 'fiscalYear', fy: 2024 }],
    ["Microsoft revenue fiscal '23", { kind: 'fiscalYear', fy: 2023 }],
    ['Microsoft revenue calendar H1 2024', { kind: 'span', quarters: 2, base: { kind: 'fiscalQuarter', fy: 2024, q: 2, calendar: true } }],
    ['Apple revenue in the June quarter', { kind: 'fiscalQuarter', fy: null, q: 2, calendar: true }],
    ['Apple revenue in the holiday quarter of 2024', { kind: 'ended', date: '2024-12-31', span: 'quarter', toleranceDays: 10 }],
    ['Alphabet revenue in the quarter after Q2 2024', { kind: 'fiscalQuarter', fy: 2024, q: 3 }],
    ['Microsoft revenue one year before Q2 FY2025', { kind: 'fiscalQuarter', fy: 2024, q: 2 }],
    ['Apple net income for the year before fiscal 2024', { kind: 'fiscalYear', fy: 2023 }],
    ["What was Apple's revenue in the same quarter last year?", { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: 0, years: -1 }],
    ['Apple revenue in the year-ago quarter', { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: 0, years: -1 }],
    ['Microsoft net income in the comparable quarter last year', { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: 0, years: -1 }],
    ['Apple net income in the quarter before last', { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: -1, years: 0 }],
    ['Apple revenue 2 quarters ago', { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: -1, years: 0 }],
    ['Apple revenue in the prior quarter', { kind: 'latest', span: 'quarter' }],
    ['Microsoft net income prior fiscal year', { kind: 'latest', span: 'year' }],
    ['Apple revenue next quarter', { kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: 1, years: 0 }],
  ])('the period a question means: %s', (text, expected) => {
    expect(parse(text).period).toEqual(expected);
  });

  it('a period moved from one named beside it is compared with it', () => {
    expect(parse('Apple revenue last quarter and the quarter before')).toMatchObject({ period: { kind: 'latest', span: 'quarter' }, comparison: 'qoq' });
    expect(parse('Apple revenue Q1 FY2024 and the following quarter')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 2 }, comparison: 'qoq' });
    expect(parse("Microsoft's revenue for the three months ended September 30, 2024 and the prior-year period")).toMatchObject({ period: { kind: 'ended', date: '2024-09-30' }, comparison: 'yoy' });
    expect(parse('Apple revenue fiscal 2024 vs two years earlier')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2022 } });
  });

  it('"with margin" asks for a share of revenue, not for a company called Margin', () => {
    const q = parse('Apple free cash flow Q2 2024 with margin');
    expect(companies(q)).toEqual(['AAPL']);
    expect(q.margin).toBe(true);
  });
});

describe('follow-ups carry the conversation', () => {
  const conv = (...turns: string[]) => parseConversation(turns.map((content) => ({ role: 'user', content })), index)!;
  const FIRST = "What was Apple's revenue in Q3 2024?";

  it('"and the quarter before?" keeps company and metric and moves the period back a quarter', () => {
    const q = conv(FIRST, 'and the quarter before?');
    expect(companies(q)).toEqual(['AAPL']);
    expect(q.metrics).toEqual(['revenue']);
    expect(q.period).toEqual({ kind: 'fiscalQuarter', fy: 2024, q: 2 });
  });

  it('"how about Microsoft?" switches company and remembers the one switched from', () => {
    const q = conv(FIRST, 'and the quarter before?', 'how about Microsoft?');
    expect(companies(q)).toEqual(['MSFT']);
    expect(q).toMatchObject({ metrics: ['revenue'], period: { kind: 'fiscalQuarter', fy: 2024, q: 2 } });
    expect(q.switchedFrom?.map((c) => c.status === 'found' && c.company.ticker)).toEqual(['AAPL']);
  });

  it('quarters wrap into the previous fiscal year; years and "a year earlier" move by years', () => {
    expect(conv('Apple revenue Q1 2024', 'the quarter before?').period).toEqual({ kind: 'fiscalQuarter', fy: 2023, q: 4 });
    expect(conv('Apple revenue Q1 2024', 'and a year earlier?').period).toEqual({ kind: 'fiscalQuarter', fy: 2023, q: 1 });
    expect(conv('Apple revenue FY2024', 'the year before').period).toEqual({ kind: 'fiscalYear', fy: 2023 });
    expect(conv('Microsoft revenue calendar 2024', 'and a year earlier?').period).toEqual({ kind: 'calendarYear', year: 2023 });
    expect(conv('Apple revenue last quarter', 'the quarter before').period).toEqual({ kind: 'shift', base: { kind: 'latest', span: 'quarter' }, quarters: -1, years: 0 });
  });

  it('a company and figure put against the answer before ("how does that stack up against msft fcf") join it, over its period ("same calendar year": the calendar year)', () => {
    const stacked = conv('googl operatng cash flow 2024', 'capex?', 'so fcf?', 'how does that stack up against msft fcf same calendar year');
    expect(companies(stacked)).toEqual(['GOOGL', 'MSFT']);
    expect(stacked).toMatchObject({ metrics: ['freeCashFlow'], period: { kind: 'calendarYear', year: 2024 } });
    const eps = conv('msft diluted eps fy2024', 'how much did it grow?', "how does that compare w/ apple's fy24 eps");
    expect(companies(eps)).toEqual(['MSFT', 'AAPL']);
    expect(eps).toMatchObject({ metrics: ['dilutedEps'], period: { kind: 'fiscalYear', fy: 2024 } });
    // "Compare to X" first puts X beside what was just shown.
    expect(companies(conv('alphabet 2024 operating margin by quarter', "compare to microsoft's last 4 quarters operating margin"))).toEqual(['GOOGL', 'MSFT']);
    // A new question naming both, with nothing pointing back, starts afresh.
    expect(companies(conv('msft diluted eps fy2024', 'apple revenue vs microsoft revenue 2023'))).toEqual(['AAPL', 'MSFT']);
    expect(companies(conv('msft diluted eps fy2024', 'apple net income 2023'))).toEqual(['AAPL']);
  });

  it('"which one expanded more?" after the latest quarter and a year earlier is the change between them', () => {
    const q = conv("What was Microsoft's operating margin in their most recent quarter, and how does it compare to Apple's most recent quarter?", 'and a year earlier for both?', 'which one expanded more?');
    expect(q).toMatchObject({ period: { kind: 'latest', span: 'quarter' }, comparison: 'yoy', margin: true });
    expect(companies(q)).toEqual(['MSFT', 'AAPL']);
  });

  it('a move back is kept by a follow-up that moves nowhere: "why did it change?" is between the two periods discussed', () => {
    const q = conv("What was Apple's revenue in Q3 2024?", 'and the year before?', 'gross margin that quarter?', 'why did it change');
    expect(q).toMatchObject({ metrics: ['grossProfit'], margin: true, period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: 'yoy' });
  });

  it('a margin asked for is marked, kept by follow-ups about other periods, dropped by a new figure', () => {
    expect(conv('Apple gross margin Q3 2024')).toMatchObject({ metrics: ['grossProfit'], margin: true });
    expect(conv('Microsoft operating margin')).toMatchObject({ metrics: ['operatingIncome'], margin: true });
    expect(conv('alphabet net profit margin fy2023')).toMatchObject({ metrics: ['netIncome'], margin: true });
    expect(conv(FIRST).margin).toBe(false);
    expect(conv('Apple gross margin Q3 2024', 'and the quarter before?')).toMatchObject({ metrics: ['grossProfit'], margin: true });
    expect(conv('Apple gross margin Q3 2024', 'and revenue?')).toMatchObject({ metrics: ['revenue'], margin: false });
    // A share of revenue: the figure, with revenue as its denominator only.
    expect(conv("What was Apple's R&D spending as a share of revenue in FY2024?")).toMatchObject({ metrics: ['researchAndDevelopment'], margin: true });
    expect(conv('msft capex as a percentage of sales 2024')).toMatchObject({ metrics: ['capitalExpenditure'], margin: true });
    expect(conv('Apple revenue and R&D FY2024').margin).toBe(false);
    // Revenue said with its span ("TTM revenue"), "pct", "relative to revenue", a "capex-to-sales ratio".
    expect(conv('Apple TTM capex as a % of TTM revenue')).toMatchObject({ metrics: ['capitalExpenditure'], margin: true, ttm: true });
    expect(conv('ttm capex for apple and microsoft, and each as % of ttm revenue')).toMatchObject({ metrics: ['capitalExpenditure'], margin: true });
    expect(conv('apple capex as a pct of annual revenue')).toMatchObject({ metrics: ['capitalExpenditure'], margin: true });
    expect(conv('apple capex relative to revenue').margin).toBe(true);
    expect(conv('apple capex-to-sales ratio').margin).toBe(true);
    // A growth rate "as %" is no share of revenue.
    expect(conv('apple revenue growth as % yoy').margin).toBe(false);
  });

  it('trailing twelve months are marked, and "TTM" is never read as a company', () => {
    expect(conv('apple revenue ttm')).toMatchObject({ metrics: ['revenue'], ttm: true, period: null });
    expect(companies(conv('apple revenue ttm'))).toEqual(['AAPL']);
    expect(conv('Microsoft net income over the last twelve months').ttm).toBe(true);
    expect(conv('Apple revenue ttm', 'and net income?').ttm).toBe(true);
    expect(conv(FIRST).ttm).toBe(false);
  });

  it('a quarter named without its year takes the year the conversation is about', () => {
    expect(conv(FIRST, 'and Q2?').period).toEqual({ kind: 'fiscalQuarter', fy: 2024, q: 2 });
    expect(conv('Apple revenue FY2023', 'what about the third quarter?').period).toEqual({ kind: 'fiscalQuarter', fy: 2023, q: 3 });
    expect(conv(FIRST, 'and Microsoft in Q1?')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 1 } });
    // Without a year to take, or as a new question, a bare quarter is still the latest such quarter.
    expect(conv('Apple revenue last quarter', 'and Q2?').period).toEqual({ kind: 'fiscalQuarter', fy: null, q: 2 });
    expect(conv(FIRST, 'Microsoft net income Q2').period).toEqual({ kind: 'fiscalQuarter', fy: null, q: 2 });
  });

  it('a new figure keeps company and period; "compare with" adds a company; a full new question starts afresh', () => {
    expect(conv(FIRST, 'and net income?')).toMatchObject({ metrics: ['netIncome'], period: { kind: 'fiscalQuarter', fy: 2024, q: 3 } });
    expect(companies(conv(FIRST, 'compare with Microsoft'))).toEqual(['AAPL', 'MSFT']);
    expect(conv(FIRST, 'What is Microsoft net income?')).toMatchObject({ metrics: ['netIncome'], period: null });
  });

  it('answering an ambiguity resolves it; turns that say nothing new keep the question', () => {
    expect(companies(conv('Johnson revenue', 'I meant Johnson & Johnson'))).toEqual(['JNJ']);
    expect(conv(FIRST, 'thanks!')).toMatchObject({ metrics: ['revenue'], period: { kind: 'fiscalQuarter', fy: 2024, q: 3 } });
  });

  it('reads user turns only', () => {
    const q = parseConversation(
      [
        { role: 'user', content: FIRST },
        { role: 'assistant', content: 'Microsoft revenue was … for fiscal year 2020' },
        { role: 'user', content: 'and the quarter before?' },
      ],
      index,
    )!;
    expect(companies(q)).toEqual(['AAPL']);
    expect(q.period).toEqual({ kind: 'fiscalQuarter', fy: 2024, q: 2 });
  });
});

describe('follow-ups as traders write them (third probe)', () => {
  const turns = (...t: string[]) => parseConversation(t.map((content) => ({ role: 'user', content })), index)!;

  it('a period named to compare with is put against the period discussed, not against the one before it', () => {
    expect(turns('alphabet net income q4 2024', 'how did that compare to q3, qoq')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 4 }, comparison: 'qoq' });
    expect(turns('alphabet net income q4 2024', 'and yoy vs q4 23')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 4 }, comparison: 'yoy' });
    expect(turns('operating margin apple vs msft vs googl fy2024', 'which one expanded the most vs fy2023')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'yoy' });
    expect(turns('msft revenue fy2024', 'compare to fy2021')).toMatchObject({ period: { kind: 'fiscalYear', fy: 2024 }, comparison: 'versus', versus: { kind: 'fiscalYear', fy: 2021 } });
    // Moving to a period without comparing still moves.
    expect(turns('alphabet net income q4 2024', 'and q3?')).toMatchObject({ period: { kind: 'fiscalQuarter', fy: 2024, q: 3 }, comparison: null });
  });

  it('lowercase tickers listed after a company, with commas or spaces, are companies', () => {
    expect(companies(parse('operating margin fy2024 for apple, msft and googl'))).toEqual(['AAPL', 'MSFT', 'GOOGL']);
    expect(companies(parse('r&d spend apple msft googl fy2024'))).toEqual(['AAPL', 'MSFT', 'GOOGL']);
    expect(companies(parse('should i buy msft'))).toEqual(['MSFT']);
    expect(companies(parse('ok back to stocks - msft net income last quarter'))).toEqual(['MSFT']);
  });

  it('plain words of a follow-up are neither companies nor figures: the companies discussed carry', () => {
    for (const [first, next] of [
      ['r&d spend apple msft googl fy2024', 'who spends the most in absolute dollars'],
      ['apple and msft debt to equity', 'whos more levered'],
      ['apple shares outstanding fy2024', 'how much did the count drop over fy24'],
      ['apple revenue and msft revenue fy2023', 'by how many points'],
      ['msft fcf', 'fine, whats their fcf trend last 8 quarters'],
    ] as const) {
      const q = turns(first, next);
      expect(q.companies.every((c) => c.status === 'found'), next).toBe(true);
      expect(q.unknownFigures, next).toEqual([]);
    }
    expect(turns('alphabet cash end of 2024', 'and msft at the same date')).toMatchObject({ metrics: ['cash'], unknownFigures: [] });
  });

  it('"so far" of a fiscal year is its year to date', () => {
    expect(parse('msft fy25 revenue so far').period).toEqual({ kind: 'span', base: { kind: 'fiscalYear', fy: 2025 }, quarters: null });
  });

  it('"oct-dec 2024" is a calendar quarter and "qtr" a quarter', () => {
    expect(parse('msft revenue oct-dec 2024').period).toEqual({ kind: 'fiscalQuarter', fy: 2024, q: 4, calendar: true });
    expect(parse('msft revenue jan to mar 2025').period).toEqual({ kind: 'fiscalQuarter', fy: 2025, q: 1, calendar: true });
    expect(parse('apple revenue last qtr').period).toEqual(parse('apple revenue last quarter').period);
  });

  it('a stock price, a price target, guidance, news and days sales outstanding are unknown figures, named as asked', () => {
    expect(parse('whats aapl trading at rn')).toMatchObject({ unknownFigures: ['trading at'] });
    expect(companies(parse('whats aapl trading at rn'))).toEqual(['AAPL']);
    expect(parse('analyst price target for apple?').unknownFigures).toEqual(['analyst price target']);
    expect(parse('what did apple guide for next qtr').unknownFigures).toEqual(['guide']);
    expect(parse('any news on the DOJ case vs google').unknownFigures).toEqual(['news', 'DOJ case']);
    // Days of inventory are the inventory turnover ratio, said in days: no unknown figure.
    expect(parse('apple days inventory outstanding')).toMatchObject({ unknownFigures: [], ratios: ['inventoryTurnover'] });
    expect(parse('apple days sales outstanding').unknownFigures).toEqual(['days sales outstanding']);
  });
});
