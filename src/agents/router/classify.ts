import type { Turn } from '../types.js';
import { editDistance } from '../../text.js';
import { parseEventUrl, tickerAddress } from '../../data/kalshi/url.js';
import { OUT_OF_SCOPE } from '../../text.js';
import { asksCoverage } from '../../data/sec/question.js';
import { RATIO_LIST_ASKED } from '../../data/sec/ratios.js';
import { biggestMoveAsked } from '../sec/biggest-move.js';
import { eventQuestion } from './event-questions.js';
import { heldPosition } from './trading-answers.js';
import { POSITION_ASKED } from './hedge.js';
import { asksAboutGame, teamMentions } from '../markets-search/teams.js';
import { LIST_ASKED, WILL_IT, levelsAsked } from '../markets-search/asked.js';
import { EventSearch } from '../markets-search/search.js';

/** Where the router sends a question. */
export type RouteKind = 'kalshi_url' | 'odds' | 'filings' | 'financials' | 'help';

export interface Route {
  kind: RouteKind;
  /** The Kalshi address found in the question (kalshi_url). */
  url?: string;
  /** Why, in a few words (logged, and shown in tests). */
  reason: string;
  /** For a follow-up: the earlier question it continues ("what are the odds of a Fed cut?" before "and of a hold?"). */
  context?: string;
  /** A question about the event of an earlier Kalshi address ("which outcome does the model favour?", "odds of a hold?"). */
  aboutEvent?: boolean;
  /** Of several events a search listed, asked of them together ("which of these has the biggest mispricing?"): their tickers, in order. */
  events?: string[];
  /** Open events ranked ("biggest movers today?": by their 24-hour price moves; "what's hot?", "busiest markets": by volume). */
  movers?: 'move' | 'volume';
}

/** Events ranked by how they trade: by their price moves, or by how much they trade. */
export const MOVERS_ASKED = /\b(?:biggest|top|largest|major)\s+(?:movers?|moves|swings|price changes)\b|\bmovers\b|\b(?:markets?|events?|contracts?)\b[^?.!]{0,20}\b(?:moved|moving|swung) (?:the )?most\b|\b(?:moves|swings)\b(?=[^?.!]{0,40}\b(?:today|24|day|kalshi|markets|events|now|this week)\b)|\bwh(?:at|ich)(?:'s| is| are)?\s+(?:moving|trending|hot)\b|\b(?:hot|trending|busiest|most active|most traded)\s+(?:markets?|events?|contracts?|bets?|on kalshi|right now|today|this week)\b/i;
export const BUSIEST_ASKED = /\b(?:hot|trending|busiest|most active|most traded)\b/i;

/** Asked of the events listed together, not of one: "which of these", "among those", "any of them". */
const OF_THE_LIST = /\b(?:these|those|them|each|any of|all of|which (?:one|event|market)s?|among|across)\b/i;

// (A backtick, asterisk or other quoting mark around a pasted address is no part of it: "`<https://…>`".)
export const KALSHI_URL = /(?:https?:\/\/)?(?:www\.)?kalshi\.com\/markets\/[^\s<>()"'|`*“”‘’\[\]]+/i;

/** The event tickers of the kalshi.com event addresses in a user's text, in order (an address that is no event's is skipped). */
export function eventsAddressed(text: string): string[] {
  return [...routedText(text).matchAll(new RegExp(KALSHI_URL.source, 'gi'))].flatMap((m) => {
    try {
      return [parseEventUrl(m[0].replace(/[.,;:!?)]+$/, '')).eventTicker];
    } catch {
      return [];
    }
  });
}
const trimUrl = (url: string) => url.replace(/[.,;:!?)]+$/, '');

const FINANCE_WORDS = [
  'revenue',
  'sales',
  'turnover',
  'earnings',
  'earn',
  'earned',
  'profitable',
  'income',
  'profit',
  'profitability',
  'margin',
  'eps',
  'cashflow',
  'capex',
  'expenditure',
  'expense',
  'expenses',
  'opex',
  'spending',
  'cogs',
  'ebit',
  'ebitda',
  'assets',
  'liabilities',
  'debt',
  'borrowings',
  'equity',
  'shareholders',
  'stockholders',
  'inventory',
  'inventories',
  'goodwill',
  'depreciation',
  'amortization',
  'pretax',
  'dividend',
  'dividends',
  'buyback',
  'buybacks',
  'repurchase',
  'repurchases',
  'shares',
  'filing',
  'filings',
  'filed',
  '10q',
  '8k',
  '20f',
  'edgar',
  'fiscal',
  'quarter',
  'quarterly',
  'annual',
  'balance',
  'fundamentals',
  'financials',
  'guidance',
  'r&d',
  'rnd',
  'sg&a',
  'fcf',
  'd&a',
  'research',
  // Words of the filings agent's answers asked about ("what does yoy mean?").
  'yoy',
  'qoq',
  'cagr',
  'xbrl',
  // Ratios computed from filed figures (see data/sec/ratios.ts).
  'roe',
  'roa',
  'roae',
  'roaa',
  'bvps',
  'gearing',
  'coverage',
];

/** Finance words that only name a period ("the quarter before", "annual"), no figure. */
const PERIOD_WORDS = new Set(['quarter', 'quarterly', 'annual', 'fiscal']);

const FINANCE_PHRASES = [/\b(?:current|quick|working[- ]capital) ratio\b/, /\bworking capital\b/, /\binterest (?:expense|coverage)\b/, /\btop ?line\b/, /\bbottom ?line\b/, /\bcash (flow|and equivalents|position|on hand)\b/, /\bhow much (cash|money|debt)\b/, /\bcash (does|did|do)\b/, /\bper share\b/, /\bresearch and development\b/, /\bcost of (revenue|sales|goods)\b/, /\boperating (income|profit|cash)\b/, /\bgross (profit|margin)\b/, /\bnet (income|loss|profit)\b/, /\b(q[1-4]|fy) ?'?\d{2,4}\b/, /\b\d{4} ?q[1-4]\b/, /\bsec\b/, /\b(annual|quarterly) report\b/, /\bshares outstanding\b/, /\bbook value\b/, /\b(make|makes|made|making|lose|loses|lost|losing) money\b(?! on (?:this|it|that|these|those|the (?:bet|trade|contract|market)s?)\b)/, /(?<![$\d])\b10-?k\b(?!\s*(?:bankroll|budget|stake|to (?:play|bet|spend|risk)|dollars|bucks|usd)\b)(?<!\b(?:with|w|a|bet|put|risk|stake|of|have|got) 10-?k)/, /\b(?<!bitcoin )cash\b(?! rate)/, /\bfree cash\b/, /\br (and|&) d\b/, /\bhow(?: (?:is|are|was|were|has|have)|'s|'re) (?!(?:the )?(?:stock )?markets?\b|the economy\b|stocks\b|things\b|you\b|it\b)[a-z0-9&.' -]{1,40} (doing|performing|performed|done)\b/, /\b(?:payout ratio|dividend payout|payout of (?:its )?(?:earnings|income|profits?))\b/, /\bacid[- ]test\b/, /\bhow much (?:did|does|do|will|has|have) [a-z0-9.&' -]{1,30}? (?:make|earn|bring in|brought in|made|earned)\b/];

/**
 * Advice asked of a company ("should I buy Apple stock?", "is AAPL a buy?", "is Microsoft a good
 * investment?"): the filings agent says it gives none and shows the company's key figures. A thing
 * bought with an article ("should I buy a house?") is no company, nor is a side of a contract
 * ("should I buy NO on Hold?").
 */
const ADVICE = /\b(?:good|right|bad|best) time to (?:buy|sell|invest in|get into) (?!(?:a|an|the|some|more|any|it|this|that|them|yes|no|contracts?)\b)[a-z0-9]|\bshould (?:i|we) (?:buy|sell|short|invest in|own|hold|dump|load up on) (?:more )?(?!(?:a|an|the|some|more|any|it|this|that|them|now|today|yes|no|contracts?)\b)[a-z0-9]|\bis [a-z0-9.&'-]+(?: stock| shares)? (?:a (?:good |bad |great )?(?:buy|sell|investment|stock to (?:buy|own))|worth (?:buying|investing in|owning)|(?:over|under)valued)\b|\b(?:best|good|top|safest) (?:stocks?|shares?|compan(?:y|ies)) to (?:buy|own|invest in)\b|\bwhat (?:stocks?|shares?) should (?:i|we) (?:buy|own)\b|\b(?:which|who) is (?:riskier|safer|less risky|more risky|a better (?:buy|investment|stock))\b/;

/** Market data, not in filings: the filings agent says so and lists what it can give instead. */
const MARKET_DATA = /\bwhat(?:'s| is) [a-z0-9.&' -]{1,30}? worth\b|\b(?:stock|share) price\b|\bp\/e\b|\bpe ratio\b|\bprice[- ](?:to[- ])?earnings\b|\bmarket (?:cap|capitali[sz]ation|value)\b|\bvaluation\b|\bdividend yield\b|\b52[- ]week (?:high|low)\b/;

const ODDS_WORDS = ['odds', 'chance', 'chances', 'probability', 'probable', 'likely', 'likelihood', 'unlikely', 'bet', 'bets', 'betting', 'wager', 'kalshi', 'polymarket', 'predict', 'prediction', 'forecast', 'implied', 'favourite', 'favorite', 'underdog', 'mispricing', 'mispriced', 'underpriced', 'overpriced'];

const ODDS_PHRASES = [/\bwhat (are|is) the (odds|chances?)\b/, /\bhow likely\b/, /\bwill (the )?(fed|fomc|bitcoin|btc|ethereum|eth|cpi|inflation|government|congress|president|senate|house|spacex|openai|it rain|it snow)\b/, /\bprediction markets?\b/, /\bmarket (think|thinks|expect|expects|pricing|priced)\b/, /\bwho (will )?wins?\b/, /\b(rate|rates) (cut|hike)s?\b/, /\bgo(es|ing)? (up|down|above|below|over|under)\b/, /\b(above|below|over|under) \$?\d/, /\b(is|are|will) (the |a |an )?[a-z0-9 ]{1,40}going to\b/, /\bwill there be\b/, /\bshut ?down\b/, /\bwill it be (?:warm|warmer|hot|hotter|cold|colder|freezing)\b/, /\bhow (?:warm|hot|cold) will\b/];

/** A market asked for by name ("is there a market on Apple earnings?") or by when it settles ("what markets close this week?"): the exchange is searched, even of a company's figures. */
const MARKET_ASKED = /\b(?:is there|are there|any) (?:a |an )?(?:prediction )?(?:markets?|bets?|contracts?) (?:on|for|about)\b|\b(?:anything|something)\b[^?.!]{0,20}\b(?:markets?|kalshi)\b[^?.!]{0,10}\b(?:on|for|about)\b|\b(?:markets?|events?|contracts?|bets?)\b[^?.!]{0,30}\b(?:clos\w*|settl\w*|expir\w*|resolv\w*|end(?:s|ing)?)\b[^?.!]{0,20}\b(?:today|tonight|tomorrow|this week|next week|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b|\b(?:what(?:'s| is| are)?|whats) (?:clos\w*|settl\w*|expir\w*|resolv\w*|ending)\b[^?.!]{0,20}\b(?:today|tonight|tomorrow|this week|next week)\b/;

/** Topics the exchange lists, which make a bare question an odds question ("Fed decision in December"). */
const EVENT_TOPICS = ['nyc', 'fed', 'fomc', 'ai', 'openai', 'gpt', 'bitcoin', 'btc', 'ethereum', 'eth', 'cpi', 'inflation', 'payrolls', 'unemployment', 'election', 'shutdown', 'approval', 'temperature', 'weather', 'hurricane', 'launch', 'launches', 'spacex', 'superbowl', 'nba', 'nfl', 'mlb', 'oscars', 'box', 'recession', 'gdp', 'politics', 'political', 'sports', 'temp', 'movie', 'movies', 'film', 'films'];

const MULTI_PERIOD = [/\b(last|past|previous) (\d+|two|three|four|five|six|seven|eight|nine|ten|twelve) ?(quarters|years|fiscal years|q|qs|qtrs?|yrs?)\b/, /\bquarter (by|over) quarter\b/, /\beach (quarter|year)\b/, /\bevery (quarter|year)\b/, /\bover the (last|past) (few|several|\d+)/, /\b(trend|history|table|time series)\b/, /\bsince (19|20)\d\d\b/, /\b(19|20)\d\d ?(-|–|to|through|thru) ?(fy ?|fiscal )?(19|20)\d\d\b/, /\bbetween (fy ?|fiscal )?(19|20)\d\d and (fy ?|fiscal )?(19|20)\d\d\b/, /\bquarterly\b(?! (reports?|filings?)\b)/, /\bby quarter\b/, /\bgrowth rates?\b/];

const FOLLOW_UP = /^(and|also|plus|then|(the )?(avg|average|mean) (yoy |annual |quarterly )?\w* ?growth|ok(ay)?,? and|what about|how about|same for|and for|now for|compare (it|that|with|to|them|against)|(ok |okay |so )?(tl;?dr|summari[sz]e|summary|recap|in (one|a) sentence|bottom line)|(ok |okay )?(the )?latest( one)?( then)?(?=\s*\??$)|(and |what about |how about )?the other (two|three|ones|companies)|vs\.?|versus|the (quarter|year) (before|after)|previous (quarter|year)|prior (quarter|year)|last year'?s?|a year (ago|earlier)|and (the|in)|what was it|(by )?how much did (it|that|they|this|those) \w+|what(?: (?:was|is|were|are)|'s|s) the (change|growth|difference|increase|decrease|decline|rise|drop|average|avg|trend|cagr)|why did (it|that|they|this|those|the margin|margins?) (change|move|rise|fall|drop|grow|shrink|improve|worsen|increase|decrease|decline|expand|contract|go up|go down)|which (quarter|year|period) (was|is|had|were) (the )?(best|worst|strongest|weakest|highest|lowest|biggest|smallest)|(was|is|were|are) (it|that|they) (up|down)|(so |and )?did (it|that|they|the margin|margins) (expand|contract|grow|shrink|improve|worsen|rise|fall|increase|decrease|decline|widen|narrow|go up|go down)|up or down|how did (it|that|they) (change|compare|do)|how does (it|that) compare|(is|was|are|were) (it|that|this|they|those) (more|less|higher|lower|bigger|smaller|greater|larger) than|how (fast|quickly|much) (is|are|was|were|has|have) (it|that|this|they|those) (growing|grown|grow|rising|risen|falling|fallen|shrinking|changing|changed)|(the |its |their )?(best|worst|strongest|weakest|highest|lowest|biggest) (quarter|year|period)s?|how did (each|each one|each of them|both|both of them|all three|all of them|the three|the two|they all) (change|compare|do|grow|move|fare)|what (was|is|were|about) (q[1-4]|the (first|second|third|fourth|last|latest) quarter)|(so )?how many (bps|basis points|percentage points|points)|which (is|was|one|company|of (them|the (two|three)))\b[^?]*\b(most|least|more|less|higher|lower|biggest|largest|smallest|best|worst|levered|leveraged|profitable|riskier|safer)|(q[1-4]|fy ?\d{2,4}|(19|20)\d\d) (alone|only|by itself|on its own)|(what(?:'s| is|s) (the|your) |the |your )?(sources?|citations?)|(so |and |ok,? )?((of|among) (the|these|those) (two|three|four|five|2|3|4|5|companies)|(of|among) (them|all three|all of them)),? (who|which)|(so )?who (grew|grows|is growing|has grown|had|has|is|was) (the )?(fastest|slowest|most|least|highest|lowest|best|worst|biggest)|where (does|did|do) (that|this|it|these|those)( \w+)? come from|where did you get (that|this|these|those|it|them)|(can you |could you |pls |please )?(link|cite) (me|to|the|your|it|that|those)|(can you |could you |pls |please |now )?(chart|graph|plot|visuali[sz]e|draw)( it| that| this| them| those| the \w+)?)\b/;

/** Words that open a message without asking anything ("ok", "so", "hey"): "ok msft rev last q" asks what follows them. */
const FILLER_LEAD = /^(?:(?:ok(?:ay)?|so|alright|right|hmm+|well|cool|great|nice|thanks|thank you|thx|ty|hi|hey|hello|yo)\b[,.!:;-]*\s*)+/i;

/** A greeting, thanks or a bare request for help: not "ok msft rev last q", whose words after the "ok" ask something. */
export function isGreeting(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (!GREETING.test(t)) return false;
  const rest = t.replace(FILLER_LEAD, '');
  return rest === t || GREETING.test(rest) || tokens(rest).length < 2;
}

export const GREETING = /^(hi|hello|hey|yo|thanks|thank you|thx|ty|cheers|great|cool|nice|ok(ay)?|bye|good(bye| morning| evening)?|help|\?+|what can you do|what else can you do|who are you|how does this work)\b/;

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\b(\d+)-([a-z])\b/g, '$1$2')
    .replace(/[’']s\b/g, '')
    .replace(/[^a-z0-9&]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/** Real words one letter away from a listed one: never read as its typo ("change" is not "chance"). */
const NOT_TYPOS = new Set(['filled', 'fills', 'filling', 'change', 'changes', 'changed', 'charge', 'charges', 'liked', 'likes', 'failed', 'fails']);

/** Whether a word is in the list, allowing one typo in words of five letters or more (two from nine). */
function hasWord(words: string[], list: readonly string[]): string | null {
  for (const w of words) {
    for (const k of list) {
      if (w === k) return k;
      if (NOT_TYPOS.has(w)) continue;
      const max = k.length >= 9 ? 2 : k.length >= 5 ? 1 : 0;
      if (max && w.length >= 5 && editDistance(w, k, max) <= max) return k;
    }
  }
  return null;
}

/**
 * What of a long message routing reads: its start and its end (where a question after pasted text
 * is), 2,000 characters each. Routing reads every word against its lists and tries splits at each
 * "and": on a whole 1 MB message that held the event loop for minutes.
 */
const ROUTED_EDGE = 2_000;
export function routedText(text: string): string {
  // ("Wat does the modle say": svc's model misspelt, not a word of an event about AI models.)
  const read = text.replace(/\bmod(?:le|dle|ell)(s?)\b/gi, 'model$1').replace(/\bspr(?:e|ea)?d\b/gi, 'spread').replace(/\b(?:shud|shuld|shoud|shoudl|shld|sould)\b/gi, 'should').replace(/\bhappend\b/gi, 'happened')
    // ("How confidnet are u", "what wuld change ur mind": chat misspellings of the words the rules read.)
    .replace(/\bconf(?:id|di|ind)[a-z]*\b/gi, (w) => (/(?:ence|ance|nce)$/i.test(w) ? 'confidence' : 'confident'))
    .replace(/\b(?:wuld|wud|woud|wld)\b/gi, 'would')
    // (A lone lower-case "u" only: "U-3 unemployment", "Class U", "U.S." are no pronoun.)
    .replace(/(?<![\w.'’-])u(?![\w.'’-])/g, 'you');
  return read.length <= 2 * ROUTED_EDGE ? read : `${read.slice(0, ROUTED_EDGE)}\n…\n${read.slice(-ROUTED_EDGE)}`;
}

/** The address of an event ticker sent alone, as Kalshi writes it ("KXFEDDECISION-26DEC", "kxfeddecision-26dec"); null for any other message. */
export function bareTickerAddress(text: string): string | null {
  return /^\s*\S+\s*$/.test(text) && /^\W*kx|^\W*[A-Z0-9]+-[A-Z0-9.-]+\W*$/.test(text.trim()) ? tickerAddress(text) : null;
}

/**
 * A Kalshi series page (`kalshi.com/markets/<series>`, `…/<series>/<slug>`), which names no event:
 * its last segment is followed by the end, a space or closing punctuation, never by `/<event>`.
 */
const SERIES_PAGE = /(?:https?:\/\/)?(?:www\.)?kalshi\.com\/markets\/([a-z0-9](?:[a-z0-9._-]*[a-z0-9])?)(?:\/[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?)?\/?(?:[?#][^\s<>()"'|`*“”‘’\[\]]*)?(?=$|[\s<>()"'|`*“”‘’\[\]]|[.,;:!?]+(?:\s|$))/gi;
/** A series ticker sent alone ("kxbtcd", "KXFEDDECISION?"). */
const BARE_SERIES = /^\s*(kx[a-z0-9]+)\s*[?.!]*\s*$/i;

/** A user's text with each series page or lone series ticker said as "Kalshi series <TICKER>", which the search reads as the series' events. */
export function seriesNamed(text: string): string {
  const bare = BARE_SERIES.exec(text);
  if (bare) return `Kalshi series ${bare[1]!.toUpperCase()}`;
  return text.replace(SERIES_PAGE, (_, series: string) => `Kalshi series ${series.toUpperCase()}`);
}

/**
 * A thread's user messages with series pages named as series (see seriesNamed): a series address
 * pasted is a question about the series' open events, not an event address to refuse.
 */
export function seriesPagesNamed<T extends Turn>(messages: T[]): T[] {
  let changed = false;
  const read = messages.map((m) => {
    if (m.role !== 'user' || !/kalshi\.com\/markets\/|^\s*kx[a-z0-9]+\W*$/i.test(m.content)) return m;
    const content = seriesNamed(m.content);
    if (content === m.content) return m;
    changed = true;
    return { ...m, content };
  });
  return changed ? read : messages;
}

/**
 * A thread's earlier user messages with each bare event ticker written as the event's address: a
 * thread started with "KXFEDDECISION-26DEC" is that report's thread exactly as one started with its
 * kalshi.com address (the events addressed, the one discussed, the others weighed).
 */
export function tickersAddressed<T extends Turn>(messages: T[]): T[] {
  let changed = false;
  const read = messages.map((m, i) => {
    if (m.role !== 'user' || i === messages.length - 1) return m;
    const url = bareTickerAddress(m.content);
    if (!url) return m;
    changed = true;
    return { ...m, content: url };
  });
  // (The very array when nothing changed, so a request that needs no rewriting stays the caller's own.)
  return changed ? read : messages;
}

/** Words of trading contracts, which no company's figures use. */
const TRADED = /\b(?:sets|pairs|locked(?: in)?|lock in|arb|arbitrage|contracts|kelly|buckets?|rungs?|at the (?:ask|bid)|1 minus the bid)\b/;

function classifyOne(whole: string): Route {
  // "Quarter kelly", "half kelly": a fraction of a stake, no fiscal quarter.
  const text = routedText(whole).replace(/\b(?:quarter|half|third|full|double)[- ](?=kelly\b)/gi, '');
  const url = KALSHI_URL.exec(text)?.[0];
  if (url) {
    // "What's the spread on the hold contract at <address>?" asks that of the event, not for the report again.
    const rest = text.replace(url, ' ').trim();
    return { kind: 'kalshi_url', url: trimUrl(url), reason: 'a Kalshi address', ...(rest && (eventQuestion(rest) || WILL_IT.test(rest)) ? { aboutEvent: true } : {}) };
  }
  // An event ticker sent alone, as Kalshi writes it ("KXFEDDECISION-26DEC", "kxfeddecision-26dec").
  const ticker = bareTickerAddress(text);
  if (ticker) return { kind: 'kalshi_url', url: ticker, reason: 'a Kalshi event ticker' };
  // Several ("compare KXBTCD-26NOV20 and KXETHD-26NOV20"): those events, weighed together.
  const named = [...text.matchAll(/(?<![\w/-])kx[a-z0-9]+-[a-z0-9][a-z0-9.-]*[a-z0-9](?![\w/-])/gi)].map((m) => m[0]);
  const tickers = [...new Set(named.map((t) => t.toUpperCase()))];
  if (tickers.length > 1) return { kind: 'odds', reason: 'several Kalshi event tickers', events: tickers.slice(0, MAX_PARTS + 1) };
  // One in a question ("what's the model say on KXCPIYOY-26DEC?"): that event, asked about.
  const address = named.length ? tickerAddress(named[0]!) : null;
  if (address) {
    const rest = text.replace(named[0]!, ' ').trim();
    return { kind: 'kalshi_url', url: address, reason: 'a Kalshi event ticker in the question', ...(rest && (eventQuestion(rest) || WILL_IT.test(rest)) ? { aboutEvent: true } : {}) };
  }
  if (asksCoverage(text)) return { kind: 'filings', reason: 'which companies the filings data covers' };
  // "What ratios can you compute?": the filings agent's list of its margins and ratios.
  if (RATIO_LIST_ASKED.test(text)) return { kind: 'filings', reason: 'which ratios the filings agent computes' };
  if (OUT_OF_SCOPE.test(text)) return { kind: 'help', reason: 'a request outside financial research' };
  const lower = text.toLowerCase();
  const words = tokens(text);
  const odds = hasWord(words, ODDS_WORDS) ?? (ODDS_PHRASES.some((p) => p.test(lower)) ? 'odds phrase' : null);
  const finance = hasWord(words, FINANCE_WORDS) ?? (FINANCE_PHRASES.some((p) => p.test(lower)) ? 'finance phrase' : null);
  const multi = MULTI_PERIOD.some((p) => p.test(lower));
  if (MOVERS_ASKED.test(lower)) return { kind: 'odds', reason: 'asks which markets move or trade most', movers: BUSIEST_ASKED.test(lower) ? 'volume' : 'move' };
  if (MARKET_ASKED.test(lower)) return { kind: 'odds', reason: 'asks for a market' };
  if (LIST_ASKED.test(lower)) return { kind: 'odds', reason: 'asks which markets there are' };
  if (odds && !(finance && !hasWord(words, ['odds', 'chance', 'chances', 'probability', 'likely', 'kalshi', 'bet', 'bets', 'betting', 'wager', 'polymarket']))) return { kind: 'odds', reason: `asks about odds (${odds})` };
  // "By how much did net income increase between FY2022 and FY2024?" asks for one change, not a table.
  if (finance && multi && /\bbetween\b/.test(lower) && /\b(?:by how much|how much did|increase|decrease|grow|grew|change|changed|rise|rose|fall|fell|difference)\b/.test(lower)) {
    return { kind: 'filings', reason: `a change of ${finance} between two periods` };
  }
  // ("I'm long 300 hold, what's it worth?" is a position's worth, no company's.)
  if (!finance && !odds && MARKET_DATA.test(lower) && !heldPosition(text)) return { kind: 'filings', reason: 'market data, which the filings agent explains it does not have' };
  // "How many sets can i do and what's the locked profit on 100?", "NO on every bucket, locked profit?": a trade on contracts, no company's profit.
  if (finance && TRADED.test(lower) && !hasWord(words, ['revenue', 'revenues', 'sales', 'margin', 'margins', 'earnings', 'eps', 'income', 'cash'])) return { kind: 'odds', reason: `a trade on contracts (${finance})` };
  // "How have the chiefs done at home lately?": a team's record, no company's.
  if (finance === 'finance phrase' && teamMentions(text).length) return { kind: 'odds', reason: 'how a team has done' };
  // ("Biggest quarterly jump in revenue": the one quarter of the largest move, which the filings agent names.)
  if (finance && biggestMoveAsked(text)) return { kind: 'filings', reason: `the biggest move of ${finance} between quarters` };
  if (finance && multi) return { kind: 'financials', reason: `several periods of ${finance}` };
  if (finance) return { kind: 'filings', reason: `company fundamentals (${finance})` };
  const topic = hasWord(words, EVENT_TOPICS);
  if (topic) return { kind: 'odds', reason: `a topic the exchange lists (${topic})` };
  if (asksAboutGame(text)) return { kind: 'odds', reason: 'a game between teams' };
  if (ADVICE.test(lower)) return { kind: 'filings', reason: "advice on a company's stock, which the filings agent declines, giving its key figures" };
  return { kind: 'help', reason: isGreeting(lower) ? 'a greeting or a request for help' : 'nothing the agents cover' };
}


/** Asked to generate an event's report ("ok generate the full report for it"): the event discussed, whose stored report or live summary says how. */
const GENERATE = /\b(?:generate|create|make|run|produce|write|do|build)\b[^?.!]{0,30}\b(?:full |new |fresh |complete |whole )?report\b/i;

/**
 * The event a conversation is about: the last Kalshi address a user turn gave, or the event the
 * last answer about one was on (a report, a live summary, a search that found one). Null if none.
 */
export function discussedEvent(history: readonly Turn[]): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i]!;
    if (turn.role === 'user') {
      const url = KALSHI_URL.exec(routedText(turn.content))?.[0];
      if (url) return trimUrl(url);
      continue;
    }
    const events = eventsOf(turn.content);
    // Of events weighed ("Of the 2 events listed, … the largest gap … is in …"), the one it leads with.
    if (events.length === 1 || (events.length > 1 && /^Of the \d+ (?:events listed|reports in this conversation)\b/.test(turn.content.trimStart()))) return tickerAddress(events[0]!);
  }
  return null;
}

/** The most parts of one question answered apart. */
const MAX_PARTS = 4;

/**
 * A question that asks several things of different kinds ("Apple's Q3 revenue, and the odds of a
 * Fed cut?"), or about several Kalshi events: its parts, each with its own route. Empty when the
 * question is one thing, which the usual route answers whole.
 */
export function splitQuestion(message: string): { question: string; route: Route }[] {
  const question = routedText(message);
  const urls = [...question.matchAll(new RegExp(KALSHI_URL.source, 'gi'))].map((m) => ({ url: trimUrl(m[0]), at: m.index! }));
  const events = [...new Map(urls.map((u) => [u.url.toLowerCase(), u])).values()];
  const eventParts = events.map(({ url, at }) => ({ at, question: url, route: { kind: 'kalshi_url', url, reason: events.length > 1 ? 'one of several Kalshi addresses' : 'a Kalshi address' } as Route }));
  // The words around the addresses: questions of their own ("What was Apple's revenue? <address>"),
  // unless they are about the event ("what's the biggest mispricing in <address>?").
  let rest = question;
  for (const u of urls) rest = rest.replace(u.url, ' '.repeat(u.url.length));
  const pieces: { at: number; question: string }[] = [];
  // Sentences, and clauses joined by "and", "plus", "also" or a comma before a new question
  // ("…, what are the odds…") or before words asking for odds ("… and bitcoin price odds").
  const boundary = /[?;!]\s*|\.\s+|\n+|,?\s+(?:and|also|plus)\s+(?=(?:what|what's|whats|how|will|is|are|who|when|which|tell|give|show|the odds|odds|chances?)\b|[^,.;?!\n]{0,200}\b(?:odds|chances?|probability)\b)|,\s+(?=(?:what|what's|whats|how|will|who|when|which|tell|give|show)\b)/gi;
  const cuts = [...[...rest.matchAll(boundary)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, mark: m[0].trim() })), { start: rest.length, end: rest.length, mark: '' }];
  let from = 0;
  for (const cut of cuts) {
    // Without the connector left before an address ("… for the last 8 quarters, and <address>").
    const text = rest
      .slice(from, cut.start)
      .trim()
      .replace(/(?:[,;:]?\s*\b(?:and|also|plus)|[,;:])$/i, '')
      .trim();
    if (text) pieces.push({ at: from + rest.slice(from).indexOf(text), question: `${text}${/^[?!]/.test(cut.mark) ? cut.mark : ''}` });
    from = cut.end;
  }
  // "Odds of a Fed cut in December and Microsoft revenue last quarter": a clause of another kind
  // after "and", which no word marks as a new question, is one when each side reads as its own kind.
  if (pieces.length === 1 && !events.length) {
    const whole = pieces[0]!;
    // Each split tried reads both sides: a few "and"s, not every one of a long text.
    for (const and of [...whole.question.matchAll(/,?\s+and\s+/gi)].slice(0, 8)) {
      const [left, right] = [whole.question.slice(0, and.index!).trim(), whole.question.slice(and.index! + and[0].length).trim()];
      const [a, b] = [classifyOne(left), classifyOne(right)];
      if (a.kind === 'help' || b.kind === 'help' || a.kind === 'kalshi_url' || b.kind === 'kalshi_url') continue;
      // "BTC above 100k and ETH above 4k?": odds of two topics are two questions too.
      // ("What do the Fed and inflation markets say?", "fed and cpi odds": two topics of one market noun, one search.)
      if (family(a.kind) === family(b.kind) && !(a.kind === 'odds' && b.kind === 'odds' && !WEIGHED.test(question) && !TOPICS_OF_ONE_NOUN.test(right) && topicsApart([left, right]))) continue;
      pieces.splice(0, 1, { at: whole.at, question: left }, { at: whole.at + and.index! + and[0].length, question: right });
      break;
    }
  }
  // Odds whose topics are all the address's own ("<SpaceX launches address> expected number of launches?") ask about that event.
  const own = new Set(events.flatMap(({ url }) => [...addressWords(url)]));
  const ofOwnEvent = (q: string) => {
    const topics = tokens(q).filter((w) => hasWord([w], EVENT_TOPICS));
    return topics.length > 0 && topics.every((w) => own.has(w));
  };
  const asked = pieces
    .map((p) => ({ ...p, route: classifyOne(p.question) }))
    .filter((p) => p.route.kind === 'filings' || p.route.kind === 'financials' || (p.route.kind === 'odds' && (!events.length || (hasWord(tokens(p.question), EVENT_TOPICS) && !ofOwnEvent(p.question)))));
  const parts = [...eventParts, ...asked].sort((a, b) => a.at - b.at).map(({ question, route }) => ({ question, route }));
  if (events.length > 1 || (events.length === 1 && asked.length > 0)) return parts.slice(0, MAX_PARTS);
  // "What are the Fed odds, and what did CPI print last month?": a search each, not one for both.
  const oddsApart = asked.length > 1 && asked.every((p) => p.route.kind === 'odds') && !WEIGHED.test(question) && topicsApart(asked.map((p) => p.question));
  return oddsApart || new Set(parts.map((p) => family(p.route.kind))).size > 1 ? parts.slice(0, MAX_PARTS) : [];
}

/** The second of two topics joined by "and" before the market noun they share: "… and inflation markets say?", "… and CPI odds". */
const TOPICS_OF_ONE_NOUN = /^(?:the\s+)?[\w$.%-]+(?:\s+[\w$.%-]+)?\s+(?:markets?|odds|events?|prices|contracts|bets)\b/i;

/** Events weighed against each other in one question ("compare the BTC and ETH markets"): one search for both. */
const WEIGHED = /\b(?:compare[ds]?|comparing|comparison|vs\.?|versus|between|both|rank(?:ed|ing)?|which (?:one|is|has|of))\b/i;

/** Topics that are one event's, as said in several ways. */
const SAME_TOPIC: Record<string, string> = { fomc: 'fed', btc: 'bitcoin', eth: 'ethereum', inflation: 'cpi', launch: 'spacex', launches: 'spacex', temp: 'temperature', weather: 'temperature', unemployment: 'payrolls' };

/**
 * Whether questions each ask about a topic of their own, in a few words at least: "Fed odds" and
 * "what did CPI print?" are two searches; "BTC" and "ETH odds" of "BTC and ETH odds" one search for both.
 */
function topicsApart(questions: string[]): boolean {
  const topics = questions.map((q) => {
    const words = tokens(q);
    return words.length < 3 ? null : new Set(words.map((w) => hasWord([w], EVENT_TOPICS)).filter((t): t is string => t !== null).map((t) => SAME_TOPIC[t] ?? t));
  });
  if (topics.some((t) => !t?.size)) return false;
  return topics.every((t, i) => topics.every((u, j) => i === j || [...t!].every((w) => !u!.has(w))));
}

/** Filings and financials both answer from SEC filings: a follow-up may move between them. */
const family = (kind: RouteKind) => (kind === 'filings' || kind === 'financials' ? 'sec' : kind);

/**
 * A turn that asks about the event being discussed rather than naming a subject of its own. `own`:
 * the words of that event's address ("fed", "rate", "decision"), whose topics are no other event's
 * ("odds the Fed holds?" in a thread on a Fed decision).
 */
/** Whether a word is a topic of the thread's event (its words `own`), also under another name: "btc" of "Bitcoin price …". */
function ownsTopic(own: ReadonlySet<string>, w: string): boolean {
  return own.has(w) || EventSearch.terms(w).some((t) => t.alternatives.some((a) => own.has(a)));
}

function aboutTheEvent(question: string, route: Route, own: ReadonlySet<string> = new Set()): boolean {
  // ("Now compare KXBTCD-26NOV20 and KXETHD-26NOV20": the events it names, not the thread's.)
  if (route.kind === 'kalshi_url' || route.events) return false;
  const words = tokens(question);
  // A topic of another event, or a team the thread's game does not have ("switching to the Bills-Chiefs game").
  // (Named by nickname or place: an abbreviation may be a word, as "NO" is a side.)
  const otherTeam = own.size > 0 && teamMentions(question).some((m) => !/^[A-Z]{2,3}$/.test(m.said) && !m.teams.some((t) => own.has(t.nickname.toLowerCase().split(' ').at(-1)!)));
  const ownTopic = (w: string) => ownsTopic(own, w);
  const otherTopic = otherTeam || words.some((w) => !ownTopic(w) && hasWord([w], EVENT_TOPICS) !== null);
  // "Bottom line?" in a thread about an event is its report in brief, not a company's net income.
  // ("What's Apple's bottom line?" names a company: that one is.)
  const bare = words.every((w) => ['what', 'whats', 'the', 'so', 'ok', 'okay', 'and', 'is', 'then', 'here', 'bottom', 'line'].includes(w));
  const brief = own.size > 0 && words.length <= 8 && eventQuestion(question) === 'summary' && (route.kind !== 'filings' || bare);
  // "Should I buy 48-51 at the ask? What's my EV?" in a thread about an event is a trade on it, not stock advice.
  // (So is "no on every bucket, 100 sets: cost, payout, locked profit?": "profit" is no company's there.)
  const trade = own.size > 0 && words.length <= 16 && route.kind === 'filings' && ['quote', 'best_trade', 'arbitrage'].includes(eventQuestion(question) ?? '') && /\b(?:at the (?:ask|bid)|yes|no|contracts?|sets?|ev|expected value|edge)\b|\d/i.test(question) && !/\b(?:stocks?|shares?|equity)\b/i.test(question);
  // "If I buy YES on all four, is that a guaranteed profit?": an arbitrage on the event, not a company's profit.
  const arbitrage = own.size > 0 && words.length <= 24 && route.kind === 'filings' && eventQuestion(question) === 'arbitrage' && !/\b(?:stocks?|shares?|equity)\b/i.test(question);
  if (trade || arbitrage) return true;
  // ("Rank the nyc temp, payrolls and approval markets by how overpriced they are" in a SpaceX thread names other
  // events; "what if the BLS release is delayed, like a shutdown" in a CPI thread mentions one.)
  const otherEvents = route.kind === 'odds' && (words.filter((w) => !ownTopic(w) && hasWord([w], EVENT_TOPICS) !== null).length > 1 || /\b(?:markets|events|rank|compare)\b/i.test(question)) && otherTopic;
  // ("What about eth above 3400?" in a thread on NYC's temperature, "aight EV on 100 yes btc 100k" in one on ETH: that event, not the thread's.)
  const switching = otherTopic && (/^\W*(?:(?:ok|okay|so|now|aight|alright)\W+)?(?:what about|how about|and|back to|switching to|now)\b/i.test(question) || levelsAsked(question).length > 0);
  return brief || (route.kind === 'odds' && words.length <= 12 && !otherTopic) || ((route.kind === 'help' || route.kind === 'odds') && words.length <= (own.size ? 24 : 16) && eventQuestion(question) !== null && !otherTeam && !otherEvents && !switching);
}

/** The words of the latest Kalshi event address in a conversation ("fed-rate-decision" → fed, rate, decision). */
function threadEventWords(history: readonly Turn[]): Set<string> {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i]!;
    if (turn.role !== 'user') continue;
    const route = classifyOne(turn.content);
    if (route.kind === 'kalshi_url' && route.url) {
      // With the words of its title as the answer after it gives it ("# Bills at Chiefs on …"): a
      // game's address names no team.
      const answer = history[i + 1];
      const title = answer?.role === 'assistant' ? (answer.content.trimStart().split('\n')[0] ?? '') : '';
      return new Set([...addressWords(route.url), ...(title.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])]);
    }
  }
  return new Set();
}

/** The outcome labels of the latest report in a conversation ("Hold", "Cut 25bps"). */
function reportedOutcomes(history: readonly Turn[]): string[] {
  const report = [...history].reverse().find((t) => t.role === 'assistant' && /^## Outcomes/m.test(t.content));
  const table = report?.content.split(/^## Outcomes[^\n]*$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...table.matchAll(/^\| ([^|\n]+?) (?:\[\d+\] )?\|/gm)].map((m) => m[1]!.trim()).filter((l) => l !== 'Outcome' && !/^-+$/.test(l));
}

/** The words of an event address's slug ("spacex-launches" → spacex, launches, launch). */
function addressWords(url: string): Set<string> {
  const slug = /\/markets\/[^/]+\/([^/]+)\//i.exec(url)?.[1] ?? '';
  // "launches" in the address is the "launch" of a question too.
  const words = slug.toLowerCase().split(/[-_]+/).filter(Boolean);
  const plurals = words.filter((w) => w.length > 3 && w.endsWith('s'));
  return new Set([...words, ...plurals.map((w) => w.slice(0, -1)), ...plurals.filter((w) => w.endsWith('es')).map((w) => w.slice(0, -2))]);
}

/** The events a search answer listed ("1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [1]: …"), in order. */
function listedEvents(answer: string): string[] {
  // (A search may be one part of an answer of several, under its heading.)
  if (!/^(?:Open Kalshi events\b|No open Kalshi event matches\b|The busiest open events\b|The open events whose prices moved most\b|Of the \d+ (?:events listed|reports in this conversation)\b|The market's (?:favourite|least likely outcome) in each of the \d+ events listed\b|Joint chance of the \d+ outcomes asked\b|The bid-ask spreads in each of the \d+ stored reports\b|By expected value per dollar staked\b|No report has a trade with a positive\b|\d+ reports? (?:is|are) stored\b)/m.test(answer.trimStart())) return [];
  // (An answer may list them twice, their prices and then their reports weighed: each once.)
  return [...new Set([...answer.matchAll(/^\d+\. \*\*.+?\*\* \(([A-Z][A-Z0-9]*-[A-Z0-9.-]+)(?:, [^)\n]*)?\)/gm)].map((m) => m[1]!))];
}

/** Two or more events weighed against each other ("which one is more mispriced?", "compare them", "which has the bigger edge?"); not one of an event's outcomes. */
const COMPARE_THEM = /^\s*(?:ok(?:ay)?,?\s+|so\s+)?(?:now\s+)?compare(?: them| both| the two| those| these)?\s*[?.!]*$|\bcompare (?:them|both|the two|those|these)\b|\bhow do (?:they|the two|these|those) compare\b|\b(?:which|what) (?:one|1)\b|\bwhich (?:game|event|market|series)s? (?:has|is|had|looks?|offers?|trades?|traded|moved?)\b|\bwhich (?:has|is|had|looks?|offers?)\b(?![^?]*\b(?:outcomes?|contracts?|strikes?|levels?|rungs?|sides?|teams?)\b)|\b(?:both|the two|(?:these|those) two|either of them)\b/i;

/** Two things discussed pointed back to together ("which of those two", "both", "which one"). */
const EVENTS_PAIRED = /\b(?:those|these|the) two\b|\bboth\b|\bwhich (?:one|of them|of those|of these)\b/i;

/** The events an answer is about: those a search listed, or the one a report or live summary heads ("(KXETHD-26NOV20)", "**Event:** KXETHD-26NOV20"). */
export function eventsOf(answer: string): string[] {
  const listed = listedEvents(answer);
  if (listed.length) return listed;
  const head = answer.slice(0, 600);
  const one = /\*\*Event:\*\* ([A-Z][A-Z0-9]*-[A-Z0-9.-]+)|^I cannot answer that from what I read about \*\*.+?\*\* \(([A-Z][A-Z0-9]*-[A-Z0-9.-]+)\)|^\*\*.+?\*\* \(([A-Z][A-Z0-9]*-[A-Z0-9.-]+)\)|\(no report is stored for ([A-Z][A-Z0-9]*-[A-Z0-9.-]+)|No report is stored for ([A-Z][A-Z0-9]*-[A-Z0-9.-]+)/m.exec(head);
  // (A part of a report answered says its event at the foot: "_From the stored report on **…** (KXPAYROLLS-26DEC), as of …".)
  const foot = /_From (?:the stored report on|Kalshi's live quotes for) \*\*.+?\*\* \(([A-Z][A-Z0-9]*-[A-Z0-9.-]*[A-Z0-9])\), as of /.exec(answer);
  const ticker = (one?.slice(1).find(Boolean) ?? foot?.[1])?.replace(/[.,;:]+$/, '');
  return ticker ? [ticker] : [];
}

const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth'];
/**
 * How a thread's events weighed together are spoken of: "reports in this conversation" when the
 * user asked for each by its address (its report is in the thread), else "events listed" (a search's).
 */
export function groupOf(tickers: readonly string[], history: readonly Turn[]): string {
  const addressed = new Set(history.filter((t) => t.role === 'user').flatMap((t) => eventsAddressed(t.content)).map((t) => t.toUpperCase()));
  return tickers.length > 1 && tickers.every((t) => addressed.has(t.toUpperCase())) ? 'reports in this conversation' : 'events listed';
}

/** A short reply picking one of the events listed ("and the second?", "the 2nd one", "#3", "tell me about the first"). */
const PICKED = /^(?:(?:ok(?:ay)?|so|now|right),?\s+)?(?:and |what about |how about |tell me (?:more )?about |more on |show me |open |(?:the )?(?:odds|prices?|report|details) (?:on|for|of) )?(?:in |on |for )?(?:the )?(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th|#\s*[1-8]|number [1-8])(?: one| event| result| market| contract)?(?: (?:you|u) (?:listed|mentioned|showed|gave|found))?(?:,?\s*(?:please|pls))?\s*[?.!]*$/i;

/**
 * A follow-up to a search's list of events: one picked by its place, or a question of the kind a
 * report answers ("which of those is cheapest?", "when does it close?") about the first listed.
 * Outcomes named ("odds of a hold?") stay with the search, which marks them in every event it lists.
 */
function afterListing(question: string, history: readonly Turn[]): Route | null {
  const answers = [...history].reverse().filter((t) => t.role === 'assistant');
  // "Which one is more mispriced?", "compare them" after BTC, then ETH, searched or reported one
  // by one: the events of the last few answers, compared from their reports.
  const asked = eventQuestion(question);
  // "Which one has more volume?" after two events: the events discussed, by how much they trade.
  // (Not right after an answer on one event's contracts, "what are the spreads on the fed contracts?":
  // "which has the most volume?" then is of those contracts.)
  // ("Which one has more volume?" after the shutdown edge, then payrolls': one of two, so of the two events, not of payrolls' outcomes.)
  const ofTwo = /\bwhich (?:one|1)\b[^?]*\bmore\b/i.test(question) && !/\bmost\b/i.test(question) && new Set(answers.slice(0, 4).flatMap((t) => eventsOf(t.content))).size > 1;
  const ofOneEvent = !ofTwo && answers.length > 0 && eventsOf(answers[0]!.content).length === 1 && /^_From (?:the stored report on|Kalshi's live quotes for) /m.test(answers[0]!.content) && !/\b(?:markets|events|them|these|those|both|two|either|each)\b/i.test(question);
  if (!ofOneEvent && COMPARE_THEM.test(question) && /\b(?:volume|traded|trades|trading|liquid\w*|busier|busiest|more active|open interest)\b/i.test(question)) {
    const discussed = [...new Set(answers.slice(0, 4).flatMap((t) => eventsOf(t.content)))].slice(0, 5);
    if (discussed.length > 1) return { kind: 'odds', reason: 'the trading of the events of the answers before', events: discussed, movers: 'volume' };
  }
  // "Which of those two moved more this week?" right after answers on two events: their moves, compared.
  if (asked === 'moves' && EVENTS_PAIRED.test(question) && answers.length > 1) {
    const [a, b] = [eventsOf(answers[0]!.content), eventsOf(answers[1]!.content)];
    if (a.length === 1 && b.length === 1 && a[0] !== b[0]) return { kind: 'odds', reason: 'the moves of the two events of the answers before', events: [a[0]!, b[0]!], movers: 'move' };
  }
  if (COMPARE_THEM.test(question) && (asked === 'gap' || asked === 'best_trade' || asked === null)) {
    const discussed = [...new Set(answers.slice(0, 4).flatMap((t) => eventsOf(t.content)))].slice(0, 5);
    if (discussed.length > 1) return { kind: 'odds', reason: 'comparing the events of the answers before', events: discussed };
  }
  const picked = PICKED.exec(question.trim());
  // A pick ("and in the first one?") may come turns after the list; a question, right after it.
  // ("Which of those closes last?" after a turn on one of them: those listed a few answers before.)
  // ("Who is favoured in each?" turns after the ranking.)
  const plural = /\b(?:of (?:these|those|them)|each of (?:them|those|these)|all of (?:them|those|these)|in each|each one)\b/i.test(question);
  const listed = (picked ? answers.map((t) => listedEvents(t.content)).find((l) => l.length) : plural ? (answers.slice(0, 4).map((t) => listedEvents(t.content)).find((l) => l.length > 1) ?? answers.slice(0, 4).map((t) => listedEvents(t.content)).find((l) => l.length)) : answers[0] && listedEvents(answers[0].content)) ?? [];
  if (!listed.length) return null;
  if (picked) {
    const said = picked[1]!.toLowerCase().replace(/^#\s*|^number /, '');
    const place = said === 'last' ? listed.length : /^\d/.test(said) ? parseInt(said, 10) : ORDINAL_WORDS.indexOf(said) + 1;
    const ticker = listed[place - 1];
    return ticker ? { kind: 'kalshi_url', url: tickerAddress(ticker)!, reason: `event ${place} of the search before` } : null;
  }
  // Of several events listed, a question of their dates or rules ("which closes first?") is about
  // the list, which no one report answers; one of prices ("which of those is cheapest?"), the first's.
  const kind = eventQuestion(question);
  // What the model says of several listed events, compared: from each one's stored report.
  // Who the market favours in each ("who is favoured in each?"): from their live prices.
  if (listed.length > 1 && (kind === 'gap' || kind === 'best_trade' || kind === 'model_favourite' || kind === 'market_favourite' || kind === 'market_least') && OF_THE_LIST.test(question)) {
    return { kind: 'odds', reason: 'across the events of the search before', events: listed };
  }
  // "Which of those closes last?": their closing times, compared.
  if (listed.length > 1 && kind === 'closing' && /\b(?:first|last|soonest|latest|earliest|next)\b/i.test(question)) return { kind: 'odds', reason: 'the closing times of the events of the search before', events: listed };
  const ofTheList = kind === 'closing' || kind === 'resolution' || kind === 'previous' || kind === 'history';
  // "Why is a hike priced so high?": the first event's report explains it; other questions of an outcome stay with the search.
  const why = /\b(?:why|how come)\b/i.test(question) && kind === 'outcome';
  if ((listed.length > 1 && ofTheList) || kind === null || (kind === 'outcome' && !why) || tokens(question).length > 16) return null;
  // ("Ok back to the chiefs game: kelly on the dog" after BTC and ETH compared: a team no listed event plays.)
  if (teamMentions(question).some((m) => m.byNickname || m.said.length > 3) && !listed.some((t) => /GAME/i.test(t))) return null;
  return { kind: 'kalshi_url', url: tickerAddress(listed[0]!)!, reason: 'about the first event of the search before', aboutEvent: true };
}

/** An answer from SEC filings: it cites a form, or says its data is a filings snapshot or EDGAR. */
const FROM_FILINGS = /\bForm 10-[KQ]\b|^_?Data: [^\n]*snapshot|\bSEC EDGAR\b/m;

/**
 * "Is there an arb on it then?", "2.8 priced over 2.6?? is that free money", "the one below cut 25 i
 * mean. hold?" after answers about one event (its search, its report, a part of it): a question of
 * the report's kinds, or naming one of its outcomes, with no topic of its own, is about that event.
 * Not after an answer from filings: "whats the source?" asks that answer's.
 */
function ofDiscussedEvent(question: string, route: Route, history: readonly Turn[]): Route | null {
  const count = tokens(question).length;
  const lastAnswer = [...history].reverse().find((t) => t.role === 'assistant');
  if (count > 24 || (isGreeting(question) && count <= 3)) return null;
  if (FROM_FILINGS.test(lastAnswer?.content ?? '')) return null;
  const noTopic = route.kind === 'help' || (route.kind === 'odds' && !route.events && !route.movers && !hasWord(tokens(question), EVENT_TOPICS) && !teamMentions(question).length);
  const namesOutcome = () => reportedOutcomes(history).some((l) => new RegExp(`(?<![\\w-])${l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i').test(question));
  if (!noTopic || (eventQuestion(question) === null && !namesOutcome())) return null;
  const url = discussedEvent(history);
  return url ? { kind: 'kalshi_url', url, reason: 'a question about the event discussed', aboutEvent: true } : null;
}

/**
 * The route of the last user turn. A follow-up ("and the quarter before?", "how about
 * Microsoft?") that names no subject of its own takes the route of the conversation so far.
 */
export function classify(asked: string, history: readonly Turn[] = []): Route {
  const question = routedText(asked);
  const route = classifyOne(question);
  // Writing asked for continues no conversation ("write me a poem about that").
  if (OUT_OF_SCOPE.test(question)) return route;
  const lower = question.trim().toLowerCase();
  const count = tokens(question).length;
  // "Ok back to it, which qtr was best": a follow-up of the turn before the last one.
  const back = /^(?:ok(?:ay)?,?\s+|so,?\s+)?back to (?:it|that|this|them)\b[,.:]?\s*/i.exec(question);
  if (back && question.length > back[0].length && history.length >= 2) return classify(question.slice(back[0].length), history.slice(0, -2));
  const followUp = FOLLOW_UP.test(lower.replace(/\bqtrs?\b/g, 'quarter'));
  // Only a follow-up ("and the quarter before?") or a bare subject ("Microsoft?") continues the
  // conversation; thanks, a greeting or anything else the agents do not cover gets the help.
  // After an answer from filings, so does a question no rule places ("show me the source", "which is
  // bigger, by how much in %", "should I buy it?"): the filings agent answers it or says what it cannot.
  const lastAnswer = [...history].reverse().find((t) => t.role === 'assistant');
  // (Of a conversation sent without its answers, the latest question the rules place is read instead.)
  const placed = lastAnswer ? null : [...history].reverse().filter((t) => t.role === 'user').map((t) => classifyOne(t.content).kind).find((k) => k !== 'help');
  // (An answer that found no company at all, "I could not find a company called …", was no filings answer to continue.)
  const filed = lastAnswer ? FROM_FILINGS.test(lastAnswer.content) && !/^I could not find a company\b/.test(lastAnswer.content) : placed !== undefined && placed !== null && family(placed) === 'sec';
  const afterFilings = count <= 16 && !isGreeting(lower) && filed;
  const continues = followUp || afterFilings || (count <= 3 && !isGreeting(lower));
  // Odds without a topic of their own ("what's the biggest mispricing?", "odds of a hold?") right
  // after a Kalshi address are about that event, and so are questions about its report ("which
  // outcome does the model favour?", "when does it close?").
  const own = threadEventWords(history);
  // ("What's hot?", "which markets moved the most this week?": the whole board, whatever event was discussed or listed;
  // not "biggest mover this week?" in an event's thread: its own outcomes.)
  // ("Biggest movers this week?" after "what's hot?": movers, plural, are of the board too.)
  const board = route.movers !== undefined && /\b(?:markets|events|kalshi|board|hot|trending|busiest|most active|most traded|movers)\b/i.test(question);
  if (board) return route;
  if (route.kind === 'help' || (route.kind === 'odds' && !hasWord(tokens(question), EVENT_TOPICS))) {
    const listing = afterListing(question, history);
    if (listing) return listing;
  }
  // "Ok back to nyc, 58 degrees?" after a turn on ETH: the thread's own event, named by its topic, with its report.
  if (/\bback to\b/i.test(question) && route.kind !== 'kalshi_url' && tokens(question).some((w) => ownsTopic(own, w) && hasWord([w], EVENT_TOPICS) !== null)) {
    for (const turn of [...history].reverse()) {
      const address = turn.role === 'user' ? classifyOne(turn.content) : null;
      if (address?.kind !== 'kalshi_url') continue;
      if (address.url) return { kind: 'kalshi_url', url: address.url, reason: 'back to the Kalshi event of the thread', context: turn.content, aboutEvent: true };
      break;
    }
  }
  // "Ok generate the full report for it": the event discussed, whose stored report is given, or its live summary that says which model generates one.
  if (GENERATE.test(question) && (route.kind === 'help' || route.kind === 'odds') && !hasWord(tokens(question), EVENT_TOPICS)) {
    const url = discussedEvent(history);
    if (url) return { kind: 'kalshi_url', url, reason: 'a report asked of the event discussed' };
  }
  // Odds right after a search ("will it be above 50 degrees?" after NYC temperatures): searched
  // with the question that listed them as context, its events found again when nothing else is.
  const lastAsked = [...history].reverse().find((t) => t.role === 'user');
  // So is a short question the rules read as nothing ("cut of any size?", "between 92k and 96k?").
  // (And one asking what the events' prices mean for a trade, "if I buy 100 NO on hike, max loss and payoff?".)
  const short = route.kind === 'help' && !isGreeting(lower) && (count <= 8 || (count <= 16 && eventQuestion(question) !== null));
  if ((route.kind === 'odds' || short) && lastAnswer && lastAsked && listedEvents(lastAnswer.content).length) {
    // ("Probability below 9.5?" after "between 10 and 10.5?" after "arctic sea ice … odds?": the question that named the topic.)
    const before = classify(lastAsked.content, history.slice(0, history.lastIndexOf(lastAsked)));
    return { kind: 'odds', reason: 'a follow-up to the search before', context: before.reason === 'a follow-up to the search before' && before.context ? before.context : lastAsked.content };
  }
  // ("What changed on payrolls?" after an answer on the shutdown names another event: not the one the answer before was on.)
  const footTitle = lastAnswer ? /^_From (?:the stored report on|Kalshi's live quotes for) \*\*(.+?)\*\* \(/m.exec(lastAnswer.content)?.[1] : undefined;
  const footOwn = new Set([...own, ...(footTitle?.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])]);
  // (In a thread begun at an event's address, aboutTheEvent weighs other topics itself; one mentioned in passing, "like a shutdown", is none.)
  const namesOther = footTitle !== undefined && own.size === 0 && tokens(question.replace(/\b(?:like|such as|as in) (?:a |an |the )?[\w-]+/gi, ' ')).some((w) => hasWord([w], EVENT_TOPICS) !== null && !ownsTopic(footOwn, w));
  // ("What's it worth now?", "should i sell?" right after an answer on an event: the position on it, not a company's value.)
  const afterEvent = footTitle !== undefined || /^## Key takeaway/m.test(lastAnswer?.content ?? '');
  if (route.kind === 'filings' && afterEvent && POSITION_ASKED.test(question) && count <= 10 && !/\b(?:stocks?|shares?|equity|company|market cap|valuation)\b/i.test(question)) {
    const url = discussedEvent(history);
    if (url) return { kind: 'kalshi_url', url, reason: 'a position asked about, after an answer on the event', ...(lastAsked ? { context: lastAsked.content } : {}), aboutEvent: true };
  }
  if (aboutTheEvent(question, route, own) && !namesOther) {
    // Right after an answer drawn from one event (its foot names it), that event ("which has the most
    // volume?" after "what are the spreads on the fed contracts?", itself after a list of reports).
    // (A level named, "what about above 100k?", may be another reported event's: the walk below finds it.)
    const footed = lastAnswer && !/\d/.test(question) && /^_From (?:the stored report on|Kalshi's live quotes for) /m.test(lastAnswer.content) ? eventsOf(lastAnswer.content) : [];
    const url = footed.length === 1 ? discussedEvent(history) : null;
    if (url && url.toUpperCase().endsWith(`/${footed[0]!.toUpperCase()}`)) return { kind: 'kalshi_url', url, reason: 'about the event of the answer before', ...(lastAsked ? { context: lastAsked.content } : {}), aboutEvent: true };
    // Back past the turns that were themselves about the event, to its address.
    // A turn that picked an event a search listed ("and the second?") is about that event too.
    const routeOf = (t: Turn, i: number): Route => {
      const r = classifyOne(t.content);
      return (r.kind === 'help' || r.kind === 'odds' ? afterListing(t.content, history.slice(0, i)) : null) ?? r;
    };
    const last = history
      .map((t, i) => ({ turn: t, i }))
      .filter(({ turn }) => turn.role === 'user')
      .map(({ turn, i }) => ({ turn, route: routeOf(turn, i) }))
      .reverse()
      .find((x) => x.route.kind !== 'help' && !aboutTheEvent(x.turn.content, x.route, own));
    if (last?.route.kind === 'kalshi_url') return { kind: 'kalshi_url', url: last.route.url, reason: 'about the Kalshi event of an earlier turn', context: last.turn.content, aboutEvent: true };
  }
  const discussed = ofDiscussedEvent(question, route, history);
  if (discussed) return discussed;
  // "And the quarter before?" after an answer about an event: a period alone is no company's figure.
  const words = tokens(question);
  const periodOnly = (route.kind === 'filings' || route.kind === 'financials') && count <= 6 && words.some((w) => PERIOD_WORDS.has(w)) && words.every((w) => !FINANCE_WORDS.includes(w) || PERIOD_WORDS.has(w)) && !FINANCE_PHRASES.some((p) => p.test(lower));
  if (periodOnly && lastAnswer && !FROM_FILINGS.test(lastAnswer.content)) {
    const url = discussedEvent(history);
    if (url) return { kind: 'kalshi_url', url, reason: 'a period asked of the event discussed', aboutEvent: true };
  }
  if ((route.kind === 'help' && continues) || (followUp && count <= 8 && route.kind !== 'kalshi_url')) {
    for (let i = history.length - 1; i >= 0; i--) {
      const turn = history[i]!;
      if (turn.role !== 'user') continue;
      const earlier = classifyOne(turn.content);
      // A turn about an event a search listed ("which of those is cheapest?"): so is a follow-up to it ("and its spread?").
      const listing = earlier.kind === 'help' || earlier.kind === 'odds' ? afterListing(turn.content, history.slice(0, i)) : null;
      if (listing) return { ...listing, aboutEvent: true, reason: 'a follow-up about an event of the search before', context: turn.content };
      // A turn that was itself about an event being discussed ("the model's probability for Hold?"
      // after its address) took that event's route: so does a follow-up to it ("and its price?").
      // (Not one naming a topic of another event: "and eth?" after questions about a Bitcoin event.)
      if (earlier.kind !== 'help' && aboutTheEvent(turn.content, earlier, own) && !tokens(question).some((w) => !own.has(w) && hasWord([w], EVENT_TOPICS) !== null)) {
        const resolved = classify(turn.content, history.slice(0, i));
        if (resolved.kind === 'kalshi_url') return { ...resolved, reason: 'a follow-up about the Kalshi event of an earlier turn', context: turn.content };
      }
      if (earlier.kind !== 'help') {
        // A follow-up keeps the conversation's route ("and net income?" after a table of revenue),
        // unless it names a subject of another kind ("what about Apple revenue?" after odds).
        if (route.kind !== 'help' && route.kind !== earlier.kind && (!followUp || family(route.kind) !== family(earlier.kind))) return route;
        // More periods of the same figures ("and for the last 8 quarters?") is a table.
        const kind = family(earlier.kind) === 'sec' && MULTI_PERIOD.some((p) => p.test(lower)) ? 'financials' : earlier.kind;
        // After an event's address, the report is searched for what the follow-up asks ("what about 2.8?"); failing that it is given whole.
        return { kind, url: earlier.kind === 'kalshi_url' ? earlier.url : undefined, reason: `a follow-up to an earlier question (${earlier.reason})`, context: turn.content, ...(earlier.kind === 'kalshi_url' ? { aboutEvent: true } : {}) };
      }
    }
    // After an answer from filings to a question no rule placed ("wat was msft rev last q", answered
    // for the company it names), a follow-up no rule places ("vs a yr ago?") is the filings agent's too.
    if (route.kind === 'help' && afterFilings && lastAsked) return { kind: 'filings', reason: 'a follow-up to an answer from the filings', context: lastAsked.content };
  }
  return route;
}
