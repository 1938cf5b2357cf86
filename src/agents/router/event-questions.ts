import { compactDollars, contestSubject, countSide, coverOfSide, inLabelScale, inRange, isCount, isDiscrete, labelRange, levelsAsked, negated, rangeAsked, sideAsked, sideIncludesLevel, WILL_IT, withOutcomeSynonyms, type LabelRange } from '../markets-search/asked.js';
import { withTeamNames } from '../markets-search/teams.js';
import { WRONG_ASKED, ifWrongText, worstCaseTable } from './if-wrong.js';
import { openAnswer, openAsked } from './open-questions.js';
import { EXPOSURE_ASKED, exposureText } from './exposure.js';
import { feeText } from './fee-said.js';
import type { Answer, Citation } from '../types.js';
import { listed } from '../citations.js';
import { editDistance } from '../../text.js';
import { LEVEL_EXPECTED_ASKED, ODDS_FORMAT_ASKED } from '../markets-search/distribution.js';
import { pastLevelAsked, pastLevelText } from './past-level.js';
import { bestRow, bullets, byLevel, cited, isLadder, labelLevels, levelOfRow, levelsNamed, marketSum, modelBetween, modelSum, names, outcomeOf, percent, points, readReport, refsOf, rowLine, rungSide, sumOf, type Contract, type Row } from './report-rows.js';
import { POSITION_ASKED, hedgeAsked, hedgeText, heldVerbFree, positionAlone, withPositionSaid } from './hedge.js';
import { settledText } from './settle-scenario.js';
import { CHANCE_SAID, DEPTH_ASKED, FAIR_PRICE, QUOTE_MISSING, emptyBookText, tradeSaid, LADDER_BASKET, sellBeforeText, LADDER_SCENARIO, ladderBasketText, MONEY_GROUPS, MONEY_SAID, NO_BOUGHT, POSITION_HELD, SUPPOSED_PRICE, anomaliesText, arbitrageText, bestTradeText, bothSidesText, chancesInPercent, heldPosition, mostTradedText, overroundText, pricedText, pricesInCents, quoteText, rankedTrades, sizingText } from './trading-answers.js';
import { LAST_CLAIM, LAST_N, LIKELIHOOD, MOVED_MORE, PLAIN_ASKED, SOURCE_ASKED, pastPrices, plainCrossingText, plainFormOf, plainSummaryText, lastCount, lastEventsText, baseRateText, basicsText, cheapText, ladderBandsText, ladderSpanText, likelihoodText, methodText, modelWhyText, pastText, placedText, previousText, pricedAboveText, rangeSpanText, rulesText, summaryText, expectedText, oddsFormatText, whyMovedText, whyText } from './report-answers.js';

// Questions about an event already reported on ("which outcome does the model favour?", "when
// does it close?"), answered from the stored report itself: its figures, quoted with the sources
// they cite, rather than the whole report again. The report is this service's own Markdown, so
// its sections and its outcome table are read by their headings and columns.

export type EventQuestion = 'sources' | 'basics' | 'catalysts' | 'summary' | 'anomalies' | 'expected' | 'odds_format' | 'best_trade' | 'arbitrage' | 'overround' | 'quote' | 'method' | 'previous' | 'model_favourite' | 'market_favourite' | 'market_least' | 'gap' | 'closing' | 'resolution' | 'history' | 'moves' | 'outcome';

/** The order book and trading of a contract, or what buying it at the ask is worth on the model. */
const QUOTE = /\b(?:(?:buy|bought|get|grab)\b[^?]{0,40}\bat\s+\$?\d+(?:\.\d+)?\s*(?:c|¢|cents?)\b|(?:can|could|may) (?:i|we|you) (?:still )?(?:buy|trade|sell|get|bet)\b|need to (?:believe|think)\b|fad(?:e|ing)\b|(?:take|throw|put|bet|stake|wager|risk|drop|place|lay)\s+\$?\d[\d,]*k?\s+(?:on|in|into)|spreads?|bids?|break[- ]?even|(?:the|at the|its) ask|asking price|order ?book|liquidity|open interest|expected value|ev\b|worth buying|buy(?:ing)? (?:\d[\d,]* )?(?:yes|no)|(?:want|get|grab|take) (?:\d[\d,]* )?(?:yes|no)(?: contracts?)?|\d[\d,]* (?:yes|no) contracts?|max(?:imum)? (?:loss|gain|profit)|pay ?offs?|(?:should i|to) (?:buy|sell|bet on|back)|bet on|payouts?|pays? out|how much (?:would|could|will|do|does|can) (?:i|you|we) (?:make|win|get|earn)|what (?:do|would|will|can|could) (?:i|you|we) (?:make|win|get|earn)|how much (?:does|do|is) (?:a |one )?(?:yes|no|contract)\w*\s+(?:cost|costs)|what(?:'s|s| is| does| do| would| will)?\b[^?]{0,40}\b(?:cost|costs|pay|pays)\b|how much (?:do|does|would|will|is|are|to)\b[^?]{0,40}\bcost\b|(?:yes|no) side|cost (?:of|for) (?:\d|a |one |the )|(?:yes|no) costs?|how much for \d[\d,]*|(?:if|when) (?:i )?buy \d[\d,]*|minimum (?:i can |to |you can )?(?:bet|buy|stake|trade|put in)|\d[\d,]* (?:yes|no)(?= (?:on|at|for|contracts?|shares?)\b)|what (?:do|would|will|can|could) (?:i|you|we) (?:net|clear|pocket)|(?:long|short)\s+\d[\d,]*|p&l|pnl|p\/l|^\W*(?:(?:and|ok|so|what about|how about|no+|nah|nope|actually)\W+)?(?:buy(?:ing)?\s+|get(?:ting)?\s+)?\d[\d,]*\s+of\s+(?:those|them|these|that|it)\b(?!\s+[a-z]))/i;
/** Getting out of a position before the end ("can I sell before it closes?", "can i cash out early?"). */
export const SELL_BEFORE = /\b(?:can|could|may) (?:i|we|you) (?:still )?(?:sell|exit|get out|cash out|close (?:out )?(?:my|the|a) (?:position|trade|bet))\b(?![^?]*\bat \$?\d)/i;

/** Which side of a game is at home ("are the lakers home or away?", "who's the home team?"). */
const HOME_AWAY = /\b(?:home or away|away or home|who(?:'s| is) (?:at )?home|which (?:team|one|side) is (?:at )?home|(?:is|are) (?:the )?[a-z.' ]{2,20} (?:at home|the home team|the away team|on the road|playing (?:at )?home|playing away))\b/i;

/** Trading figures of the contract snapshot. */
const TRADING = /\b(?:volume|open interest|oi|traded|liquid\w*)\b/i;
/** A ranking by a trading figure ("which has the most volume?"). */
const MOST_TRADED = /\b(?:most|more|higher|highest|larger|largest|bigger|biggest|least|less|lower|lowest|smaller|smallest)\s+(?:(?:24[- ]?h(?:our)?\s+)?volume|open interest|oi|traded|liquid\w*)\b|\bmost (?:actively )?traded\b/i;

/** "Outcomes priced above 4%", "sum of probabilities over 10%": a filter on prices, not a level of the event. */
const PRICED = /\b(?:probabilit(?:y|ies)|outcomes?(?:\s+priced)?|priced|contracts?)\s+(?:of\s+)?(above|over|more than|at least|below|under|less than|at most)\s+(\d+(?:\.\d+)?)\s*%/i;

/** What the exclusive outcomes' prices add up to, beyond 100%: the exchange's edge. */
const OVERROUND = /\b(?:over-?round|vig(?:orish)?|juice|house edge|bookmaker'?s? margin|(?:prices|probabilities|odds) (?:add|sum) up|adds? up to|sum of (?:the )?(?:prices|probabilities|odds|buckets|outcomes|mids)|(?:buckets|outcomes|prices|mids|they) (?:sum|add up|total) to|sums? to (?:what|how much|100\b))\b/i;
/** A case the rules decide ("what happens if it ends in a tie?", "does overtime count?"). */
const RULE_CASE = /\b(?:what (?:happens|if)|in case of)\b|\b(?:ties?|tied|draws?|overtime|postpone\w*|cancel\w*|delay\w*|revis\w*|scrub\w*|forfeit\w*|suspend\w*|fail(?:s|ed|ure|ures)?|abort\w*|recount\w*|voided|correct(?:ed|ion|ions))\b/i;
/** Both sides of one outcome bought together ("200 pairs of yes and no on hold", "buy both sides of hike"). */
export const BOTH_SIDES = /\b(?:yes and no|no and yes|both sides|(?:yes|no) and (?:the )?(?:other side|opposite))\b/i;
const ARBITRAGE = /\b(?:yes and no|no and yes|both sides)\b[^?]*\b(?:lock|profit|guarantee\w*|make|earn|free|risk|arb\w*)\b|\b(?:buy(?:ing)?|bought|get)\b[^?]*\b(?:yes and no|no and yes|both sides)\b|\b(?:arb(?:itrage)?s?|risk[- ]?free|free money|guaranteed (?:profit|money)|lock(?:ed)? in a profit)\b|\b(?:buy|buying|bought|sell|selling)\s+(?:yes|no)\s+(?:on\s+)?(?:all|every|each)\b|\b(?:yes|no) on (?:all|every|each) (?:of the )?(?:\w+ )?(?:outcomes?|buckets?|rungs?|ranges?|strikes?|contracts?|options?|legs?)\b|\block(?:ed)?(?: in)? (?:a )?profit\b/i;

/** What the event is of ("which movie is this?", "what teams are playing?"): its title and rules say. */
const SUBJECT_ASKED = /\b(?:which|what) (?:movie|film|team|game|match|company|person|candidate|model|station|index|city|launch|rocket|show|release|coin|player)s? (?:is|are|does|do) (?:this|it|that|these|they) (?:about|for|on|of|measure|track|count)\b|^\W*(?:so\s+)?(?:which|what) (?:movie|film|team|game|match|company|person|candidate|station|index|city|launch|rocket|show|release|coin|player)s? (?:is (?:this|it|that)|are (?:these|they|those|playing)|is playing)\W*$|^\W*(?:so\s+)?(?:which|what|who)(?:\s+\w+)?\s+(?:is|are|counts?|count as)\s+(?:in|part of|covered by|included in|named in)\s+(?:it|(?:this|that|the)(?: (?:market|event|bet|contract))?)\W*$|^\W*(?:so\s+|and\s+)?whose\s+(?:approval(?:\s+rating)?|rating|\w+)\W*$/;
/** The measure a rule reads ("which poll average?", "which index?"): the rules and their resolution source. */
const SOURCE_NAMED = /^\W*(?:so\s+|and\s+)?(?:which|what)\s+(?:poll(?:ing)?(?:\s+(?:average|avg|aggregate))?|average|survey|index|measure|agency|benchmark|report|reading|figure|station)s?(?:\s+(?:is it|is that|is used|do they use|does it use|counts?|are they using|is this))?\W*$/;

/** The measured figure itself, now ("where is approval now?", "what's the temperature right now?"): not read; what the market implies instead. */
const CURRENT_LEVEL = /^\W*(?:so\s+|and\s+|ok\s+)?(?:where(?:'s| is)|what(?:'s| is))\s+(?:the\s+)?(?:approval(?:\s+rating)?|temperature|temp|cpi|inflation|unemployment|payrolls|jobs|bitcoin|btc|ethereum|eth|sea ice|ice extent|spot(?:\s+price)?|the rate|rate|average)\s+(?:now|currently|right now|today|at the moment|at)\W*$|\b(?:current|latest) (?:level|reading|value|figure|approval(?:\s+rating)?|temperature|cpi|inflation rate|average|spot price|btc price|bitcoin price)\b/i;

/** A price in the past, or the largest move ("a week ago", "yesterday", "biggest mover"). */
const PAST = /\b(?:ago|yesterday|last (?:week|night)|(?:a|one|1) (?:day|week) (?:ago|earlier|before)|24 ?h(?:ours?)?|7 days|seven days|(?:biggest|largest) (?:mover|move|swing|change)|moved (?:the )?most|most movement|up or down)\b/i;

/** An earlier event of the series ("the previous event", "the October meeting", "last month's release", "the last game"). */
const PREVIOUS_EVENT =
  /^\W*(?:(?:and|what about|how about)\s+)?(?:the\s+|in\s+)?(?:jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:'s)?\s+20\d\d(?:'s)?(?:\s+(?:one|then|event))?\W*$|\b(?:last|previous) year'?s (?:jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\b(?:previous|last|prior|preceding|earlier|jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:\s+\d{1,2}(?:st|nd|rd|th)?)?(?:'s)?\s+(?:event|meeting|decision|release|game|report|print|reading|number|one|month(?:'s)?|cpi|jobs|payrolls?|inflation)\b|\blast time\b|\bthe (?:quarter|month|week|meeting|one|event|release|decision|game|print) before\b|\b(?:did|was|were|happened|resolved|settled|paid out)\b[^?]*\b(?:in|at) (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?)\b|\bwhere did\b[^?]*\b(?:land|end up|come in|print|settle|finish)\b|^\W*(?:(?:and|what about|how about)\s+)?(?:the\s+)?(?:jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?)(?:'s)?(?:\s+(?:one|then))?\W*$/i;
/** How the model works, or how far to trust it ("explain the model", "how confident is it?", "why is the model lower?"). */
const METHOD = /^\s*(?:why|how so|how come|really|are you sure|seriously|says who)\s*\??\s*(?:\(.*\))?\s*$|\b(?:explain|how (?:does|did|is|was|do you)|how's)\b[^?]*\b(?:model|computed|calculated|derived|get (?:that|this|these))\b|\bmodel\b[^?]*\b(?:work|computed|calculated|built)\b|\bmethod(?:ology)?\b|\bhow (?:confident|sure|certain|reliable|trustworthy)\b|\bconfidence\b|\bwhy (?:is|does|would) the model\b|\bwhy (?:higher|lower)\b/i;

/** A price the model finds too high ("overpriced"), or too low ("underpriced"); neither: the largest gap either way. */
const TOO_HIGH = /\b(?:over-?priced|over-?valued|expensive|dear|rich|sell|short|too (?:high|much|pricey))\b/i;
const TOO_LOW = /\b(?:under-?priced|under-?valued|cheap\w*|bargain|value|buy|too (?:low|little))\b/i;
/** A price judged ("is 58 too high?", "is hold priced too low", "is 51 too much for hike"): is it cheap or dear on the model. */
const TOO_SAID = /^\W*(?:(?:so|and|ok|but)\W+)?(?:is|are|isn'?t|aren'?t)\b[^?]{0,40}\btoo (?:high|low|much|little|rich|cheap|pricey)\b/i;
/** The series' record asked in words of its own: how the market called past events, the most common result, how a side did lately. */
const RECORD_ASKED = /\bhow (?:reliable|accurate|good|right|well)\b[^?]{0,20}\b(?:have|has|were|are)\b[^?]*\b(?:markets?|these|they|it)\b[^?]*\bbeen\b|\b(?:(?:been|done|do|does|did) (?:\w+ )?(?:good|well|right|accurate) (?:at )?(?:calling|predicting|picking)|(?:done|do|does|did) at (?:calling|predicting)|calling (?:these|past|previous|the last)|most (?:often|common|frequent)(?:ly)?|(?:record|form)\b[^?]*\b(?:lately|recently|at home|on the road|this (?:season|month|year))|(?:do|doing|did|done|gone|go)\b[^?]*\b(?:recently|lately)|(?:has|have|had)\b[^?]*\b(?:recently|lately)|last few (?:weeks|months|days|games|meetings|releases|events|prints)|past (?:\w+ )?markets?|ever (?:won|win|hit|happened|resolved|paid))\b/i;

/** How the past favourites did, not the present one. */
const TRACK_RECORD = /\b(?:usually|how often|how many times|track record|in this series|historically|accura\w*|base ?rates?|last time|how (?:good|well|bad|did)\b[^?]{0,30}\b(?:at )?(?:predicting|calling|picking|forecasting)|past (?:games?|events?|meetings?|results?|releases?)|previous (?:games?|events?|meetings?|results?)|happened before)\b/i;

const PATTERNS: [EventQuestion, RegExp][] = [
  ['gap', /\b(?:mispric\w*|gaps?|edge|cheap\w*|expensive|dear|under-?valued|over-?valued|under-?priced|over-?priced|value|takeaway|bargain|disagree\w*)\b/i],
  ['model_favourite', /\bmodel\b/i],
  // Before the favourite: "is the favourite usually right?" asks about past favourites.
  ['history', new RegExp(`${TRACK_RECORD.source}|\\b(?:history|historical|past (?:outcomes|decisions)|previous (?:outcomes|decisions))\\b`, 'i')],
  ['market_least', /\b(?:least likely|unlikel\w*|underdog|dog|long ?shot|least favou?red|lowest)\b/i],
  ['closing', /\b(?:clos(?:e|es|ing)(?!\s+(?:above|below|over|under|at|higher|lower|between|in the)\b)|settl\w*|expir\w*|deadline|key dates?|important dates?|trading (?:stops?|ends?|halts?)|stop trading|last (?:day|time) to trade|when(?:'s| is| does| will)\b[^?]*\b(?:release|announcement|decision|print|report|game|launch)|ends?|resolved? (?:on|by)|when (?:does|will|is) (?:it|this|the (?:event|market|contract)) (?:resolve|end|finish)\w*|when (?:do|will|can|would|should) (?:we|i|you|they) (?:find out|know|hear|learn|get (?:paid|the result|an answer))|when (?:is|will) (?:it|this|that) (?:be )?(?:decided|known|paid out)|when (?:is|are|does|do|will)\b[^?]{0,30}\b(?:data|figures?|numbers?|results?|reading|index|report|average)\b[^?]{0,20}\b(?:released|published|come out|comes out|out|announced|reported|updated))\b/i],
  ['resolution', /\b(?:resolution|resolv\w*|rules?|source|criteria|units?|measured|count(?:s|ed)?|decides?|determin\w*|flip\w*|(?:weather |which |what )station|settle(?:s|d)? (?:on|by|against)|correct(?:ed|ion|ions)?)\b/i],
  ['moves', /\b(?:mov(?:e|ed|es|ing)|moves?|(?<!\bno )changed?|trend\w*|volume|surge\w*|momentum|shift\w*)\b/i],
  ['market_favourite', /\bwho(?:'s|s| is| will)? (?:gonna|going to|likely to|expected to|set to)\b|\b(?:most likely|(?:most|more) probable|likel(?:y|iest)|favou?rite|favou?red|favs?|fave|front-?runner|leading|leads|ahead|winner|win|pick|expected|consensus|top)\b/i],
  // A price asked in words of its own ("what's the price of hold?", "what does a cut trade at?", "how much is hold?").
  ['outcome', /\b(?:prices?|pric(?:ing|ed)|trad(?:es?|ing|ed) at|market (?:says?|saying|thinks?)|how much (?:is|are|does|do)|quoted? at|implied)\b|\bwhat(?:'s| is| are)\b.*\bat\s*\??\s*$/i],
];

/** The report in brief: "tl;dr", "summarize it", "in one sentence", "bottom line?". */
const SUMMARY = /\bin (?:one|a|1) (?:short )?paragraph\b|\b(?:for|to) (?:a )?(?:general audience|general readers|readers|laypeople|non-experts)\b|\bexplain (?:the |this |that )?(?:[a-z0-9]+ ){0,3}(?:market|event)\b(?! (?:cap|data|share|value)\b)|\b(?:tl;?\s?dr|summar(?:y|ise|ize|ised|ized|ising|izing)|sum (?:it|this|that) up|bottom line|key (?:points|takeaways?)|gist|(?:short|quick|brief) (?:version|take|read|rundown)|(?:[1-3]|one|two|three)[- ]line(?:r|s)?(?: (?:version|summary|take))?|in brief|nutshell|recap|eli5|upshot)\b|^\W*(?:(?:ok|so|and)\W+)?(?:how(?:'s|s| is| are)? (?:it|this|that|things?|the (?:market|event)) looking|what(?:'s|s| is) the (?:overall )?(?:picture|outlook|read|vibe|verdict|story))\b/;
/** A length asked with nothing else ("in one sentence?"): the report in brief; with a question ("the most likely outcome, in one sentence?"), that question. */
/** "In 2 sentences", "three lines": how many a summary is asked in (one is its own form). */
function sentencesAsked(question: string): number | null {
  const said = /\b(?:in |with |using )?(two|2|three|3|four|4)\s+(?:short\s+)?(?:sentences?|lines?)\b/i.exec(question)?.[1]?.toLowerCase();
  return said ? ({ two: 2, three: 3, four: 4 } as Record<string, number>)[said] ?? Number(said) : null;
}
const IN_BRIEF = /\b(?:(?:in )?(?:one|a|1|two|2|three|3|a few) (?:short )?(?:sentences?|lines?)|one[- ]liner)\b/;
/** A trader's form asked ("one line for a trader", "for the desk"): its terms of the trade kept. */
const FOR_TRADERS = /\b(?:traders?|desk|quants?|pros?|technical|jargon|with (?:the )?(?:numbers|spreads?|gaps?))\b/i;
const ONE_SENTENCE = /\b(?:in (?:one|a|1) (?:short )?(?:sentence|line)|(?:one|1|single) (?:short )?sentence|one[- ]liner)\b/i;

/** The trade the model favours, of no outcome in particular: "which outcome would you buy?", "best bet?", "where's the edge?". */
const BEST_TRADE = /\b(?:(?:best|worst) (?:(?:ev|\+ev|expected[- ]value) )?(?:trade|bet|buy|value|opportunity|edge)|better (?:trade|bet|buy)|(?:is|was) (?:it|that|this) (?:a )?(?:good|bad|smart) (?:bet|buy|trade)|(?:is|was) (?:it|that|this) worth (?:it|a bet|buying)|what would (?:the model|you|it) (?:bet on|buy|back|trade)|(?:rank|list|sort|order) (?:every|all|each|the)? ?(?:of the )?(?:trades?|bets?|buys?)|(?:which|what) (?:one |outcome |contract |side )?(?:would|should|do) (?:you|i) (?:buy|bet on|back|pick|trade)|\b(?:would|should) (?:you|i) (?:buy|bet on|back)\b|where(?:'s| is) the (?:edge|value)|(?:any|is there (?:an? )?)(?:edge|value|good bets?)\b)/;

/** "Explain this like I'm a beginner, what am I actually betting on?": how the market works, in plain words. */
const BASICS = /\b(?:eli5|(?:explain|tell me) what (?:a |an )?(?:contract|event contract|yes contract|prediction market) is|what(?:'s| is) (?:a |an )?(?:event )?contract\b|how do(?:es)? (?:a )?contracts? work|explain (?:it|this|that)(?: to me)? like (?:i'?m|im|i am) (?:a beginner|five|5|new)|like (?:i'?m|im|i am) (?:a beginner|five|5)|for (?:a )?beginners?|(?:i'?m|im|i am) new (?:to|at) (?:this|betting|prediction markets|kalshi)|what am i (?:actually |really )?betting on|what(?:'s| is|s)? (?:this|that|the) (?:market|event|bet|contract|thing)?\s*(?:even |actually |all )?about\b|how does (?:this|it|a contract|kalshi) (?:even )?work|how (?:do|can|could|would|might|will|does) (?:i|you|we|one|someone) (?:lose|make|win) (?:money|on (?:this|it|that))|what does (?:it|that) mean when [^?]{0,40}\b(?:says?|shows?|is at|trades? at|prices? (?:it )?at)\s+\$?\d+(?:\.\d+)?\s*(?:c|¢|cents?)|what does [^?]{0,30}?\$?\d+(?:\.\d+)?\s*(?:c|¢|cents?)\b[^?]{0,40}\bmean)\b/i;

/** What could move the prices before the end ("any catalysts before close?", "what would change your mind?"). */
const CATALYSTS = /\bcatalysts?\b|\bwhat (?:would|could|might) (?:change (?:your|ur|yer) mind|move (?:it|this|the (?:price|market|odds))|change (?:it|this|the (?:price|odds)))\b|\bwhat to watch\b|\bwhat(?:'s| is) coming up\b/i;

/** How much to stake ("how much should I size with $1000?", "Kelly on NO 96k?"): the Kelly fraction of the trade meant. */
export const SIZING = /\bkelly\b|^\W*(?:(?:and|ok|so|then)\W+)?(?:(?:a\s+)?half|(?:a\s+)?quarter|a third|double|twice)(?:\s+(?:of\s+)?(?:that|it|this|the stake|the bet|the size|kelly))?(?:\s+(?:then|pls|please))?\W*$|\bbankroll\b|\bposition siz(?:e|ing)\b|\bhow (?:much|big|large) (?:should|would|do|can) (?:i|we|you) (?:bet|put|risk|stake|wager|size|allocate|go)\b|\bhow should (?:i|we) size\b|\bsiz(?:e|ing) (?:it|this|that|my|the|a) (?:bet|position|trade)\b|^\W*(?:(?:ok|so|and|now|then)\W+)?siz(?:e|ing) (?:it|this|that|them|the trade|the bet)(?: up)?\b|\bhow (?:much|many) (?:should (?:i|we) )?(?:put |bet |stake |risk )?(?:on|in(?:to)?|for) (?:it|this|that|them)\b(?=[^?]*\b(?:with|bankroll|roll|\$|\d+k\b|\d+ (?:bucks|dollars)))/i;

/** "Anything weird in the pricing?", "does the market look off?": what stands out in the report's prices. */
const ANOMALY = /\b(?:priced|prices?|ladder|rungs?)\b[^?]*\b(?:in order|out of order|monotonic\w*|consistent|cross(?:ed|es|ing)?)\b|\b(?:weird|odd|strange|unusual|anomal\w*|inconsisten\w*|suspicious|funny|fishy|out of line|stand(?:s)? out|red flags?)\b[^?]*\b(?:pric\w*|odds|market|book|quotes?|trading)\b|\b(?:pric\w*|odds|market|book|quotes?|trading)\b[^?]*\b(?:weird|odd|strange|unusual|anomal\w*|inconsisten\w*|suspicious|fishy|out of line|look(?:s)? (?:off|wrong))\b/i;

/** A price asked in cents ("price in cents?", "how many cents is hold?"). */
const CENTS_ASKED = /\b(?:in|as|into|to)\s+(?:cents?|¢|pennies)\b|\bhow many cents\b/i;
/** Only a unit asked of the answer before ("in cents?", "as a percentage?", "what's that in percent"). */
const UNIT_ONLY = /^\W*(?:(?:and|ok|so|now|pls|please|can you|what(?:'s| is)|whats)\W+)*(?:(?:the\s+)?(?:odds|price|prices|chance|chances|it|that|those|this|them|give (?:it|that|them))\s+)?(?:in|as|into|to)\s+(?:a\s+)?(?:cents?|¢|percent(?:age)?s?|%|probabilit(?:y|ies))(?:\s+(?:pls|please|instead|then))?\W*$/i;

/** Each outcome's prices in cents a contract (a contract pays $1, so cents are the market's chance in percent), the model's chance as its fair price. */
function centsText(shown: Row[], contracts: Map<string, Contract>): string {
  const cents = (dollar: string | undefined) => (dollar && /^\$\d/.test(dollar) ? `${Math.round(Number(dollar.slice(1)) * 100)}¢` : null);
  const lines = shown.map((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    const [bid, ask, last] = [cents(c?.bid), cents(c?.ask), cents(c?.last)];
    const book = bid && ask ? `bid ${bid}, ask ${ask}` : last ? `no two-sided quote, last trade ${last}` : 'no quote';
    const fair = Number.isFinite(r.modelValue) ? `; the model's ${r.model} makes a fair price of about ${Math.round(r.modelValue)}¢` : '';
    return `- **${name}**: ${Number(r.marketValue.toFixed(1))}¢ (${book}), a ${percent(r.marketValue)} chance on the market${fair} ${refs}`.trimEnd();
  });
  return `${lines.join('\n')}\n\nA contract pays $1 (100¢) if it resolves YES, so its price in cents reads as the market's chance in percent; NO costs 100¢ less the YES bid.`;
}

/** "Why so low?", "why is it that high?", "how come it's so low": a price questioned, of the outcome discussed. */
const WHY_LEVEL = /^\W*(?:(?:ok\W+|so\W+)?back to [^,:;?]{1,30}[,:;]\s*)?(?:(?:and|but|ok|so|hmm)\W+)?(?:why|how come)\s+(?:(?:is|'s|s)\s+)?(?:(?:it|that|this|its|it's|that's|the price|the market)\s+)?(?:(?:so|that|this|this|too)\s+)(?:low|high|cheap|expensive|pricey|dear|rich|little|much)(?:\s+(?:on|for|of)\s+(?:the\s+)?[^?.!]{1,40})?\W*$/i;
/** "Why is hold at 16%?", "how come Below 41% is so low?": the outcome's price explained from the report. */
const WHY_PRICED = /\b(?:why|how come)\b/i;
/** "Why did it drop this week?", "how come hike jumped?", "why is it down today?": a move, not a level. */
const WHY_MOVED = /\b(?:why|how come)\b[^?]*\b(?:drop(?:s|ped)?|fall(?:s|en)?|fell|sink|sank|slid(?:e|es)?|slump(?:s|ed)?|dip(?:s|ped)?|plung(?:e|es|ed)|plummet(?:s|ed)?|tank(?:s|ed)?|crash(?:es|ed)?|collaps(?:e|es|ed)|ris(?:e|es|en)|rose|jump(?:s|ed)?|spik(?:e|es|ed)|surg(?:e|es|ed)|climb(?:s|ed)?|rall(?:y|ies|ied)|soar(?:s|ed)?|mov(?:e|es|ed)|shift(?:s|ed)?|swung|(?:go|gone|went|been) (?:up|down)|(?:up|down) (?:so much|this week|today|since|over|in the last)|(?:is|it's|are) (?:up|down)\b)/i;

/** A point spread asked of a game ("lakers -4.5 spread", "will KC cover?", "against the spread"). */
const POINT_SPREAD = /\b(?:cover|covers|covering|ats|against the spread|point spread|handicap)\b|[+\-−]\s?\d{1,2}(?:\.5)?\s*(?:spread|points?|pts|line)\b|\b(?:spread|line) (?:of )?[+\-−]\s?\d{1,2}(?:\.5)?\b/i;

/** The report's sources asked for ("where do ur numbers come from? links pls", "sources?", "what's your data source"). */
const SOURCES_ASKED = /^\W*(?:(?:and|ok|so)\s+)?(?:(?:what(?:'s| are| is)|whats)\s+(?:the|your|ur)\s+)?(?:sources?|citations?|links?)\b|\bwhere (?:do|did|does) (?:ur|your|the|these|those|this|that|it|you|u|ya) (?:\w+ )?(?:get|come from|came from)\b|\bwhere did you get\b|\b(?:links?|sources?) (?:pls|please|plz)\b|\bdata sources?\b/i;

/**
 * One named thing passing another ("will ethereum flip solana?", "can hold overtake hike?", "will
 * hike beat hold?"): the verb, followed by a name, not by "it", "the outcome" or the like, which
 * is the rules' flip ("what could flip it?", "anything that flips the result?"), as is a verb after
 * "what" or "anything" ("what could flip hold?").
 */
export const PASSING = /(?<!\b(?:what|which|anything|something|nothing|that|who|news|event|events)(?:\s+(?:could|would|might|can|will|may|to|ever))?\s+)\b(?:flip(?:s|ped|ping)?|overtak(?:e|es|en|ing)|overtook|outpac(?:e|es|ed|ing)|beat(?:s|ing)?|pass(?:es|ed|ing)?|surpass(?:es|ed|ing)?|overtake)\s+(?=(?!(?:it|its|this|that|these|those|them|they|things?|anything|everything|something|the (?:outcomes?|results?|markets?|events?|resolution|call|contracts?|bets?|trades?|rules?|odds|price|prices|line|coin|script|switch))\b)(?:the\s+)?[a-z0-9])/i;

/** A bare "why?" of the answer before ("why?", "how so?", "why is that?", "explain the first one"). */
const WHY_FIRST_POINT = /^\W*(?:(?:and|ok|so|but|hmm)\W+)?(?:why(?:'s that| is that| so| that| the gap| the first(?: one| point)?)?|how so|how come|explain(?: that| it| the first(?: one| point| gap)?)?|what drives (?:that|it|the first one|the (?:first|largest|biggest) gap)|why the (?:first|largest|biggest) (?:one|gap|point))\W*$/i;

/** "Why is the model lower?", "how come the model is higher": the model against the market, of no outcome named. */
const WHY_MODEL_SIDE = /^\W*(?:(?:and|ok|so|but|hmm)\W+)?(?:why|how come)\b[^?]{0,30}\bmodel(?:'s)?\b[^?]{0,30}\b(?:lower|higher|below|above|less|more|under|over|disagree\w*|differ\w*|different)\b[^?]{0,20}\W*$/i;

/**
 * The outcome an answer from a report led with: the first of its outcomes said in bold in its first
 * paragraph ("The market's favourite is **Hike 25bps**", "The most likely range is **above 3.2**");
 * none when it was no answer from a report or named none.
 */
function ledOutcome(answer: string, rows: readonly Row[]): Row | undefined {
  if (!ANSWERED_FROM.test(answer)) return undefined;
  const head = answer.trimStart().split(/\n\s*\n/)[0]!.toLowerCase();
  const at = rows.map((r) => ({ r, i: head.indexOf(`**${outcomeOf(r.outcome).name.toLowerCase()}**`) })).filter((x) => x.i >= 0).sort((a, b) => a.i - b.i);
  return at[0]?.r;
}

/**
 * The model set against the market ("compare with the market", "how does hike compare to the
 * market?", "how does that stack up against the crowd"): the outcome's price, model and gap, not
 * the method nor other events.
 */
const MARKET_COMPARED = /\b(?:compar\w*|stack(?:s|ing)? up|measur\w* up)\b[^?]{0,30}?\b(?:with|to|against|vs\.?|versus)\s+(?:the\s+|what the\s+)?(?:market(?:'s)?(?:\s+(?:price|odds))?|crowd|price|odds|model)\W*$|^\W*(?:(?:and|ok|so|now)\W+)?(?:compare(?: (?:it|that|this))?|vs\.?|versus|against)\s+(?:the\s+)?(?:market|crowd|model)\W*$/i;
/** MARKET_COMPARED, of a question with outcomes read back in brackets ("compare with the market (Hike 25bps)"). */
const marketCompared = (question: string) => MARKET_COMPARED.test(question.replace(/\s*\([^)]*\)/g, ' ').trim());

/** What a follow-up asks about the event, or null when it asks for nothing the report answers on its own. */
export function eventQuestion(question: string): EventQuestion | null {
  // ("Will ethereum flip solana?", "can hold overtake hike?": one named thing passing another, a comparison, not the rules' flip.)
  const q = question.toLowerCase().replace(new RegExp(PASSING.source, 'gi'), 'beat ');
  if (SOURCES_ASKED.test(q)) return 'sources';
  // ("Compare with the market", "how does hike compare to the model": the outcome's market against its model.)
  if (marketCompared(q)) return 'outcome';
  // "Why no two sided quote?": the order book, said from the contract snapshot.
  if (QUOTE_MISSING.test(q)) return 'quote';
  // "Is this a safe bet?", "what stands out?", "what's the smartest play here?": answered from the report's facts (see open-questions).
  const open = openAsked(q);
  if (open) return open === 'standout' ? 'anomalies' : open === 'risk' ? 'quote' : 'best_trade';
  // "And if i'm wrong?", "what do i lose if it goes the other way": the downside of a trade (see if-wrong).
  if (WRONG_ASKED.test(q)) return 'quote';
  // "Is it going to be warmer than last week?": the figure against an earlier reading, which no report holds; what it expects instead.
  if (pastLevelAsked(q)) return 'expected';
  // "When?" alone (after "who decides how it resolves, and"): when it closes and resolves.
  if (/^\W*(?:and\s+)?when(?: exactly)?\s*\??\s*$/.test(q)) return 'closing';
  // "How do I hedge?": the position's offsets, on the quotes.
  // ("I hold 100 yes on hike", said alone: that position, where it stands and its offsets.)
  if (hedgeAsked(q) || positionAlone(q)) return 'quote';
  // "I bought 100 hold yes at 12c last week, where am I now?": the position marked at the book, not last week's prices.
  if (heldPosition(question)) return 'quote';
  // ("Whats it worth now?", "should i sell?": the position held, said before, marked at the book.)
  if (POSITION_ASKED.test(q) && !WRONG_ASKED.test(q)) return 'quote';
  // "How much can I buy at 34c?", "how much hike can i buy before the price moves?": what the book is good for.
  // ("How much should I size on that with a $5,000 bankroll?" is a stake, not the book's depth.)
  if (DEPTH_ASKED.test(q) && !ARBITRAGE.test(q) && !(SIZING.test(q) && /\b(?:bankroll|kelly)\b/.test(q))) return 'quote';
  // "How many of the last 5 came in below 41?", "last 3 weeks, which bucket won?": the series' record, counted.
  // (A count claimed, "lakers won 4 of the last 5 right?", is checked first, whatever else is asked; a
  // short one, "below 0 in the last 6", needs no verb; prices and volumes over days are moves.)
  if (LAST_CLAIM.test(q) && !WHY_PRICED.test(q)) return 'history';
  if (LAST_N.test(q) && !WHY_PRICED.test(q) && !/\b(?:price|prices|priced|move|moves|moved|volume|traded|change|changed)\b/.test(q) && (/\b(?:how many|how often|which|what|did|won|win|hit|resolv\w*|settl\w*|finish\w*|c[oa]me in|ship\w*|happen\w*|readings?|times|right)\b/.test(q) || q.split(/\s+/).length <= 8)) return 'history';
  // "Has the market been good at calling these games?", "what's the most common bucket?", "how did lakers do recently": the series' record.
  if (RECORD_ASKED.test(q) && !WHY_PRICED.test(q) && !PAST.test(q)) return 'history';
  if (BASICS.test(q) || HOME_AWAY.test(q)) return 'basics';
  // "Which movie is this about?": what the event is of, as its title and rules say.
  // ("Which movie is this?", "what teams are playing?": the same.)
  if (SUBJECT_ASKED.test(q) || SOURCE_NAMED.test(q)) return 'resolution';
  // "Coin flip?", "toss-up?": how likely, not what flips the outcome.
  if (/\b(?:coin ?flip|toss[- ]?up|50\s*[/-]\s*50)\b/.test(q)) return 'outcome';
  if (CATALYSTS.test(q)) return 'catalysts';
  // "Explain the out-of-order thing for a lay reader": the crossing, in plain words.
  if (/\bout[- ]of[- ]order\b|\bcross(?:ed|es|ing)?\b|\binconsisten\w*/.test(q) && (PLAIN_ASKED.test(q) || /\bexplain\b/.test(q))) return 'anomalies';
  if (SUMMARY.test(q)) return 'summary';
  // "Headline version please", "one quotable line I can use in a story", "tweet-length": the report in a reader's words.
  if (PLAIN_ASKED.test(q) && !/\bwhat (?:does|do|is|are)\b[^?]*\bmean\b/.test(q)) return 'summary';
  if (ANOMALY.test(q)) return 'anomalies';
  // "Why is 104k priced over 100k?": a ladder's rungs out of order, what stands out in its prices.
  if (/\b(?:why|how come|how can)\b[^?]*\b(?:priced|trad(?:es|ing|ed)|cost(?:s|ing)?|worth)\s+(?:over|above|higher than|more than)\b/.test(q) && levelsIn(question).length + (q.match(/\b\d+(?:\.\d+)?k?\b/g)?.length ?? 0) >= 2) return 'anomalies';
  // "Why did it drop this week?": a price move, explained as far as the report can.
  if (WHY_MOVED.test(q)) return 'moves';
  // "In cents?", "as a percentage?": the price of the outcome discussed, in that unit.
  if (UNIT_ONLY.test(q) || (CENTS_ASKED.test(q) && /\b(?:price|prices|odds|chances?|quote|how much|what(?:'s| is))\b/.test(q) && !/\b(?:spread|bid|ask|cost|ev|kelly|buy|sell)\b/.test(q))) return 'outcome';
  // "Why so low?", "why is it so high?": the price of the outcome discussed, explained.
  if (WHY_LEVEL.test(q)) return 'outcome';
  // "Why is the market at 51%?", "why is hike priced so high?": an outcome's price, explained.
  if (WHY_PRICED.test(q) && /\b(?:market|priced?|prices|trad(?:es|ing)|odds|at \d+(?:\.\d+)?%|only \d+)/.test(q) && !METHOD.test(q) && !/\bmodel\b/.test(q)) return 'outcome';
  if (LEVEL_EXPECTED_ASKED.test(q) || CURRENT_LEVEL.test(q)) return 'expected';
  if (ODDS_FORMAT_ASKED.test(q)) return 'odds_format';
  // ("Is there an arb between 100k and 104k? how big can i go?": the arbitrage, with its size.)
  if (/\barb(?:itrage)?s?\b/.test(q) && ARBITRAGE.test(q)) return 'arbitrage';
  if (BEST_TRADE.test(q) || SIZING.test(q)) return 'best_trade';
  if (ARBITRAGE.test(q)) return 'arbitrage';
  // "The sum of probabilities above 4%" filters outcomes by price; it does not ask for the overround.
  if (PRICED.test(q)) return 'outcome';
  // "What did yesterday's high resolve to?", "how many launches last week?": the series' last event, not prices then.
  if (PAST.test(q) && /\b(?:resolv\w*|settl\w*|happen\w*|won|result\w*|how many|c[oa]me in|printed|hit|paid(?: out)?|pay out)\b/.test(q)) return 'previous';
  if (PAST.test(q) && !TRACK_RECORD.test(q)) return 'moves';
  // ("Kalshi december cpi: what's the crowd saying?" asks the open December event, not last December's.)
  const monthNow = !/\b(?:did|was|were|had|happened|resolved|settled|printed|came in|paid|went|ended|closed|last|previous|prior|preceding|earlier|before|ago)\b/.test(q) && /\b(?:what(?:'s| is| are)|whats|will|saying|say|says|think|thinks|priced|pricing|expect\w*|odds|chances?)\b/.test(q);
  if (PREVIOUS_EVENT.test(q) && !monthNow) return 'previous';
  if (METHOD.test(q)) return 'method';
  // "Sum of probabilities above $40M" adds up the outcomes beyond a level: no overround.
  // ("Do they sum to 100?": the hundred percent they should come to, no level.)
  if (OVERROUND.test(q) && !levelsIn(question.replace(/\d+(?:\.\d+)?\s*%|\b(?:to|of)\s+100\b/g, ' ')).length) return 'overround';
  if (SOURCE_ASKED.test(q)) return 'resolution';
  // "What do the rules say about the settlement time?" asks for the rules' words, not the schedule.
  if (/\brules?\b/.test(q) && !levelsIn(question).length) return 'resolution';
  // "So if I buy hold on the fed at 16c what happens?": a trade at a price, not a case of the rules.
  if (/\b(?:buy|bought|get|grab)\b[^?]{0,40}\bat\s+\$?\d+(?:\.\d+)?\s*(?:c|¢|cents?)\b/.test(q)) return 'quote';
  // "What happens to my money if the fed hikes?": what a contract pays on that outcome, not a case of the rules.
  if (/\bwhat happens to (?:my|our) (?:money|bets?|stakes?|positions?|contracts?|trades?)\b/.test(q)) return 'quote';
  // Before the dates: "what happens if it ends in a tie?" is about the rules, not when trading ends.
  if (RULE_CASE.test(q) && !levelsIn(question).length) return 'resolution';
  if (QUOTE.test(q) || FAIR_PRICE.test(q)) return 'quote';
  // "the volume on the hold contract", "which has the most open interest?": the contract snapshot's figures, not a surge.
  if (TRADING.test(q) && !/\b(?:surg\w*|spik\w*|jump\w*|mov\w*|chang\w*|trend\w*|this week|today)\b/.test(q)) return 'quote';
  // ("Is 58 too high?": the price judged on the model, not a level asked.)
  if (TOO_SAID.test(q)) return 'gap';
  if (PRICED.test(q)) return 'outcome';
  // "Who do you think wins?", "who wins the chiefs game?": the model's pick, beside the market's.
  if (/^\W*(?:(?:and|so|ok|okay)\W+)?(?:who|which (?:team|side|one)) (?:wins?|will win|takes? it)\b(?![^?]*\b(?:last|previous|before|toss|coin)\b)/.test(q)) return 'model_favourite';
  if (/\bwho (?:do you think|does the model think|do you (?:pick|like|have)|(?:will|would|is going to|gonna)) (?:wins?|win it|take it|come out on top)\b|\bwho (?:u|you|ya|do u|do you) (?:got|like|pick|taking)\b|\bwho(?:'s| is) your pick\b/.test(q)) return 'model_favourite';
  // "Can I sell before it closes?": how a position is left before the end, at the bid.
  if (SELL_BEFORE.test(q)) return 'quote';
  // "Which outcome does the model favour?" is about the model; "most likely" alone, about the market.
  if (/\bmodel\b/.test(q) && !PATTERNS[0]![1].test(q)) return 'model_favourite';
  // A level alone ("58 degrees?", "above 2.9%?") asks about the outcome at it.
  // A short choice between outcomes ("cut 25bps or hold?", "will they hold or cut?") asks for them.
  const choice = /\w\s+or\s+\w/.test(q) && q.split(/\s+/).length <= 8;
  // ("The one above it", "the other one", "sum of both cut outcomes": outcomes pointed at or added up.)
  const pointed = NEXT_UP.test(q) || NEXT_DOWN.test(q) || THE_OTHER.test(q) || /\b(?:sum|add(?:ed)? up|together|combined)\b/.test(q);
  // "So in plain words, what's the chance?": the outcomes' chances.
  if (/\bwhat(?:'s| is| are|s)? (?:the|its|their) (?:chances?|odds|probabilit(?:y|ies)|likelihood)\b/.test(q)) return 'outcome';
  return PATTERNS.find(([, pattern]) => pattern.test(q))?.[0] ?? (levelsIn(question).length || rangeAsked(question) || ordinalAsked(question) || choice || pointed ? 'outcome' : IN_BRIEF.test(q) ? 'summary' : null);
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];

/** An outcome asked for by its place in the report's table ("outcome 2", "the second outcome"), 1-based; -1 for the last. */
function ordinalAsked(question: string): number | null {
  const q = question.toLowerCase();
  const numbered = /\b(?:outcome|option|row)\s*(?:#|no\.?\s*)?(\d)\b/.exec(q);
  if (numbered) return Number(numbered[1]);
  const said = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|last)\s+(?:outcome|option|row)\b/.exec(q);
  return said ? (said[1] === 'last' ? -1 : ORDINALS.indexOf(said[1]!) + 1) : null;
}

/** Levels a question states, with units ("96k", "2.9%", "58 degrees") or after a direction ("above 60"). */
function levelsIn(question: string): number[] {
  const bare = [...question.matchAll(/\b(?:above|below|over|under|at least|at most)\s+\$?(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*(?:k|m|b|%|°))/gi)].map((m) => Number(m[1]!.replace(/,/g, '')));
  return [...new Set([...levelsAsked(question).map((l) => l.value), ...bare])];
}

/**
 * The report's outcomes the question names: by their words ("a cut", "hold"), a level it states
 * (on a ladder the rung at that level; among ranges the one open on the side asked, "below 44"
 * being "Below 44°F", else the one holding it), or a team of a game titled "Away at Home" whose
 * outcomes are "Away team" and "Home team".
 */
/** "Will they hike?", "will the Lakers win?", "so will the government shut down?": whether it happens, not who is favoured nor which of two ("will they hold or cut?"), nor a point spread ("will KC cover?"), which no winner market prices. */
function willItHappen(question: string, kind: EventQuestion | null, no: boolean): boolean {
  return !no && (kind === null || kind === 'outcome' || kind === 'market_favourite') && WILL_IT.test(question) && !/\b(?:favou?rites?|favou?red|most likely|likeliest|ahead|leading|leads|or(?! not\b)(?! (?:above|more|higher|over|greater|below|less|lower|under|fewer)\b)|cover|covers|spread)\b/i.test(question);
}

function namedRows(question: string, rows: Row[], title: string, levels: number[]): Row[] {
  // ("I hold 100 yes on hike": the verb names no outcome "Hold".)
  question = heldVerbFree(question);
  const range = rangeSaid(question, rows);
  if (range) return [range];
  const labels = rows.map((r) => outcomeOf(r.outcome).name.toLowerCase()).join(' ');
  // "KC" or "Kansas City" is the Chiefs of "Bills at Chiefs", whichever name the event uses.
  const teamsSaid = withTeamNames(question, `${title} ${labels}`);
  const said = teamsSaid.toLowerCase();
  // Words typed that may be an outcome's word with one slip ("hikke", "chefs").
  const typed = said.match(/[a-z]{4,}/g) ?? [];
  const q = withOutcomeSynonyms(said, labels);
  const ladder = isLadder(rows);
  const wordsOf = (s: string) => s.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const game = /^(.+?) at (.+?)(?: on |:|\?|$)/i.exec(title);
  const sides = game ? { away: wordsOf(game[1]!), home: wordsOf(game[2]!) } : null;
  const direction = sideAsked(question);
  const openOnSide = (range: LabelRange, v: number) => (direction === 'below' ? range.from === null && range.to === v : direction === 'above' ? range.to === null && range.from === v : false);
  const ranges = rows.map((r) => labelRange(outcomeOf(r.outcome).name));
  const sided = !ladder && ranges.some((range) => range !== null && levels.some((v) => openOnSide(range, v)));
  const atLevel = (range: LabelRange, v: number) => (ladder ? range.from === v || range.to === v : sided ? openOnSide(range, v) : inRange(range, v));
  const matched = rows.filter((r) => {
    const { name } = outcomeOf(r.outcome);
    const range = labelRange(name);
    if (range && levels.some((v) => atLevel(range, v))) return true;
    const side = /^(away|home) team$/i.exec(name)?.[1]?.toLowerCase() as 'away' | 'home' | undefined;
    if (side && sides && sides[side].some((w) => new RegExp(`\\b${w}`).test(q))) return true;
    const own = labelWords(name);
    return own.length > 0 && own.some((w) => new RegExp(`\\b${w}`).test(q) || typed.some((t) => misspelt(t, w)));
  });
  // Both sides of a game named ("the Chiefs lose to the Bills"): the one the question is about.
  const subject = matched.length > 1 ? contestSubject(teamsSaid) : null;
  const about = subject ? matched.filter((r) => labelWords(outcomeOf(r.outcome).name).some((w) => subject.startsWith(w))) : [];
  return mostSpecific(question, about.length === 1 ? about : matched);
}

/** The outcome whose range a question says from end to end ("150-225", "150k to 225k", "48 to 51"), in the labels' scale. */
function rangeSaid(question: string, rows: Row[]): Row | null {
  const unit = (u: string | undefined) => ({ k: 1e3, m: 1e6, b: 1e9 })[(u ?? '').toLowerCase() as 'k' | 'm' | 'b'] ?? 1;
  for (const m of question.matchAll(/(?<![\w.$-])\$?(\d[\d,]*(?:\.\d+)?)\s*([kmb])?\s*(?:-|–|to)\s*\$?(\d[\d,]*(?:\.\d+)?)\s*([kmb])?(?!\w|\.\d)/gi)) {
    const [a, b] = [Number(m[1]!.replace(/,/g, '')), Number(m[3]!.replace(/,/g, ''))];
    // A unit said once is both ends' ("150 to 225k"); said at neither, the labels' own may be meant ("150-225" of "150k to 225k").
    const scales = m[2] || m[4] ? [unit(m[2] ?? m[4])] : [1, 1e3, 1e6];
    const hits = rows.filter((r) => {
      const x = labelRange(outcomeOf(r.outcome).name);
      return x !== null && scales.some((k) => x.from === a * (m[2] ? unit(m[2]) : k) && x.to === b * (m[4] ? unit(m[4]) : k));
    });
    if (hits.length === 1) return hits[0]!;
  }
  return null;
}

/**
 * Words and amounts of a text, an amount with its unit as one ("25 %" → "25%"). Basis points are
 * the unit of a rate move whether said or not: "25bp", "25 bps", "25 basis points" and a bare "25"
 * beside "cut" are all the "25" of "Cut 25bps".
 */
const tokensOf = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .replace(/(\d)\s*(?:bps?|basis points?)\b/g, '$1')
      // ("25 move" is no "25m": a unit is a word of its own.)
      .replace(/(\d)\s+(k|m|%)(?![a-z])/g, '$1$2')
      .match(/[a-z]+|\d+(?:\.\d+)?[a-z%]*/g) ?? [],
  );

/**
 * Of the outcomes a question's words matched, those it names whole: "a 25bps cut" is "Cut 25bps",
 * not also "Cut more than 25bps"; of two named whole, one inside the other ("Cut 25bps" in "a cut
 * of more than 25bps") is the longer, unless it is said as it is written. None named whole ("a
 * cut"): all of them.
 */
function mostSpecific(question: string, named: Row[]): Row[] {
  if (named.length < 2) return named;
  // "A cut or a hold" names two things: each narrowed on its own ("cut" keeps both cuts, "hold" the hold).
  const q = question.toLowerCase();
  const key = (r: Row) => labelWords(outcomeOf(r.outcome).name).filter((w) => new RegExp(`\\b${w}`).test(q)).sort().join(' ');
  const groups = new Map<string, Row[]>();
  for (const r of named) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const keys = [...groups.keys()];
  // Groups apart only when neither's words hold the other's ("cut" and "cut bps" are one thing asked).
  const apart = keys.length > 1 && keys.every((a) => keys.every((b) => a === b || !a.split(' ').every((w) => b.split(' ').includes(w))));
  if (apart) return [...groups.values()].flatMap((g) => narrowed(question, g));
  return narrowed(question, named);
}

/**
 * A word typed with one slip of a label's word: any slip of one of five letters or more ("chefs"
 * of "chiefs"), only a letter too many of one of four ("hikke" of "hike", not "like" nor "held").
 */
function misspelt(typed: string, word: string): boolean {
  if (typed === word || word.length < 4 || typed.startsWith(word) || word.startsWith(typed)) return false;
  if (word.length === 4 && typed.length !== 5) return false;
  return Math.abs(typed.length - word.length) <= 1 && editDistance(typed, word, 1) <= 1;
}

/** Words of an outcome label that name it ("cut", "hold", "celtics"), not the generic ones ("above", "team"). */
const GENERAL_WORDS = new Set(['above', 'below', 'over', 'under', 'more', 'less', 'than', 'the', 'and', 'yes', 'win', 'wins', 'team']);
const labelWords = (s: string) => (s.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !GENERAL_WORDS.has(w));

function narrowed(question: string, named: Row[]): Row[] {
  if (named.length < 2) return named;
  const asked = tokensOf(question);
  const name = (r: Row) => outcomeOf(r.outcome).name;
  const whole = named.filter((r) => [...tokensOf(name(r))].every((t) => asked.has(t)));
  if (!whole.length) return named;
  const inside = (r: Row, o: Row) => {
    const [a, b] = [tokensOf(name(r)), tokensOf(name(o))];
    return b.size > a.size && [...a].every((t) => b.has(t));
  };
  return whole.filter((r) => question.toLowerCase().includes(name(r).toLowerCase()) || !whole.some((o) => o !== r && inside(r, o)));
}

/** Numbers with units the question gives ("50bps") that the outcomes it was matched to do not have: it asked for an outcome the event lacks. */
function unmatchedAmounts(question: string, named: Row[]): string[] {
  const asked = question.toLowerCase().match(/\b\d+(?:\.\d+)?\s*(?:bps?|basis points?|pts?|launch\w*|points?)\b/g) ?? [];
  // "4 launches" is the outcome "4" of a count's event.
  const exactly = (r: Row, n: number) => {
    const range = labelRange(outcomeOf(r.outcome).name);
    return range !== null && range.from === n && range.to === n;
  };
  return asked.filter((a) => !named.some((r) => r.outcome.toLowerCase().replace(/\s+/g, '').includes(a.replace(/\s+/g, '').replace(/basispoints?/, 'bps')) || exactly(r, parseFloat(a))));
}

/** A rung asked from its other side ("below 3%" of "Above 3.0"): that side's figures, which are the rung's complements. */
function otherSideLine(r: Row, side: string, said: string): string {
  const { name, refs } = outcomeOf(r.outcome);
  const [market, model] = [100 - r.marketValue, 100 - r.modelValue];
  return `- “${side} ${said}” is the other side of **${name}**: market about ${percent(market)}, model ${percent(model)}, gap ${points(Number(model.toFixed(1)) - Number(market.toFixed(1)))} ${refs}`.trimEnd();
}

/**
 * One side of a level among exclusive ranges ("above 60" of "… 56°F or above"): the outcomes wholly
 * on that side, added up, and the one the level falls inside, which bounds the answer.
 */
function coverText(asked: string, level: string, cover: { whole: Row[]; split: Row | null }, question = ''): string {
  const { whole, split } = cover;
  const shown = [...whole, ...(split ? [split] : [])];
  // ("Odds of 5 or more?": the outcome named in its own words is only its line, not "“at least 5” is **5 or more**".)
  if (whole.length === 1 && !split && ownWords(question, outcomeOf(whole[0]!.outcome).name)) return rowLine(whole[0]!);
  const figures = (rs: Row[]) => `market ${percent(sumOf(rs, (r) => r.marketNormalised))} normalised${modelSum(rs)}`;
  let head: string;
  if (!whole.length) head = `No outcome is “${asked}”: ${level} falls inside ${names([split!])} (${figures([split!])}), so its chance is at most that ${refsOf([split!])}.`;
  else if (!split) head = `“${asked}” is ${names(whole)}: ${whole.length > 1 ? 'together ' : ''}${figures(whole)} ${refsOf(whole)}.`;
  else
    head = `“${asked}” is ${names(whole)} (${figures(whole)}) and part of ${names([split])}, which ${level} falls inside: market between ${percent(sumOf(whole, (r) => r.marketNormalised))} and ${percent(sumOf(shown, (r) => r.marketNormalised))} normalised${modelBetween(whole, shown)} ${refsOf(shown)}.`;
  return `${head}\n\n${shown.map(rowLine).join('\n')}`;
}

/** Prices asked in dollars ("in dollars", "as $"). */
const DOLLARS_ASKED = /\b(?:in|as|into|to|back to)\s+(?:dollars?|usd|\$)(?!\w)/i;

/** Whether the user asked for prices in cents earlier in the thread (latest turn first) and not for another unit since, nor now. */
function centsKept(question: string, earlier: readonly { role: 'user' | 'assistant'; content: string }[]): boolean {
  if (CENTS_ASKED.test(question) || DOLLARS_ASKED.test(question)) return false;
  for (const t of earlier) {
    if (t.role !== 'user') continue;
    if (DOLLARS_ASKED.test(t.content)) return false;
    if (CENTS_ASKED.test(t.content)) return true;
  }
  return false;
}

/** Whether a question says an outcome's name as it is written ("5 or more", "56°F or above"; "56 or above" too, a unit left out). */
function ownWords(question: string, name: string): boolean {
  const bare = (t: string) => ` ${t.toLowerCase().replace(/°[fc]\b/g, '').replace(/[^a-z0-9.$,]+/g, ' ').replace(/\s+/g, ' ').trim()} `;
  return bare(question).includes(bare(name));
}

/** "they don't hike": the other side of the outcomes named, together (exclusive outcomes). */
function notLine(named: Row[]): string {
  const [market, normalised, model] = [100 - sumOf(named, (r) => r.marketValue), 100 - sumOf(named, (r) => r.marketNormalised), 100 - sumOf(named, (r) => r.modelValue)];
  const same = Math.abs(market - normalised) < 0.05;
  return `Not ${named.map((r) => `**${outcomeOf(r.outcome).name}**`).join(' or ')}: market about ${percent(Math.max(0, market))}${same ? '' : ` (${percent(Math.max(0, normalised))} normalised)`}, model ${percent(Math.max(0, model))} ${refsOf(named)}\n\n${named.map(rowLine).join('\n')}`;
}

/** The rungs of a ladder on either side of a level that falls between them, lower level first. */
function rungsAround(rows: Row[], v: number): [Row, Row] | null {
  const sorted = byLevel(rows);
  for (let i = 1; i < sorted.length; i++) if (levelOfRow(sorted[i - 1]!)! < v && v < levelOfRow(sorted[i]!)!) return [sorted[i - 1]!, sorted[i]!];
  return null;
}

/**
 * A level past a ladder's end ("under 2.5" of rungs "Above 2.6" … "Above 3.2"): bounded by the
 * nearest rung. Above its lowest "Above" rung is at least that rung; below it, at most what it
 * leaves; past the highest, the other way round. Null when the level is inside the ladder.
 */
function beyondLadder(rows: Row[], v: number, side: 'above' | 'below', said: string): string | null {
  const sorted = byLevel(rows);
  if (sorted.length < 2 || (v > levelOfRow(sorted[0]!)! && v < levelOfRow(sorted.at(-1)!)!)) return null;
  const below = v < levelOfRow(sorted[0]!)!;
  const nearest = below ? sorted[0]! : sorted.at(-1)!;
  const rung = rungSide(labelRange(outcomeOf(nearest.outcome).name)) ?? 'above';
  // Of the rung's own side: past its lowest "Above" rung is more likely than it, past its highest less.
  const sameBound = (rung === 'above') === below ? 'at least' : 'at most';
  const bound = side === rung ? sameBound : sameBound === 'at least' ? 'at most' : 'at least';
  const value = (x: number) => percent(side === rung ? x : 100 - x);
  const name = `**${outcomeOf(nearest.outcome).name}**`;
  const what = side === rung ? name : `what ${name} leaves`;
  return `No rung is at ${said}: it is ${below ? 'below' : 'above'} the event's levels, so “${side} ${said}” is ${bound} ${what}: market ${bound} ${value(nearest.marketValue)}, model ${bound} ${value(nearest.modelValue)} ${refsOf([nearest])}.\n\n${rowLine(nearest)}`;
}

/**
 * The answer to a question about a reported event, from the report: the outcomes it names, else
 * what it asks (see eventQuestion); null when the report does not hold that (the caller then shows
 * the report whole).
 */
/** Two (or more) sides set against each other: "hold vs hike", "which is cheaper, hold or a 25bp cut?". */
const COMPARE = /\b(?:vs\.?|versus|compared? (?:to|with)|against|cheap(?:er|est)|likelier|more likely|less likely|most likely|more expensive|pricier|dearer)\b/i;
const SIDE_SEPARATOR = /\s+(?:vs\.?|versus|or|compared (?:to|with)|against)\s+/i;

/** The outcomes each side of a comparison names, when it has two or more sides naming different ones. */
function comparedSides(question: string, rows: Row[], title: string): Row[][] | null {
  const parts = question.split(SIDE_SEPARATOR);
  if (parts.length < 2) return null;
  const sides = parts.map((part) => namedRows(part, rows, title, levelsIn(part)));
  if (sides.some((side) => !side.length || side.length === rows.length)) return null;
  const seen = new Set<Row>();
  for (const side of sides) for (const r of side) if (seen.has(r)) return null;
  else seen.add(r);
  return sides;
}

/** Which side is cheaper, or likelier (the market's mids, the model beside them), the sides' rows under it. */
function compareText(question: string, sides: Row[][]): string {
  const cheaper = /\b(?:cheap(?:er|est)|less likely)\b/i.test(question);
  const market = (side: Row[]) => sumOf(side, (r) => r.marketValue);
  const ordered = [...sides].sort((a, b) => (cheaper ? market(a) - market(b) : market(b) - market(a)));
  const said = (side: Row[]) => `${names(side)} (${side.length > 1 ? 'together ' : ''}${percent(market(side))}; model ${percent(sumOf(side, (r) => r.modelValue))})`;
  const [first, ...rest] = ordered;
  const lead = `On the market's prices, ${said(first!)} is ${cheaper ? 'cheaper' : 'likelier'} than ${listed(rest.map(said))}`;
  const all = ordered.flat();
  return `${lead} ${refsOf(all)}.\n\n${all.map(rowLine).join('\n')}`;
}

/** A follow-up that points back at what the turn before named ("its price?", "and the spread?", "what about that one?"). */
/**
 * An outcome picked by its place in the market's ranking, not by name: 1 for the favourite ("the
 * most likely bucket", "the top bucket"), −1 for the longshot ("the least likely one", "the underdog"), else 0.
 */
const RANK_TOP = /\b(?:favou?rite|favs?|fave|(?:most|more) likely (?:bucket|outcome|range|result|option|one|contract|side)|likeliest(?: \w+)?|front-?runner|top (?:bucket|outcome|range|result|option|pick|choice))\b/i;
const RANK_BOTTOM = /\b(?:least likely (?:bucket|outcome|range|result|option|one|contract|side)|long ?shot|underdog|(?:un)?likeliest? (?:long ?shot)|bottom (?:bucket|outcome|range|result|option))\b/i;
export const rankPicked = (question: string): 1 | -1 | 0 => (RANK_TOP.test(question) ? 1 : RANK_BOTTOM.test(question) ? -1 : 0);

/** "And the longshot?", "what about the favourite?": a ranked outcome said alone after a question. */
const RANK_ELLIPSIS = /^\W*(?:(?:ok|okay|so)\W+)?(?:and|what about|how about|same for|now)\s+(?:for\s+|on\s+)?(?:the\s+)?[a-z' -]{2,30}?\s*[?.!]*\s*$/i;

/** The question before, asked again of the outcome ranked `end` (its own outcome's words left out); null when it named none, or was itself a ranking. */
function rankedAgain(before: string | undefined, end: 1 | -1, rows: Row[], names: (text: string) => Row[]): string | null {
  if (!before || names(before).length !== 1 || rankPicked(before) !== 0 || ['market_favourite', 'market_least', 'model_favourite'].includes(eventQuestion(before) ?? '')) return null;
  const pick = bestRow(rows, (r) => end * r.marketValue);
  if (!pick) return null;
  // The shortest run of words whose removal leaves no outcome named ("52 to 55" of "spread on 52 to 55?").
  const words = before.trim().replace(/[?.!\s]+$/, '').split(/\s+/);
  const named = outcomeOf(names(before)[0]!.outcome).name.toLowerCase();
  // (A run with a word of the name in it: "on" alone may unname "on 4" without being of it.)
  const ofName = (w: string) => { const bare = w.toLowerCase().replace(/^[^\w$]+|[^\w%]+$/g, ''); return bare.length > 0 && named.includes(bare); };
  let kept: string | null = null;
  for (let len = 1; len <= Math.min(5, words.length) && kept === null; len++)
    for (let i = 0; i + len <= words.length && kept === null; i++) {
      const rest = [...words.slice(0, i), ...words.slice(i + len)].join(' ');
      if (!names(rest).length && words.slice(i, i + len).some(ofName)) kept = rest;
    }
  if (kept === null || !/[a-z]{3,}/i.test(kept)) return null;
  // (A quote asked of it says which outcome the rank picked: "The market's least likely outcome is …".)
  const rank = eventQuestion(kept) === 'quote' ? ` the ${end > 0 ? 'favourite' : 'longshot'}` : '';
  return `${kept.replace(/\b(?:on|for|of|in)\s*(?=[?.!]*$)/i, '').replace(/[?.!\s]+$/, '')}${rank ? ` on${rank}` : ''} (${outcomeOf(pick.outcome).name})?`;
}

const REFERS_BACK = /^\W*(?:(?:and|but|ok|so|hmm)\W+)?(?:why|how come)\s+(?:(?:is|'s|s)\s+)?(?:(?:it|that|this|its|it's|that's|the price|the market)\s+)?(?:so|that|too)\s+(?:low|high|cheap|expensive|pricey|dear|rich)\W*$|\b(?:it|its|it's|that one|this one|that outcome|that contract|them|those|they)\b|\b(?:on|for|of|at|in|yes|no) there\W*$|\b(?:on|of|for|at|buy|buying|sell|selling|size|sizing) that\b|^\s*(?:and|what about|how about)\b|^\s*(?:why|how so|how come|really|are you sure)\s*\??\s*$/i;
const CHANCES_SAID = new RegExp(CHANCE_SAID.source, 'gi');
const MONEY_AMOUNTS = new RegExp(MONEY_SAID.source, 'gi');
/** A question without the chance its asker supplies ("if i think hike is 60%" → "if i think hike is"). */
const withoutChance = (text: string) => text.replace(CHANCES_SAID, (m: string, n: string) => m.slice(0, m.lastIndexOf(n)));
/**
 * A question read for the outcomes it names: a bankroll or stake ("with a 10k bankroll") and a
 * chance said are no levels; an outcome's name in it ("(Above $3,400)", as a pointer back adds it) stays.
 */
function unpriced(text: string, rows: readonly Row[] = []): string {
  const kept: string[] = [];
  let marked = text;
  for (const name of rows.map((r) => outcomeOf(r.outcome).name).filter((n) => /\$/.test(n)).sort((a, b) => b.length - a.length)) {
    if (marked.includes(name)) marked = marked.split(name).join(`\u0000${kept.push(name) - 1}\u0000`);
  }
  const plain = withoutChance(marked).replace(MONEY_AMOUNTS, ' ').replace(/\bbankroll(?: of)? \d[\d,.]*k?\b/gi, ' ');
  return plain.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)]!);
}

/** A side alone, often correcting the question before ("no i meant the NO side", "yes then"). */
const SIDE_ONLY = /^\W*(?:(?:no+|nah|nope|sorry|wait|oops|ok)\W+)?(?:i meant?\s+|make (?:it|that)\s+|what about\s+|how about\s+|and\s+)?(?:on\s+)?(?:the\s+)?(yes|no)(?:\s+side)?(?:\s+(?:instead|then|pls|please))?\W*$/i;
/** "The other one", "the other team": the outcomes the thread did not name last. */
/** A correction's opening ("no i meant", "sorry, I mean", "nah i meant"). */
const CORRECTION = /^\W*(?:(?:no+|nah|nope|sorry|wait|oops)[,.!\s]+)?i\s+mean(?:t)?\s+|^\W*(?:no+|nah|nope|actually)\s*[,.!:]\s*(?=\d)/i;

/** Only a chance said, of a question weighed on the asker's chance before ("and at 30%?", "what if i think 30% then"). */
const CHANCE_ONLY = /^\W*(?:(?:and|ok|so|what about|how about|what if|and if|make it)\W+)*(?:i (?:think|say|put it at)\s+)?(?:(?:at|with|on)\s+)?(?:it'?s\s+)?(\d{1,2}(?:\.\d+)?)\s*%(?:\s+(?:then|instead))?\W*$/i;

/** Only an expected value asked, of the trade before ("EV on that?", "and the ev?", "whats the EV"). */
const VALUE_ONLY = /^\W*(?:(?:and|ok|so)\W+)?(?:(?:what(?:'s|s| is)|how about|what about)\s+)?(?:the |my )?(?:ev|e\.v\.|expected value)(?:\s+(?:on|of|for)\s+(?:that|this|it|those|them|these)(?: ones?)?)?(?:\s+then)?\W*$/i;

const THE_OTHER = /\bthe other (?:one|team|side|outcome|contract)s?\b/i;
/** "Next one up?", "next", "the next trade": after a Kelly on the best trade, the next one of the ranking. */
const NEXT_ONE = /^\W*(?:(?:and|ok|so|what about|how about)\W+)?(?:the\s+)?next(?:\s+(?:one|trade|best))?(?:\s+(?:up|down|then|pls|please))?\W*$/i;
/** "The next one up", "the one below": the level beside the one the thread named last. */
const NEXT_UP = /\b(?:next|one) (?:one |level |rung )?(?:up|higher|above)\b|\bthe (?:one|level|rung) above\b|\b(?:warmer|hotter|higher|bigger|larger) (?:one|range|level|rung)\b/i;
const NEXT_DOWN = /\b(?:next|one) (?:one |level |rung )?(?:down|lower|below)\b|\bthe (?:one|level|rung) below\b|\b(?:colder|cooler|lower|smaller) (?:one|range|level|rung)\b/i;

/**
 * A stored report, or an event's live quotes in its shape (prediction-markets/quote-sheet), read
 * for an answer. `unreported`: set for live quotes, no report being stored; how to get one.
 */
export interface ReportRead {
  title: string;
  /** Its event's ticker, when the text does not say it ("**Event:** …" in a report's header). */
  eventTicker?: string;
  text: string;
  citations: readonly Citation[];
  asOf: string;
  unreported?: string;
}

/** Whether a name said is the row's with its team ("Away team (Bills)" of "Away team"). */
const withTeamName = (r: Row, said: string) => said.startsWith(`${outcomeOf(r.outcome).name} (`);

/**
 * A price said as a bare number after a trade ("what if i buy yes at 12?", "ev buying hike at 40"),
 * written in cents ("at 12c"), as the rules read prices; not a number that is one of the event's
 * levels ("buy yes at 48" of a temperature bucket at 48°F), nor one with a unit.
 */
function bareCents(text: string, rows: Row[]): string {
  const levels = new Set(labelLevels(rows));
  return text.replace(
    /\b(buy(?:ing|s)?|bought|get(?:ting)?|got|fill(?:ed|s)?|sell(?:ing|s)?|sold|short(?:ing)?)\b([^?.!\d]{0,40}?)\b(at|for)\s+(\d{1,2})(?![\d.,%°]|\s*(?:k|c|¢|cents?|bps?|pts?|degrees?|f\b|million|m\b|%))/gi,
    (whole: string, verb: string, between: string, at: string, n: string) => (levels.has(Number(n)) ? whole : `${verb}${between}${at} ${n}c`),
  );
}

/** Two things pointed back to at once ("which of those two", "both of them"). */
const PAIR_ASKED = /\b(?:those|these|the|them|of the)\s+two\b|\bboth\b/i;

/** An answer drawn from a report, or from live quotes in its shape: its footer says which. */
const ANSWERED_FROM = /_From (?:the stored report on|Kalshi's live quotes for) /;

/** The words of answers drawn from a report's quotes, said of live quotes instead. */
function ofLiveQuotes(text: string): string {
  return text
    .replace(/ The report's gaps are measured against the prices normalised to 100%, so the overround is not counted as a gap\./g, '')
    .replace(/\bthe report does not show\b/g, 'the quotes do not show')
    .replace(/\bno quote in the report\b/g, 'no quote')
    .replace(/\b([Tt])he report's (quotes|prices|pricing)\b/g, '$1he live $2');
}

/**
 * The outcomes a text names among `rows`: a bankroll or stake ("with a 10k bankroll") is no level
 * naming an outcome; a number that is exactly a rung's level names it ("ev of buying 3400 yes").
 */
function namedIn(text: string, rows: Row[], title: string): Row[] {
  const plain = unpriced(text, rows);
  // A count's outcome said bare after a side or "on" ("kelly on 3 if i think it's 20%", "yes on 4"), or named back in brackets: the outcome labelled so.
  const counts = rows.map((r) => outcomeOf(r.outcome).name).filter((n) => /^\d+$/.test(n)).map(Number);
  const bare = counts.length ? [...plain.matchAll(/(?:\b(?:on|yes|no|for|buy(?:ing)?)\s+|\()(\d+)\b(?![\d.%]|,\d|\s*(?:k|c|¢|cents?|contracts?|shares?|of|yes|no|bucks|dollars)\b)/gi)].map((m) => Number(m[1])).filter((v) => counts.includes(v)) : [];
  return namedRows(plain, rows, title, [...levelsIn(plain), ...(isLadder(rows) ? levelsNamed(plain, labelLevels(rows)) : []), ...bare]);
}

/** Whether a ladder's rungs are priced in order (each higher "Above" rung below the one beneath it), said first. */
function ladderOrderText(rows: Row[]): string {
  const ordered = byLevel(rows).filter((r) => Number.isFinite(r.marketValue));
  const above = rungSide(labelRange(outcomeOf(ordered[0]?.outcome ?? '').name)) !== 'below';
  // An "Above" ladder's prices fall as the level rises; a "Below" ladder's rise.
  const seq = above ? ordered : [...ordered].reverse();
  const crossed = seq.findIndex((r, i) => i > 0 && r.marketValue > seq[i - 1]!.marketValue);
  if (crossed === -1) return `**Yes**, in order: each rung further out is priced below the one before it (${seq.map((r) => `${outcomeOf(r.outcome).name} ${percent(r.marketValue)}`).join(' > ')}).\n\n`;
  const [low, high] = [seq[crossed - 1]!, seq[crossed]!];
  return `**No**: “${outcomeOf(high.outcome).name}” (${percent(high.marketValue)}) is priced over “${outcomeOf(low.outcome).name}” (${percent(low.marketValue)}), though YES on the first implies YES on the second.\n\n`;
}

/** "; the model gives it 64.0% (gap +1.9 pts)", or nothing where there is no model (live quotes). */
const modelOf = (r: Row) => (Number.isFinite(r.modelValue) ? `; the model gives it ${r.model} (gap ${r.gap})` : '');

/** Two outcomes, one said to pass the other: which the market and the model put ahead, by how much, and how the gap moved over the week. */
function passingText(question: string, pair: Row[], sections: Map<string, string>, exclusive: boolean): string | null {
  const said = (r: Row) => outcomeOf(r.outcome).name;
  // The one said first is the one asked to pass the other.
  const lower = question.toLowerCase();
  // (By its whole name, else by a word of it the other lacks: "above 3.2" of "Above 3.2" and "Above 3.0".)
  const at = (r: Row, other: Row) => {
    const own = said(r).toLowerCase();
    const words = own.split(/\s+/);
    const theirs = said(other).toLowerCase().split(/\s+/);
    const i = [own, ...words.filter((w) => !theirs.includes(w)), words[0]!].map((w) => lower.indexOf(w)).find((x) => x >= 0);
    return i ?? Infinity;
  };
  const [a, b] = at(pair[0]!, pair[1]!) <= at(pair[1]!, pair[0]!) ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
  if (!Number.isFinite(a.marketValue) || !Number.isFinite(b.marketValue)) return null;
  const normal = (r: Row) => (r.marketNormalised !== r.marketValue ? ` (${percent(r.marketNormalised)} normalised)` : '');
  const lead = (x: number, y: number) => (x > y ? 'ahead' : x < y ? 'behind' : 'level');
  const gapPts = a.marketValue - b.marketValue;
  const lines = [`**${said(a)}** against **${said(b)}**:`, ''];
  lines.push(`- **Market:** ${said(a)} ${percent(a.marketValue)}${normal(a)}, ${said(b)} ${percent(b.marketValue)}${normal(b)}: ${said(a)} is ${lead(a.marketValue, b.marketValue)}${gapPts ? ` by ${Math.abs(gapPts).toFixed(1)} pts` : ''} ${outcomeOf(a.outcome).refs}${outcomeOf(b.outcome).refs}.`);
  if (Number.isFinite(a.modelValue) && Number.isFinite(b.modelValue)) lines.push(`- **Model:** ${said(a)} ${percent(a.modelValue)}, ${said(b)} ${percent(b.modelValue)}: ${said(a)} is ${lead(a.modelValue, b.modelValue)}${a.modelValue !== b.modelValue ? ` by ${Math.abs(a.modelValue - b.modelValue).toFixed(1)} pts` : ''}.`);
  const claims = [...sections.entries()].find(([h]) => h.startsWith('key claims'))?.[1];
  const past = pastPrices(claims);
  const pa = past?.all.find((p) => p.label === said(a));
  const pb = past?.all.find((p) => p.label === said(b));
  if (pa && pb && pa.week !== null && pb.week !== null) {
    const then = pa.week - pb.week;
    lines.push(`- **A week ago:** ${said(a)} ${percent(pa.week)}, ${said(b)} ${percent(pb.week)}, ${said(a)} ${lead(pa.week, pb.week)}${then ? ` by ${Math.abs(then).toFixed(1)} pts` : ''}; the gap has ${Math.abs(gapPts) < Math.abs(then) ? 'narrowed' : Math.abs(gapPts) > Math.abs(then) ? 'widened' : 'held'} since ${past!.refs}.`);
  }
  // On a ladder one rung implies the other ("Above 3.2" implies "Above 3.0"): passing it would cross the ladder.
  const [ra, rb] = [labelRange(said(a)), labelRange(said(b))];
  const implies = !exclusive && ra && rb && ((ra.to === null && rb.to === null && ra.from !== null && rb.from !== null && ra.from > rb.from) || (ra.from === null && rb.from === null && ra.to !== null && rb.to !== null && ra.to < rb.to));
  const note = exclusive
    ? `Only one outcome of the event can resolve YES, so for ${said(a)} to pass ${said(b)} its price would have to rise above the other's`
    : implies
      ? `YES on ${said(a)} implies YES on ${said(b)}, so its price should stay at or below the other's: passing it would leave the ladder crossed`
      : `For ${said(a)} to pass ${said(b)} its price would have to rise above the other's`;
  lines.push('', `${note}; the report shows where they stand, not where they will go. Not investment advice.`);
  return lines.join('\n');
}

/** The outcomes of a report (or live quotes in its shape) a text names. */
export function outcomesNamed(text: string, report: ReportRead): Row[] {
  return namedIn(pricesInCents(chancesInPercent(text)), readReport(report.text).rows, report.title);
}

/**
 * The part of a stored report that answers a question about its event, or null. `earlier`: the
 * conversation's turns before, latest first. A follow-up that names no outcome of its own refers
 * to the outcome the thread was last about ("the model's probability for Hold?", "and its price?",
 * "and its spread?"): the one the last answer was about alone, else the one the question before
 * it named, back past questions that themselves only pointed back.
 */
export function answerFromReport(
  question: string,
  report: ReportRead,
  earlier: readonly { role: 'user' | 'assistant'; content: string }[] = [],
): Answer | null {
  const { rows } = readReport(report.text);
  const names = (text: string) => namedIn(text, rows, report.title);
  // A part of this report answered (its footer says so) about one outcome says its name in bold.
  // (An answer weighing events leads with a trade, "**NO on 2 or fewer**": its outcome, when of this event.)
  const traded = (text: string) => {
    const lead = /\*\*(?:YES|NO) on ([^*\n]+)\*\*/.exec(text)?.[1];
    return lead ? rows.filter((r) => outcomeOf(r.outcome).name === lead || withTeamName(r, lead)) : [];
  };
  // (A Kelly or best-trade answer from a report names its trade, "**NO on 75k to 150k**", not the outcome alone.)
  const answered = (text: string) => {
    const bold = ANSWERED_FROM.test(text) ? rows.filter((r) => text.includes(`**${outcomeOf(r.outcome).name}**`)) : [];
    return bold.length ? bold : traded(text);
  };
  // "Convert that to American odds": "that" is the outcome just discussed.
  // ("I bought 100 yes at 12c": of the outcome discussed, when it names none.)
  // ("Kelly at 80% with 2.5k": a chance of the outcome discussed.)
  // ("EV on 100 yes at the ask" after "btc above 92k?": a trade on the outcome discussed, when it names none and not "each".)
  // ("How many contracts does $200 buy and what's the max loss" after an EV on one: a stake on that one too.)
  const tradeOnIt = (text: string) => eventQuestion(text) === 'quote' && (/\b(?:yes|no)\b/i.test(text) || /\$\s?\d|\b\d[\d,]*\s*(?:dollars|bucks)\b/i.test(text)) && /\d/.test(text) && !/\b(?:each|every|all|both)\b/i.test(text);
  // ("Wat does the model say" after "bitcoin over 100k tmrw??": of that outcome.)
  const modelOfIt = (text: string) => /^\W*(?:(?:ok|so|and|but)\W+)*(?:what|wat|whats|what's)\b[^?]{0,20}\bmodel\b[^?]{0,10}\b(?:say|says|think|thinks|give|gives|put|puts)\b(?:\s+(?:it|about it|then|now|pls|please))?\W*$/i.test(text);
  // ("Ok so should i buy", "worth buying?": the outcome discussed.)
  const buyIt = (text: string) => /^\W*(?:(?:ok|so|and|but|then)\W+)*(?:should (?:i|we) (?:buy|get|take|bet)|(?:is it )?worth (?:buying|it|a buy)|(?:is it )?a buy|buy or (?:not|pass|sell))\W*$/i.test(text);
  // ("How many can i get filled at the ask" after an EV of NO on one bucket: that bucket's book, that side.)
  const pointer = (text: string) => REFERS_BACK.test(text) || marketCompared(text) || UNIT_ONLY.test(text) || DEPTH_ASKED.test(text) || modelOfIt(text) || buyIt(text) || heldPosition(text) !== null || CHANCE_SAID.test(text) || tradeOnIt(text) || THE_OTHER.test(text) || NEXT_UP.test(text) || NEXT_DOWN.test(text) || (eventQuestion(text) === 'odds_format' && /\b(?:that|those|these)\b/i.test(text));
  // The question before, itself restated from the ones before it ("EV on that?" after "and the no side?" after "200 yes on a cut?").
  // ("What if i think 0.4": a chance, as "40%" would be.)
  // ("And if it goes to 0.35?", "45¢": prices in cents, as "35c" would be.)
  question = bareCents(pricesInCents(chancesInPercent(question)), rows);
  // ("Whats it worth now?", "should i sell?" after "i hold 100 yes on hike": that position.)
  question = withPositionSaid(question, earlier) ?? question;
  const asked = earlier.filter((t) => t.role === 'user').map((t) => bareCents(pricesInCents(chancesInPercent(t.content)), rows));
  const effective = (i: number): string | undefined => (i >= asked.length ? undefined : i >= 3 ? asked[i] : restated(asked[i]!, effective(i + 1), names));
  // "And if i'm wrong?" right after a stake or an expected value: what that position loses, and how likely that is.
  const lastTurn = earlier.find((t) => t.role === 'assistant')?.content ?? '';
  // "And with fees of 1c?": the trade just discussed, the fee said added to its cost.
  const withFee = feeText(question, lastTurn, rows, readReport(report.text).contracts);
  if (withFee) return cited(`${withFee}${footOf(report)}`, report.citations);
  // "What would i make if it settles at 95k?" after "i hold 100 yes on above 92k": that position, settled there.
  const settled = settledText(question, earlier.filter((t) => t.role === 'user').map((t) => t.content), rows, readReport(report.text).contracts, names);
  if (settled) return cited(`${settled}${footOf(report)}`, report.citations);
  // (The position last named in the thread, back past answers that named none: a quote sheet, what stands out.)
  // (A question stating its own trade, "and if i buy 200 at 35c whats my max loss", is that trade's.)
  const wrongAsked = WRONG_ASKED.test(question) && !names(question).length && !/\d/.test(question);
  const downside = wrongAsked ? earlier.filter((t) => t.role === 'assistant').slice(0, 6).map((t) => ifWrongText(t.content, rows)).find(Boolean) : null;
  if (downside) return cited(`${downside}${footOf(report)}`, report.citations);
  // "Worst case?" with no position named: one contract of each side.
  const worstEach = wrongAsked && !heldPosition(question) ? worstCaseTable(rows, readReport(report.text).contracts) : null;
  if (worstEach) return cited(`${worstEach}${footOf(report)}`, report.citations);
  // "How risky is buying hike?", "is this a safe bet?" (of the outcome the answer before was about), "what stands out?", "smartest play?".
  const open = openAsked(question);
  if (open) {
    const { sections, contracts } = readReport(report.text);
    const claims = [...sections.entries()].find(([h]) => h.startsWith('key claims'))?.[1];
    const before = names(question).length ? names(question) : /\b(?:this|that|it)\b/i.test(question) ? answered(lastTurn) : [];
    const side = /\b(?:buy(?:ing)?|on|the|bet(?:ting)?)\s+(yes|no)\b|\b(yes|no)\s+(?:on|side)\b/i.exec(question) ?? (names(question).length ? null : /\*\*(YES|NO) on |\bBuying (YES|NO) at /.exec(lastTurn));
    const said = (side?.[1] ?? side?.[2])?.toUpperCase() as 'YES' | 'NO' | undefined;
    const text = openAnswer(open, report.text, rows, contracts, claims, pastPrices(claims), before.length === 1 ? before : [], said ?? null);
    if (text) return cited(`${text}${footOf(report)}`, report.citations);
  }
  // "Why?" right after "what stands out?": its first point, the largest gap, explained from the model's fit and the outcome's record.
  const standout = WHY_FIRST_POINT.test(question) ? /^- \*\*Largest gaps, model vs market:\*\* ([^:\n]+): model /m.exec(lastTurn) : null;
  // (So does "why?" right after "which outcome is mispriced the most?": "The largest gap is **3**: …".)
  const gapLed = WHY_FIRST_POINT.test(question) ? /^(?:[^\n]*?; )?the largest gap is (?:the outcome )?\*\*([^*\n]+)\*\*/i.exec(lastTurn.trimStart()) : null;
  const first = standout && /^What stands out in the report:/.test(lastTurn.trimStart()) ? rows.find((r) => outcomeOf(r.outcome).name === standout[1]) : gapLed ? rows.find((r) => outcomeOf(r.outcome).name === gapLed[1]) : undefined;
  // ("Why?", "why is the model lower?" right after an answer about one outcome, "The market's favourite is **Hike 25bps**":
  // that outcome's model against its market, not the method section.)
  const led = !first && (WHY_FIRST_POINT.test(question) || WHY_MODEL_SIDE.test(question)) && !names(question).length ? ledOutcome(lastTurn, rows) : undefined;
  if (led) {
    const { sections } = readReport(report.text);
    const section = (h: string) => [...sections.entries()].find(([k]) => k.startsWith(h))?.[1];
    const why = modelWhyText(led, section('method'), section('resolution history'), rows);
    if (why) return cited(`${why}${footOf(report)}`, report.citations);
  }
  if (first) {
    const { sections } = readReport(report.text);
    const section = (h: string) => [...sections.entries()].find(([k]) => k.startsWith(h))?.[1];
    const why = modelWhyText(first, section('method'), section('resolution history'), rows);
    if (why) {
      const { name, refs } = outcomeOf(first.outcome);
      const normalised = first.marketNormalised !== first.marketValue ? ` against the market's ${percent(first.marketNormalised)} normalised (its ${percent(first.marketValue)} price shared out to 100% with the other outcomes, whose prices add up to more)` : ` against the market's ${percent(first.marketValue)}`;
      // Against a normalised price, the gap is also the other outcomes': how the model moves each from its price.
      const others = rows.filter((r) => r !== first && Number.isFinite(r.modelValue) && Number.isFinite(r.marketValue));
      const shared = first.marketNormalised !== first.marketValue && others.length && !isLadder(rows)
        ? `\n\nAgainst its own ${percent(first.marketValue)} price the model is ${points(first.modelValue - first.marketValue)}; the gap of ${first.gap} is against the normalised price, so it also comes from the other outcomes, which the model moves from their prices: ${others.map((r) => `${outcomeOf(r.outcome).name} ${percent(r.marketValue)} → ${r.model}`).join(', ')} ${others.map((r) => outcomeOf(r.outcome).refs).join('')}. What the model takes from them, shared out to 100%, is ${name}'s.`
        : '';
      return cited(`${gapLed ? 'The largest gap' : 'The first point, the largest gap'}: **${name}**, the model's ${first.model}${normalised}, a gap of ${first.gap} ${refs}.\n\n${why}${shared}${footOf(report)}`, report.citations);
    }
  }
  // "Can hold overtake hike?", "will hike beat hold?": the two outcomes' prices and the model's, side by side.
  if (PASSING.test(question) && names(question).length === 2) {
    const text = passingText(question, names(question), readReport(report.text).sections, !isLadder(rows));
    if (text) return cited(`${text}${footOf(report)}`, report.citations);
  }
  question = restated(question, effective(0), names);
  // "Next one up?" after Kelly on the best trade: the same sizing, of the next trade in the ranking.
  const lastAnswer = earlier.find((t) => t.role === 'assistant')?.content ?? '';
  const sized = /the trade to size is \*\*(YES|NO) on ([^*\n]+)\*\*/.exec(lastAnswer);
  // (Back past earlier "next one up?" turns, to the sizing they step from.)
  const sizing = asked.slice(0, 4).find((q) => !NEXT_ONE.test(q));
  if (sized && sizing && SIZING.test(sizing) && NEXT_ONE.test(question)) {
    const { contracts } = readReport(report.text);
    const ranked = rankedTrades(rows, contracts).filter((t) => t.ev > 0);
    const at = ranked.findIndex((t) => t.side === sized[1] && (outcomeOf(t.r.outcome).name === sized[2] || withTeamName(t.r, sized[2]!)));
    const next = at === -1 ? undefined : ranked[at + 1];
    if (next) question = `${sizing.replace(/[?.!\s]+$/, '')} (${next.side} on ${outcomeOf(next.r.outcome).name})`;
    else if (at !== -1) return { text: `No other trade has a positive expected value on the model at the report's prices: **${sized[1]} on ${sized[2]}** was the ${at === 0 ? 'only one' : 'last of them'}.${footOf(report)}`, citations: [] };
  }
  // "And if i hedge by also buying 100 NO on hike, what do i lock in?" after "if i buy 100 hike yes": both sides, in pairs.
  const hedged = /\b(?:hedg\w*|also|as well|too|plus|on top)\b/i.test(question) ? /\b(\d[\d,]*)\s+(yes|no)\b/i.exec(question) : null;
  if (hedged) {
    const other = hedged[2]!.toLowerCase() === 'yes' ? 'no' : 'yes';
    if (asked.slice(0, 5).some((q) => new RegExp(`\\b\\d[\\d,]*\\s+(?:[a-z]+\\s+){0,3}${other}\\b|\\b${other}\\s+(?:on\\s+)?[a-z]`, 'i').test(q))) question = question.replace(hedged[0], `${hedged[1]} pairs of yes and no`);
  }
  // "YES on all four rungs, what would it cost?", then "and if it ends at 95k?": a basket of every rung of a ladder.
  const basketAsked = LADDER_BASKET.test(question) ? question : asked[0] && LADDER_BASKET.test(asked[0]) && LADDER_SCENARIO.test(question) && levelsIn(question).length ? asked[0] : null;
  if (basketAsked && isLadder(rows)) {
    const bounds = labelLevels(rows);
    const level = basketAsked === question && !LADDER_SCENARIO.test(question) ? null : (levelsIn(question).map((v) => inLabelScale(v, bounds))[0] ?? null);
    const text = ladderBasketText(rows, readReport(report.text).contracts, basketAsked, level);
    if (text) return cited(`${text}${footOf(report)}`, report.citations);
  }
  const other = THE_OTHER.test(question);
  const step = NEXT_UP.test(question) ? 1 : NEXT_DOWN.test(question) ? -1 : 0;
  // About the event as a whole ("when does it close?", "how is it resolved?"): "it" is the event.
  const wholeEvent = ['summary', 'anomalies', 'expected', 'closing', 'resolution', 'previous', 'arbitrage', 'overround', 'history'].includes(eventQuestion(question) ?? '');
  // ("And the longshot?" after an answer on one outcome: the ranking picks its own, unless "it" points back: "is it the favourite?".)
  const pickedByRank = rankPicked(question) !== 0 && !/\b(?:it|its|it's|that one|this one|that outcome|that contract|them|those|they)\b/i.test(question);
  // ("Spread on hold?", then "and the longshot?": the spread again, of the outcome the market prices lowest.)
  const rankAgain = pickedByRank && RANK_ELLIPSIS.test(question) && !isLadder(rows) && rows.length > 2 ? rankedAgain(effective(0), rankPicked(question) as 1 | -1, rows, names) : null;
  if (rankAgain) question = rankAgain;
  // ("What about 4?" of launches "3", "4", …: a level said alone names its own outcome, not the one before.)
  const levelAlone = /^\W*(?:(?:and|ok|so)\W+)?(?:what about|how about|and)\s+(?:the\s+)?(\d+(?:\.\d+)?)\s*\??\s*$/i.exec(question);
  const ownLevel = levelAlone !== null && (() => { const levels = labelLevels(rows); return levels.length > 0 && Number(levelAlone[1]) >= Math.min(...levels) && Number(levelAlone[1]) <= Math.max(...levels); })();
  if (pointer(question) && !wholeEvent && !pickedByRank && !ownLevel && !names(question).length) {
    // "Which of those two moved more?" after one outcome, then another: both, back through the turns.
    const pair: Row[] = [];
    for (const turn of earlier) {
      const before = turn.role === 'assistant' ? answered(turn.content) : names(turn.content);
      if (PAIR_ASKED.test(question) && before.length === 1) {
        if (!pair.includes(before[0]!)) pair.push(before[0]!);
        if (pair.length < 2) continue;
        question = `${question} (${pair.map((r) => outcomeOf(r.outcome).name).join(' or ')})`;
        break;
      }
      // (Several outcomes an answer was about are "those", "them", "both".)
      if (before.length === 1 || (turn.role === 'user' && before.length) || (before.length > 1 && before.length < rows.length && /\b(?:those|them|these|they|both)\b/i.test(question))) {
        const meant = other ? rows.filter((r) => !before.includes(r)) : step ? besideLevel(rows, before, step) : before;
        // The pointing words go ("the one below" would read as a side): the outcome meant is named instead.
        const rest = question.replace(THE_OTHER, ' ').replace(NEXT_UP, ' ').replace(NEXT_DOWN, ' ');
        if (meant.length && meant.length < rows.length) question = `${rest} (${meant.map((r) => outcomeOf(r.outcome).name).join(' or ')})`;
        // "What do 250 of it cost" after "**NO on 2 or fewer**": that side too.
        // ("Kelly on that" after "Buying YES at $0.18 against the model's 12.4%": the side valued.)
        const leads = turn.role === 'assistant' ? [...turn.content.matchAll(/\*\*(YES|NO) on |\bBuying (YES|NO) at \$/g)] : [];
        // ("How much would i win if i put 20 bucks on it?" after a best buy of "**NO on Above $80M**", others listed after it: that trade's side.)
        const tradedSides = turn.role === 'assistant' && meant.length === 1 && !other && !step ? new Set([...turn.content.matchAll(/\*\*(YES|NO) on ([^*\n]+)\*\*/g)].filter((m) => m[2] === outcomeOf(meant[0]!.outcome).name).map((m) => m[1]!)) : new Set<string>();
        const side = turn.role === 'assistant' && (!ANSWERED_FROM.test(turn.content) || leads.length === 1) ? (leads[0]?.[1] ?? leads[0]?.[2]) : tradedSides.size === 1 ? [...tradedSides][0] : undefined;
        // (A chance of one's own said with a Kelly picks the side itself: "kelly at 80% with 2.5k".)
        if (side && meant.length === 1 && !/\b(?:yes|no)\b/i.test(question) && !(SIZING.test(question) && CHANCE_SAID.test(question)) && !marketCompared(question)) question = `${question} (${side} side)`;
        break;
      }
      if (turn.role === 'user' && !pointer(turn.content)) break;
    }
  }
  // ("Lakers or celtics?" of a game: its two sides set against each other, which is who wins.)
  if (rows.length === 2 && /\bor\b/i.test(question) && question.trim().split(/\s+/).length <= 6 && names(question).length === 2 && [null, 'outcome'].includes(eventQuestion(question))) question = `who wins, ${question}`;
  // ("I hold 50 no on shutdown", then "how do i hedge?": the position said before; after a trade named, "**NO on Hold**", that trade.)
  // ("How would i hedge it", its outcome read back from the thread, is that outcome's position, said before.)
  // (A side read back, "(NO side)", is no position: the one said before, with its count, is.)
  const hedgeOf = names(question);
  const ownWords = question.replace(/\s*\([^)]*\)/g, ' ');
  if (hedgeAsked(question) && !/\b(?:yes|no)\b/i.test(ownWords) && !/\d/.test(ownWords) && hedgeOf.length <= 1) {
    question = question.replace(/\s*\((?:yes|no) side\)/gi, '');
    const users = earlier.filter((t) => t.role === 'user').slice(0, 4);
    // (Of an event of one contract, a position names no outcome: "how do i hedge 200 no".)
    const held = users.find((t) => /\b\d[\d,]*\s+(?:[a-z]+\s+){0,2}?(?:yes|no)\b/i.test(t.content) && (names(t.content).length === 1 || (rows.length === 1 && !names(t.content).length)) && (!hedgeOf.length || names(t.content)[0] === hedgeOf[0]));
    const lastAnswer = earlier.find((t) => t.role === 'assistant')?.content ?? '';
    const lead = /\*\*(YES|NO) on ([^*\n]+)\*\*/.exec(lastAnswer);
    // ("How would i hedge this" right after a hedge: the position that answer hedged.)
    const hedgedBefore = /^To hedge (one|[\d,]+) (YES|NO) contracts? on \*\*([^*\n]+)\*\*/m.exec(lastAnswer.trimStart());
    if (hedgedBefore && names(hedgedBefore[3]!).length === 1 && (!hedgeOf.length || names(hedgedBefore[3]!)[0] === hedgeOf[0])) question = `${question} (${hedgedBefore[1] === 'one' ? '1' : hedgedBefore[1]} ${hedgedBefore[2]} on ${hedgedBefore[3]})`;
    else if (held) question = `${question} (${held.content})`;
    else if (lead && !hedgeOf.length && ANSWERED_FROM.test(lastAnswer) && names(lead[2]!).length === 1) question = `${question} (${lead[1]} on ${lead[2]})`;
  }
  // ("In cents please", then "and the spread?": the unit the user asked for stays for quotes, until another is asked.)
  if (eventQuestion(question) === 'quote' && centsKept(question, earlier) && eventQuestion(`${question} (in cents)`) === 'quote') question = `${question} (in cents)`;
  return answerAbout(question, report);
}

/**
 * A follow-up restated as the question it stands for, from the question before it (`asked`):
 * "no i meant the NO side", "what about with a 10k bankroll?" after Kelly on NO Hold, "whats the
 * other side of that one cost", "and if it goes to 55c?". `names`: the outcomes a text names.
 */
function restated(question: string, asked: string | undefined, names: (text: string) => Row[]): string {
  // "No i meant 150k to 225k.": a correction, not a NO nor a negation (its side alone is read below).
  const corrected = CORRECTION.exec(question);
  if (corrected && !SIDE_ONLY.test(question)) question = question.slice(corrected[0].length);
  // "No i meant the NO side", "yes then": the question before again, of that side.
  const side = SIDE_ONLY.exec(question);
  // ("The no side?" after "what do 300 hold yes cost": 300 NO, the side where the question said one.)
  if (asked && side && eventQuestion(asked) !== null) question = /\b(?:yes|no)\b/i.test(asked) ? asked.replace(/\b(?:yes|no)\b(?:\s+side)?/gi, side[1]!.toUpperCase()) : `${asked.replace(/[?.!\s]+$/, '')} the ${side[1]!.toUpperCase()} side?`;
  // "And hold?" after "convert that to moneyline": that conversion, of the outcome named now.
  if (asked && eventQuestion(asked) === 'odds_format' && question.split(/\s+/).length <= 4 && names(question).length && [null, 'outcome'].includes(eventQuestion(question))) question = `${asked.replace(/[?.!\s]+$/, '')} (${names(question).map((r) => outcomeOf(r.outcome).name).join(' or ')})`;
  // "And the 56+ bucket?" after "kelly on it with 1k": that sizing, of the outcome named now.
  // (Of the sizing restated before, "(56°F or above)", the outcome named now instead.)
  const sizedAsked = asked?.replace(/\s*\([^)]*\)\s*$/, '');
  // ("And the 56+ bucket?" after "half kelly on 48-51 with $1000": the same sizing, the outcome named before left out.)
  if (sizedAsked && SIZING.test(sizedAsked) && /^\W*(?:and|what about|how about)\b/i.test(question) && names(question).length && names(sizedAsked).length && !names(sizedAsked).some((r) => names(question).includes(r))) {
    const unnamed = withoutOutcomes(sizedAsked, names);
    if (unnamed !== null && !CHANCE_ONLY.test(question) && !CHANCE_SAID.test(question) && !SUPPOSED_PRICE.test(question) && question.split(/\s+/).length <= 5 && [null, 'outcome'].includes(eventQuestion(question))) question = `${unnamed.replace(/[?.!\s]+$/, '')} (${names(question).map((r) => outcomeOf(r.outcome).name).join(' or ')})`;
  }
  if (sizedAsked && SIZING.test(sizedAsked) && !names(sizedAsked).length && /^\W*(?:and|what about|how about)\b/i.test(question) && !CHANCE_ONLY.test(question) && !CHANCE_SAID.test(question) && !SUPPOSED_PRICE.test(question) && question.split(/\s+/).length <= 5 && names(question).length && [null, 'outcome'].includes(eventQuestion(question))) question = `${sizedAsked.replace(/[?.!\s]+$/, '')} (${names(question).map((r) => outcomeOf(r.outcome).name).join(' or ')})`;
  // "And today?" after "how did hold and cut 25 move this week?": the same moves, over the window said now.
  const windowOnly = /^\W*(?:(?:and|what about|how about|ok|so|but)\W+)*(?:(?:over|in|for|during|since)\s+)?(?:the\s+)?(today|yesterday|this week|the week|last week|(?:the )?last (?:24 ?h\w*|day)|24 ?h\w*|the day|overnight|(?:the )?(?:last|past) (?:7|seven) days)\W*$/i.exec(question);
  if (asked && windowOnly && eventQuestion(asked) === 'moves') {
    const WINDOW_WORDS = /\b(?:(?:this|last|the|a|one|past)\s+)?(?:week|7 days|seven days|today|yesterday|24 ?h\w*|day|overnight)\b/gi;
    const base = asked.replace(/\s*\([^)]*\)\s*$/, '').replace(WINDOW_WORDS, ' ').replace(/\s+([?.!])/g, '$1').replace(/\s+/g, ' ').trim();
    question = `${base.replace(/[?.!\s]+$/, '')} ${windowOnly[1]!.toLowerCase()}?`;
  }
  // "Half kelly on a 2.5k roll at that price": the price the question before supposed.
  const samePrice = /\b(?:at|for) (?:that|this|the same|those) (?:price|level|quote)\b/i;
  const pricedBefore = asked && samePrice.test(question) ? SUPPOSED_PRICE.exec(asked) : null;
  if (pricedBefore) question = question.replace(samePrice, `at ${pricedBefore[1] ?? pricedBefore[2]}c`);
  // "Kelly on that" after "EV of 100 yes on above 10 at 70c": sized at that price too.
  const pricedTrade = asked && SIZING.test(question) && !SUPPOSED_PRICE.test(question) && eventQuestion(asked) === 'quote' && !POSITION_HELD.test(asked) ? SUPPOSED_PRICE.exec(asked) : null;
  if (pricedTrade) question = `${question.replace(/[?.!\s]+$/, '')} at ${pricedTrade[1] ?? pricedTrade[2]}c`;
  // "Half that", "quarter of that" after a Kelly: that sizing again, at that fraction.
  const fraction = /^\W*(?:(?:and|ok|so|then)\W+)?(?:a\s+)?(half|quarter|third|double|twice)\b/i.exec(question);
  if (asked && fraction && SIZING.test(question) && !/\bkelly\b/i.test(question) && SIZING.test(asked)) question = `${fraction[1]!.toLowerCase()} kelly`;
  // "Half kelly then, how many contracts" after Kelly on one's own chance and bankroll: on those again.
  // (So does "kelly on that with 4k" after an EV on one's own chance: "ev of 200 yes on hold if my fair is 30%".)
  const sizedBefore = (q: string) => SIZING.test(q) || (eventQuestion(q) === 'quote' && CHANCE_SAID.test(q));
  if (asked && SIZING.test(question) && sizedBefore(asked) && !CHANCE_SAID.test(question) && !names(question).length) {
    const chance = new RegExp(CHANCE_SAID.source, 'i').exec(asked)?.[0];
    const money = MONEY_SAID.test(question) ? null : new RegExp(MONEY_SAID.source, 'i').exec(asked);
    const at = money ? MONEY_GROUPS.find((i) => money[i] !== undefined) : undefined;
    const bankroll = money && at ? `bankroll of $${money[at]}${money[at + 1] ?? ''}` : null;
    const outcomes = names(asked).map((r) => outcomeOf(r.outcome).name).join(' or ');
    if (chance) question = `${question.replace(/[?.!\s]+$/, '')} (${[outcomes, chance, bankroll].filter(Boolean).join(', ')})`;
  }
  // ("Half kelly" after "kelly on that with a 10k bankroll": on that bankroll.)
  const bankrollBefore = asked && SIZING.test(question) && SIZING.test(asked) && !MONEY_SAID.test(question) && !/\bbankroll of \$/.test(question) ? new RegExp(MONEY_SAID.source, 'i').exec(asked) : null;
  const bankrollAt = bankrollBefore ? MONEY_GROUPS.find((i) => bankrollBefore[i] !== undefined) : undefined;
  if (bankrollBefore && bankrollAt) question = `${question.replace(/[?.!\s]+$/, '')} (bankroll of $${bankrollBefore[bankrollAt]}${bankrollBefore[bankrollAt + 1] ?? ''})`;
  // "What about with a 10k bankroll?" after Kelly on NO Hold: the same trade, on that bankroll.
  // (A chance said now picks the side itself: "kelly at 80% with 2.5k" after an EV of YES at 87c sizes NO.)
  if (asked && SIZING.test(question) && (SIZING.test(asked) || (sizedBefore(asked) && !CHANCE_SAID.test(question))) && !names(question).length && !/\b(?:yes|no)\b/i.test(question)) {
    const [sideBefore, before] = [/\b(yes|no)\b/i.exec(asked)?.[1], names(asked)];
    if (before.length || sideBefore) question = `${question} (${sideBefore ? `${sideBefore.toUpperCase()}${before.length ? ' on ' : ''}` : ''}${before.map((r) => outcomeOf(r.outcome).name).join(' or ')})`;
  }
  // "And at 30%?" after Kelly or an EV on a chance of one's own: that question again, on this chance.
  const chance = CHANCE_ONLY.exec(question);
  const trading = (q: string) => ['quote', 'best_trade'].includes(eventQuestion(q) ?? '');
  if (asked && chance && CHANCE_SAID.test(asked)) question = asked.replace(new RegExp(CHANCE_SAID.source, 'i'), (m: string, n: string) => `${m.slice(0, m.lastIndexOf(n))}${chance[1]}%`);
  // "What if i think lakers are 70%" after "kelly on lakers, 1k": that trade, on this chance.
  else if (asked && CHANCE_SAID.test(question) && !trading(question) && trading(asked) && question.split(/\s+/).length <= 10) question = `${asked.replace(/[?.!\s]+$/, '')}; ${question}`;
  // Alone ("what if i think lakers are 70%?"): what buying is worth on it.
  else if (CHANCE_SAID.test(question) && [null, 'outcome', 'gap', 'model_favourite'].includes(eventQuestion(question)) && question.split(/\s+/).length <= 10) question = `${question.replace(/[?.!\s]+$/, '')}: EV of buying at the ask?`;
  // "Breakeven prob on that?" after "buying 300 NO": of that side.
  if (asked && eventQuestion(question) === 'quote' && !VALUE_ONLY.test(question) && /\b(?:that|it|those|them)\b/i.test(question) && !/\b(?:yes|no)\b/i.test(question) && NO_BOUGHT.test(asked) && !POSITION_HELD.test(question)) question = `${question.replace(/[?.!\s]+$/, '')} (NO side)?`;
  // "No, 200 of them" after "EV on 100 yes at the ask": that trade again, of this many.
  const count = /^\W*(?:(?:and|ok|so|what about|how about|no+|nah|nope|actually)\W+)?(?:make it\s+)?(\d[\d,]*)(?:\s+of\s+(?:those|them|these|it))?(?:\s+(?:instead|then))?\W*$/i.exec(question);
  const countIn = /\b\d[\d,]*(?=\s+(?:yes|no|contracts?|shares?|of\s+(?:those|them|these|it))\b)/i;
  if (asked && count && eventQuestion(asked) === 'quote' && countIn.test(asked)) question = asked.replace(countIn, count[1]!);
  // "EV on that?" after what contracts cost: the same trade, valued.
  if (asked && VALUE_ONLY.test(question) && eventQuestion(asked) === 'quote') question = `${asked.replace(/[?.!\s]+$/, '')}, expected value?`;
  // "The other side of that one": its NO, not the other outcomes.
  // (Of what it costs or pays; "the other side of that rung" is the level's other side.)
  if (/\b(?:costs?|pays?|price)\b/i.test(question)) question = question.replace(/\bthe other side of (?:that|this|it)(?: one)?(?!\s+(?:rung|level|strike|line|bucket|range))\b/gi, 'the NO side of that one');
  // "And if it goes to 55c?" after a trade's value or size: that question again, at this price.
  const priceOnly = SUPPOSED_PRICE.exec(question);
  // "And if it goes to 20c?" after a position held: that position, marked at this price (not bought at it).
  if (asked && priceOnly && !POSITION_HELD.test(question) && !DEPTH_ASKED.test(question) && question.split(/\s+/).length <= 10 && heldPosition(asked)?.paid) return `${asked.replace(/[?.!\s]+$/, '')} (if it goes to ${priceOnly[1] ?? priceOnly[2]}c)?`;
  // ("And if the price drops to 50c?": the price said to move, no other question.)
  const moveOnly = /^\W*(?:(?:and|so|ok|but)\W+)?(?:what )?(?:if|when|once|say)\s+(?:the\s+)?(?:price|it|that|yes|no|the yes|the no)\s+(?:drops|falls|goes|moves|rises|climbs|gets|trades|dips|is)\s+(?:down |up |back )?(?:to|at)\b/i;
  if (asked && priceOnly && !DEPTH_ASKED.test(question) && (eventQuestion(question) === null || moveOnly.test(question)) && question.split(/\s+/).length <= 8 && (eventQuestion(asked) === 'best_trade' || eventQuestion(asked) === 'quote')) {
    const price = `at ${priceOnly[1] ?? priceOnly[2]}c`;
    question = SUPPOSED_PRICE.test(asked) ? asked.replace(SUPPOSED_PRICE, price) : `${asked.replace(/[?.!\s]+$/, '')} ${price}?`;
  }
  return question;
}

/**
 * A question with the words naming outcomes left out ("half kelly on 48-51 with $1000" → "half kelly
 * with $1000"): each word (or range said "48-51") that names one alone goes, with an "on"/"for"
 * before it; null when what is left still names one.
 */
function withoutOutcomes(text: string, names: (text: string) => Row[]): string | null {
  const words = text.split(/\s+/);
  const kept = words.filter((w) => !names(w.replace(/^[^\w$]+|[^\w%+]+$/g, '')).length);
  const left = kept.join(' ').replace(/\b(?:on|for|of)\s+(?:the\s+)?(?=(?:with|at|using|and|,|$))/gi, '').replace(/\s+/g, ' ').trim();
  return names(left).length || !SIZING.test(left) ? null : left;
}

/**
 * Whether a follow-up only changes the trade asked before ("no side?", "EV on that?", "and at 30%?",
 * "and if it goes to 55c?"), which restated() turns into that question again. `asked`: the user's
 * earlier turns, latest first.
 */
export function changesTrade(question: string, asked: readonly string[]): boolean {
  const changes = (q: string) => SIDE_ONLY.test(q) || VALUE_ONLY.test(q) || CHANCE_ONLY.test(q) || (SUPPOSED_PRICE.test(q) && eventQuestion(q) === null && q.split(/\s+/).length <= 8);
  // Back past turns that themselves only changed it, to the trade's own question.
  const trade = asked.slice(0, 4).find((q) => !changes(q));
  const kind = trade === undefined ? null : eventQuestion(trade);
  // ("And at 25%?" after "kelly on that with 4k" after an EV on one's own 30%: the chance said a turn further back.)
  return (kind === 'quote' || kind === 'best_trade' || kind === 'arbitrage') && changes(question) && (!CHANCE_ONLY.test(question) || asked.slice(0, 4).some((q) => CHANCE_SAID.test(q)));
}

/** The outcome one level up (`step` 1) or down (-1) from the one named, among outcomes with levels; none otherwise. */
function besideLevel(rows: Row[], named: Row[], step: 1 | -1): Row[] {
  if (named.length !== 1) return [];
  const level = (r: Row) => {
    const x = labelRange(outcomeOf(r.outcome).name);
    return x ? (x.from ?? (x.to === null ? null : x.to - 1e9)) : null;
  };
  // Outcomes without levels ("Hold" after "Cut 25bps"): the next row down the table, or up.
  const ordered = rows.some((r) => level(r) === null) ? [...rows].reverse() : rows.filter((r) => level(r) !== null).sort((a, b) => level(a)! - level(b)!);
  const at = ordered.indexOf(named[0]!);
  const beside = at === -1 ? undefined : ordered[at + step];
  return beside ? [beside] : [];
}

/** The foot of an answer drawn from a report or live quotes: which, of what event, as of when. */
function footOf(report: ReportRead): string {
  const [title, asOf] = [report.title.replace(/[*_]/g, ''), report.asOf.slice(0, 16).replace('T', ' ')];
  // The event's ticker beside its title: a later turn ("best bet?", "kelly on that") knows the event from it.
  const ticker = report.eventTicker ?? /\*\*Event:\*\* ([A-Z][A-Z0-9]*-[A-Z0-9.-]*[A-Z0-9])/.exec(report.text)?.[1];
  const titled = ticker ? `**${title}** (${ticker})` : `**${title}**`;
  return report.unreported
    ? `\n\n_From Kalshi's live quotes for ${titled}, as of ${asOf} UTC; no report is stored for it, so there is no model probability (${report.unreported})._\n`
    : `\n\n_From the stored report on ${titled}, as of ${asOf} UTC; ask for the event's address again for the whole report._\n`;
}

function answerAbout(question: string, report: ReportRead): Answer | null {
  const { sections, rows, contracts } = readReport(report.text);
  const title = report.title.replace(/[*_]/g, '');
  const from = footOf(report);
  // Prices then are counted back from the report's time, or from the live quotes'.
  const countedFrom = report.unreported ? "the quotes' time" : "the report's time";
  const section = (start: string) => [...sections.entries()].find(([h]) => h.startsWith(start))?.[1];
  const best = (value: (r: Row) => number) => bestRow(rows, value);
  const kind = eventQuestion(question);
  // An outcome named is what is asked about, unless the question is about the event's dates, rules
  // or past ("when does the hold market close?"); a level or a word for odds names it anyway ("odds it ends above 96k").
  // A bare number in a short question ("what about 2.8?") is a level when an outcome is at it.
  const bounds = labelLevels(rows);
  // A chance the asker supplies ("if i think hike is 60%") is no level naming an outcome.
  const read = withoutChance(question);
  // Inside the event's span too ("what about 53?" of "52°F to 55°F"; "2.9?" between rungs 2.8 and 3.0).
  const [lowest, highest] = [Math.min(...bounds), Math.max(...bounds)];
  // ("the 3400 one", "the 2.8 rung" in a longer question too.)
  const bare = [
    ...(question.split(/\s+/).length <= 6 ? read.matchAll(/(?<![\w.$])(\d+(?:\.\d+)?)(?![\w.%°])/g) : []),
    ...question.matchAll(/\bthe\s+\$?(\d+(?:\.\d+)?)\s+(?:one|contract|strike|rung|level|line|market|outcome)\b/gi),
  ]
    .map((m) => Number(m[1]))
    // "if 3.0 drops to 80c", "should i buy yes on 3600": a number that is exactly one of the levels, not a price or a count.
    .concat(levelsNamed(read, bounds))
    .filter((v) => v >= lowest && v <= highest);
  // "9.5 million (square km)" of rungs labelled "Above 9.5": the level in the labels' own scale.
  const asked = [...new Set([...levelsIn(read).map((v) => inLabelScale(v, bounds)), ...bare])];
  const aboutOutcome = !(kind === 'closing' || kind === 'resolution' || kind === 'history') || asked.length > 0 || /\b(?:odds|chances?|probabilit\w*)\b/i.test(question);
  const levels = aboutOutcome ? asked : [];
  // "How often did the home team win?" asks the past of an outcome named.
  // ("Back to the chiefs game: kelly on the dog": the game is named by a team, the side by "the dog".)
  // ("Who wins the chiefs game?": the game named by a team, the pick asked of both sides.)
  const sideRead = /\b(?:under)?dog\b/i.test(question) || kind === 'model_favourite' || kind === 'market_favourite' || kind === 'market_least' ? read.replace(/\b[\w.'’-]+\s+(?:game|match|matchup)\b/gi, ' ') : read;
  const saidRows = aboutOutcome || kind === 'history' ? namedRows(sideRead, rows, report.title, levels) : [];
  // "150 on the dog" of a two-sided event: the side the market prices lower ("the favourite" is said as such further on).
  const dog = !saidRows.length && rows.length === 2 && (kind === 'quote' || kind === 'best_trade') && /\b(?:under)?dog\b/i.test(question);
  const named = dog ? [bestRow(rows, (r) => -r.marketValue)!] : saidRows;
  // A ladder's outcomes are each a yes/no on its own level: none of them is "the" likeliest result.
  const ladder = isLadder(rows);
  const ranged = rows.filter((r) => labelRange(outcomeOf(r.outcome).name) !== null);
  // One yes/no contract: its price against the rest, the "no".
  const single = rows.length === 1 ? rows[0]! : null;
  const no = negated(question);
  // Whether it happens, of an event with one contract ("so will the government shut down?"): that contract.
  const verdictOf = named.length ? named : single ? [single] : [];
  // The report says so of an event whose outcomes exclude each other (their prices are normalised).
  const exclusive = /mutually exclusive/.test(report.text);
  let text: string | null = null;
  const sideSaid = sideAsked(question);
  // "does not end above 96k" asks for the side below it.
  const side = sideSaid && no ? (sideSaid === 'above' ? 'below' : 'above') : sideSaid;
  const sideWords = sideSaid && no ? `not ${sideSaid}` : side;
  // "200k" is "$200,000" of a price, "200k" of payrolls.
  const dollars = rows.some((r) => r.outcome.includes('$'));
  const saidLevel = (v: number) => {
    const l = levelsAsked(question).find((x) => x.value === v);
    if (l) return l.plain && !dollars ? l.plain : l.said;
    // A level read in the labels' scale ("40" of "$40M to $60M") is said in it.
    return dollars ? compactDollars(v) : String(v);
  };
  // Counts are whole numbers: "more than 4" is "5 or more", "not above 4" is "at most 4".
  const rangesOf = rows.map((r) => labelRange(outcomeOf(r.outcome).name));
  const count = !ladder && isCount(rangesOf);
  const inclusive = sideSaid !== null && sideIncludesLevel(question) !== (no && sideSaid !== null);
  // Whole numbers ("56°F or above" after "52°F to 55°F"): "above 55" starts at 56, unless an
  // outcome is open on that side at the level itself ("above 56" is "56°F or above").
  const openAt = (v: number) => rangesOf.some((r) => r !== null && (side === 'above' ? r.to === null && r.from === v : r.from === null && r.to === v));
  const discrete = count || (!ladder && isDiscrete(rangesOf) && levels.length === 1 && !openAt(levels[0]!));
  const counted = discrete && side && levels.length === 1 ? countSide(levels[0]!, side, inclusive) : null;
  const coverLevel = counted ? counted.level : levels[0];
  const countWords = counted?.words ?? '';
  const cover = !ladder && side && levels.length === 1 ? coverOfSide(rows, (r) => labelRange(outcomeOf(r.outcome).name), coverLevel!, side, discrete) : null;
  const covers = cover !== null && (cover.whole.length > 1 || cover.split !== null || (discrete && cover.whole.length === 1));
  const otherSide = ladder && side && named.length > 0 && named.every((r) => { const s = rungSide(labelRange(outcomeOf(r.outcome).name)); return s !== null && s !== side; });
  const spanAsked = rangeAsked(question);
  // ("Between 20 and 60" of buckets in millions is between $20M and $60M.)
  const between = spanAsked && bounds.length ? { ...spanAsked, from: inLabelScale(spanAsked.from, bounds), to: inLabelScale(spanAsked.to, bounds) } : spanAsked;
  const place = ordinalAsked(question);
  const placed = place === null ? null : (rows[place === -1 ? rows.length - 1 : place - 1] ?? null);
  const priced = PRICED.exec(question);
  // "Below 41% or 41% to 42%?": each side of the "or" names its own outcomes among ranges, added up.
  // ("44% or above" is one side, not two.)
  const OR = /\s+or\s+(?!(?:above|below|more|higher|lower|fewer|less|over|under|greater)\b)/i;
  const sides = !ladder && ranged.length === rows.length && rows.length > 2 && OR.test(question) ? question.split(OR) : [];
  const chosen = sides
    .map((part) => {
      const span = rangeAsked(part);
      if (span) return rows.filter((r) => { const x = labelRange(outcomeOf(r.outcome).name)!; return (x.from ?? -Infinity) >= span.from && (x.to ?? Infinity) <= span.to; });
      const at = levelsIn(part);
      return at.length ? namedRows(part, rows, report.title, at) : [];
    })
    .filter((rs) => rs.length);
  const either = chosen.length > 1 ? [...new Set(chosen.flat())] : [];
  // ("Which of those two moved more this week?": of the outcomes named, compared.)
  // ("How did hold and cut 25 move this week?": each one's move, from the prices then, when the report's
  // notable moves leave one of them out.)
  const movesListed = bullets(section('key claims'), /^- \*\*Price move/);
  const unlisted = named.length > 0 && named.length < rows.length && named.some((r) => !movesListed.some((l) => l.includes(`, ${outcomeOf(r.outcome).name}:**`)));
  const past = kind === 'moves' && (PAST.test(question) || (named.length > 1 && named.length < rows.length && MOVED_MORE.test(question)) || (unlisted && !WHY_MOVED.test(question))) ? pastText(question, named.length < rows.length ? named : [], section('key claims'), countedFrom) : null;
  // ("Lakers won 4 of the last 5 vs boston right? so why …" checks a record, not a comparison.)
  const compared = COMPARE.test(question) && rows.length > 1 && !LAST_CLAIM.test(question) ? comparedSides(question, rows, report.title) : null;
  const moved = kind === 'moves' && WHY_MOVED.test(question) ? whyMovedText(question, rows, named.length < rows.length ? named : [], section('resolution history'), section('key claims')) : null;
  // In "why is the market at 51%?" a percentage is the price questioned, not a level naming an outcome.
  const whyNamed = () => {
    const unquoted = question.replace(/\b(?:at|is|only|just|of|to|from)\s+\d+(?:\.\d+)?\s*%/gi, ' ');
    // (And a number that is exactly a rung's level: "why does the model disagree on 2.8?".)
    return namedRows(unquoted, rows, report.title, [...new Set([...levelsIn(unquoted), ...(ladder ? levelsNamed(unquoted, bounds) : [])])]);
  };
  // About every outcome at once, whatever levels or outcomes it names ("an arbitrage between 2.6 and 2.8?").
  // "How many of the last 5 came in below 41?", "last 3 weeks, which bucket won?": the count is no level.
  // (A count claimed in a "why" of two outcomes, "lakers won 4 of the last 5 vs boston right? so why …", is checked so too.)
  const claimOfTwo = LAST_CLAIM.test(question) && WHY_PRICED.test(question) && named.length > 1;
  const ofRecord = lastCount(question) && (kind === 'history' || claimOfTwo) ? question.replace(LAST_N, ' ').replace(LAST_CLAIM, ' ') : null;
  const recordNamed = ofRecord ? namedRows(ofRecord, rows, report.title, [...levelsIn(ofRecord), ...levelsNamed(ofRecord, bounds)]) : [];
  const lastEvents = ofRecord ? lastEventsText(question, recordNamed.length < rows.length || LAST_CLAIM.test(question) ? recordNamed : [], rows, section('resolution history')) : null;
  // "Cheapest way to get exposure above 52?": the contracts that pay on that side, their costs, the cheapest per dollar.
  const exposure = EXPOSURE_ASKED.test(question) && side && levels.length === 1 ? exposureText(rows, contracts, side, levels[0]!, question.match(/\d[\d,]*(?:\.\d+)?/g)?.find((n) => Number(n.replace(/,/g, '')) === levels[0]) ?? saidLevel(levels[0]!), ladder, cover) : null;
  if (exposure) {
    text = exposure;
  } else if (lastEvents) {
    text = lastEvents;
  } else if (QUOTE_MISSING.test(question)) {
    // "Why no two sided quote on 0 to 75k?": the named outcome's book; none named, every outcome with a side empty.
    text = emptyBookText(named.length && named.length < rows.length ? named : rows, contracts, !(named.length && named.length < rows.length));
  } else if ((kind === 'outcome' || kind === null) && CENTS_ASKED.test(question) && !CHANCE_SAID.test(question)) {
    // "Price in cents?", "how much is above 3600 in cents": each price as cents a contract, the model's chance as a fair price.
    text = centsText(named.length && named.length < rows.length ? named : rows, contracts);
  } else if (kind === 'outcome' && marketCompared(question) && (!named.length || named.length === rows.length)) {
    // "Compare with the market", of no outcome discussed: every outcome's market against its model.
    text = `Model against market, outcome by outcome:\n\n${rows.map(rowLine).join('\n')}${rows.length > 1 && exclusive && rows.some((r) => r.marketNormalised !== r.marketValue) ? '\n\nEach gap is against the price normalised (the prices scaled to add up to 100%), so that no gap is just the overround.' : ''}`;
  } else if (kind === 'sources') {
    // "Where do ur numbers come from? links pls": the report's sources, each with its address.
    text = `The report's figures come from these sources:\n\n${report.citations.map((c) => `- ${c.name}: ${c.url} [${c.order}]`).join('\n')}`;
  } else if (kind === 'catalysts') {
    // Dates, moves, surges and the rules that could flip it: the report's key claims, without the rule quoted whole.
    const lines = bullets(section('key claims'), /^- \*\*(?:Trading closes|Trading may close early|The event itself|Dates named in the rules|Price move|Volume surge|Could flip|Trading is over|Prices are steady|No price history)/);
    text = lines.length ? `What could move it before the end, from the report (it reads prices, volumes, dates and the rules, not news):\n\n${lines.join('\n')}` : null;
  } else if (kind === 'basics' && HOME_AWAY.test(question) && /^(.+?) at (.+?)(?: on |:|\?|$)/i.test(report.title)) {
    // "Are the lakers home or away?": the title says, "Lakers at Celtics".
    const [, away, home] = /^(.+?) at (.+?)(?: on |:|\?|$)/i.exec(report.title.replace(/[*_]/g, ''))!;
    text = `The ${away!.trim()} are away and the ${home!.trim()} at home: the game is ${away!.trim()} at ${home!.trim()}, so on the exchange “Away team” is the ${away!.trim()} and “Home team” the ${home!.trim()} ${refsOf(rows)}.\n\n${rows.map(rowLine).join('\n')}`;
  } else if (kind === 'basics') {
    text = basicsText(report.title, rows, section('key claims'), exclusive, named.length === 1 ? named[0] : undefined);
  } else if (kind === 'summary') {
    // A one-sentence summary is for a reader too, in plain words, unless a trader's form is asked ("one line for the desk").
    const plain = PLAIN_ASKED.test(question) || (ONE_SENTENCE.test(question) && !FOR_TRADERS.test(question));
    // (A TL;DR is one sentence, in the trader's terms, unless a number of sentences is asked.)
    const tldr = /\btl;?\s?dr\b/i.test(question) && sentencesAsked(question) === null;
    text = plain ? plainSummaryText(report.title, rows, section, plainFormOf(question), exclusive) : summaryText(report.title, rows, section, ONE_SENTENCE.test(question) || tldr, exclusive, sentencesAsked(question));
  } else if (kind === 'anomalies' && PLAIN_ASKED.test(question) && plainCrossingText(report.title, rows)) {
    text = plainCrossingText(report.title, rows);
  } else if (kind === 'anomalies') {
    // "Is the ladder priced in order?": yes or no first, from the rungs' prices.
    const order = ladder && /\b(?:in order|out of order|monoton\w*|consistent|cross(?:ed|es|ing)?)\b/i.test(question) ? ladderOrderText(rows) : '';
    text = `${order}${anomaliesText(section('outcomes'), section('key claims'), rows, exclusive)}`;
  } else if (moved) {
    text = moved;
  } else if (WHY_PRICED.test(question) && /\b(?:model|disagree\w*)\b/i.test(question) && whyNamed().length === 1 && modelWhyText(whyNamed()[0]!, section('method'), section('resolution history'), rows)) {
    // "Why does the model disagree with the market on 96k?": that outcome's arithmetic on the fit.
    text = modelWhyText(whyNamed()[0]!, section('method'), section('resolution history'), rows);
  } else if (WHY_LEVEL.test(question) && !whyNamed().length && ladder) {
    // "Why so low?" of a ladder with no rung discussed: each rung is its own price, so which one is asked.
    text = `Which rung? Each is its own yes/no on a level, so none is “the” price; name one (“why is ${outcomeOf(rows.at(-1)!.outcome).name.toLowerCase()} so low?”) for its price explained from the report. The rungs:\n\n${rows.map(rowLine).join('\n')}`;
  } else if (WHY_PRICED.test(question) && kind === 'outcome' && !whyNamed().length && !ladder) {
    // "Why is the market so pessimistic?" names no outcome: the one contract, or the market's favourite, explained.
    const favourite = single ?? best((r) => r.marketValue)!;
    const lead = single ? '' : `No outcome was named, so here is the market's favourite, **${outcomeOf(favourite.outcome).name}** at ${favourite.market}.\n\n`;
    text = `${lead}${whyText(question, [favourite], section('resolution history'), section('key claims'))}`;
  } else if (WHY_PRICED.test(question) && kind !== 'method' && whyNamed().length && whyNamed().length <= 2 && whyNamed().length < rows.length) {
    text = whyText(question, whyNamed(), section('resolution history'), section('key claims'));
  } else if (kind === 'expected') {
    // ("Is hike higher than a week ago?": an outcome named is its price then, not the figure.)
    const priceThen = pastLevelAsked(question) && named.length && named.length < rows.length && !/\b(?:warmer|colder|hotter|cooler)\b/i.test(question) ? pastText(question, named, section('key claims'), countedFrom) : null;
    text = priceThen ?? (pastLevelAsked(question) ? pastLevelText(question, rows, section('resolution history'), report.asOf) : expectedText(rows, ladder, question));
    if (CURRENT_LEVEL.test(question)) text = `The figure itself, now, is not among what the report reads (the exchange's prices and order book, the series' settled events and the rules${/^- \*\*Resolution source:\*\*/m.test(section('key claims') ?? '') ? `; the resolution source is ${/^- \*\*Resolution source:\*\* ([^\n]+?)\s*(?:\[\d+\])*\.?$/m.exec(section('key claims') ?? '')?.[1] ?? 'named in the rules'}` : ''}). What the market and the model expect for the event:\n\n${text}`;
  } else if (kind === 'best_trade') {
    // "Would you buy hold?": that outcome's trade; none named, the best of all.
    // A range asked ("48-51") names the outcomes wholly inside it.
    const inside = between ? rows.filter((r) => { const x = labelRange(outcomeOf(r.outcome).name); return x !== null && (x.from ?? -Infinity) >= between.from && (x.to ?? Infinity) <= between.to; }) : [];
    const meant = named.length && named.length < rows.length ? named : inside.length && inside.length < rows.length ? inside : [];
    if (SIZING.test(question)) {
      // A bankroll ("with $500") is no level naming an outcome.
      // ("Back to the chiefs game: kelly on the dog": the game named by a team is no side.)
      const sized = namedIn(/\b(?:under)?dog\b|\bfavou?rite\b|\bfave?\b/i.test(question) ? question.replace(/\b[\w.'’-]+\s+(?:game|match|matchup)\b/gi, ' ') : question, rows, report.title);
      // "Kelly on the dog": YES on the side the market prices lower, of two ("the fav": higher).
      const backed = !sized.length && rows.length === 2 ? (/\b(?:under)?dog\b/i.test(question) ? -1 : /\b(?:favou?rite|fave?)\b/i.test(question) ? 1 : 0) : 0;
      text = backed
        ? sizingText(`${question} yes`, [bestRow(rows, (r) => backed * r.marketValue)!], contracts)
        : sizingText(question, sized.length && sized.length < rows.length ? sized : rows, contracts);
    }
    else text = meant.length ? quoteText(`buy ${question}`, meant, contracts) : bestTradeText(rows, contracts, /\bworst\b/i.test(question) && !/\bbest\b/i.test(question), /\bbest\b/i.test(question) && /\bworst\b/i.test(question));
  } else if (kind === 'odds_format') {
    text = oddsFormatText(named.length ? named : rows, report.title, question);
  } else if (kind === 'arbitrage' && BOTH_SIDES.test(question) && named.length === 1) {
    text = bothSidesText(question, named[0]!, contracts);
  } else if (kind === 'arbitrage') {
    text = arbitrageText(rows, contracts, exclusive, question);
  } else if (kind === 'overround') {
    text = overroundText(report.text, rows, contracts, exclusive);
  } else if (compared) {
    text = compareText(question, compared);
  } else if (either.length > 1 && either.length < rows.length && kind !== 'quote') {
    const ordered = rows.filter((r) => either.includes(r));
    const model = ordered.every((r) => Number.isFinite(r.modelValue)) ? `, model ${percent(sumOf(ordered, (r) => r.modelValue))}` : '';
    text = `${ordered.map(rowLine).join('\n')}${exclusive ? `\n\nTogether: ${marketSum(ordered)}${model} ${refsOf(ordered)}.` : ''}`;
  } else if (priced && rows.length > 1) {
    text = pricedAboveText(rows, priced[1]!.toLowerCase(), Number(priced[2]), exclusive);
  } else if (kind === 'quote' && SELL_BEFORE.test(question)) {
    const closes = /^- \*\*Trading closes\*\* ([^;(\n]+?)\s*(?:\([^)]*\))?[;.]/m.exec(section('key claims') ?? '')?.[1];
    text = sellBeforeText(named.length && named.length < rows.length ? named : rows, contracts, closes ?? null);
  } else if (kind === 'quote' && (hedgeAsked(question) || positionAlone(question)) && (named.length === 1 || single) && hedgeText(question, named[0] ?? single!, rows, contracts, exclusive)) {
    // "I have 100 yes on hike, how do i hedge?": selling, the other side, or YES on the rest.
    text = hedgeText(question, named[0] ?? single!, rows, contracts, exclusive);
  } else if (kind === 'quote' && (hedgeAsked(question) || positionAlone(question)) && !named.length && !single && rows.length > 1) {
    text = `A hedge offsets a position, and none is named here: say which (“I have 100 YES on **${outcomeOf(rows[0]!.outcome).name}**, how do I hedge?”). YES on an outcome is hedged by selling it at the bid or by buying NO on it; NO, by selling it or buying YES. The quotes:\n\n${quoteText('', rows, contracts) ?? rows.map(rowLine).join('\n')}`;
  } else if (kind === 'quote' && MOST_TRADED.test(question)) {
    text = mostTradedText(question, rows, contracts);
  } else if (kind === 'quote') {
    // "the spread on the favourite": the market's favourite, said so.
    // ("If I buy the most likely bucket", "the longshot": the market's favourite, or the outcome it prices lowest.)
    const end = rankPicked(question);
    // ("Spread on the longshot (3)?", the question before asked again of it: that outcome, said to be the longshot.)
    const ranked = end && !ladder && rows.length > 1 ? best((r) => end * r.marketValue) : undefined;
    const favourite = ranked && (!named.length || (named.length === 1 && named[0] === ranked)) ? ranked : undefined;
    // ("The last outcome, what do 300 YES cost?": the outcome at that place.)
    const shown = favourite ? [favourite] : named.length && named.length < rows.length ? named : !named.length && placed ? [placed] : rows;
    const quotes = quoteText(question, shown, contracts);
    // ("The spread on the favourite" of a ladder: no rung is one, each being its own yes/no; all of them, said so.)
    const noRank = end && ladder && !named.length && rows.length > 1 ? `A ladder has no ${end > 0 ? 'favourite' : 'longshot'}: each rung is its own yes/no on a level, so here is every rung.\n\n` : '';
    text = quotes && favourite ? `The market's ${end > 0 ? 'favourite' : 'least likely outcome'} is **${outcomeOf(favourite.outcome).name}** at ${favourite.market}.\n\n${quotes}` : quotes && noRank ? `${noRank}${quotes}` : quotes;
  } else if (kind === 'previous') {
    text = previousText(question, section('resolution history'), rows);
  } else if (kind === 'method' && place === null) {
    text = methodText(question, named.length && named.length < rows.length ? named : rows, section('method'));
  } else if (kind === 'gap' && rows.length === 2 && /\b(?:or|vs\.?|versus)\b/i.test(question) && TOO_LOW.test(question) && !TOO_HIGH.test(question)) {
    // "Celts or lakers, whos the value?": the side the model finds cheaper against its price, the other beside it.
    const edge = (r: Row) => r.modelValue - r.marketValue;
    const [better, worse] = [...rows].sort((a, b) => edge(b) - edge(a)) as [Row, Row];
    const said = (r: Row) => `**${outcomeOf(r.outcome).name}**, the model's ${r.model} against a market price of ${percent(r.marketValue)} (${points(Number(edge(r).toFixed(1)))}) ${outcomeOf(r.outcome).refs}`;
    text = `${edge(better) > 0 ? 'On the model, the value is' : 'On the model, neither is cheap; the nearer is'} ${said(better)}; ${said(worse)}. This is the model's view on the report's prices, not investment advice.`;
  } else if (kind === 'gap' && (named.length === 1 || (single && (/\byes\b/i.test(question) || TOO_SAID.test(question)))) && (rows.length > 1 || single) && (TOO_LOW.test(question) || TOO_HIGH.test(question))) {
    // "Is yes cheap?" of a single contract: "yes" is that contract.
    text = cheapText(named[0] ?? single!, TOO_LOW.test(question) && !TOO_HIGH.test(question) ? 1 : -1);
  } else if (kind === 'history' && named.length && named.length < rows.length) {
    text = baseRateText(named, section('resolution history'));
  } else if (past) {
    text = past;
  } else if (kind === 'moves' && named.length && named.length < rows.length) {
    const lines = bullets(section('key claims'), /^- \*\*(?:Price move|Volume surge)/).filter((l) => named.some((r) => l.includes(`, ${outcomeOf(r.outcome).name}:**`)));
    text = lines.length ? lines.join('\n') : `The report found no notable price move or volume surge for ${names(named)} over the last day and week.\n\n${named.map(rowLine).join('\n')}`;
  } else if (between && (ladder || ranged.length === rows.length) && !(named.length === 1 && (kind === 'market_favourite' || kind === 'market_least') && /^\s*(?:so\s+)?(?:is|are|was)\b/i.test(question))) {
    // ("Is 52 to 55 the favourite?" is the favourite's yes or no, below, not the range's chance.)
    text = ladder ? ladderSpanText(rows, between, no) : rangeSpanText(rows, between, no);
  } else if (place !== null) {
    text = placed ? placedText(question, placed, place === -1 ? rows.length : place) : `The report lists ${rows.length} outcome${rows.length === 1 ? '' : 's'}; there is no outcome ${place}.\n\n${rows.map(rowLine).join('\n')}`;
  } else if (count && side && levels.length === 1 && cover && !cover.whole.length && !cover.split) {
    const [low, high] = [outcomeOf(rows[0]!.outcome).name, outcomeOf(rows.at(-1)!.outcome).name];
    text = `No outcome is “${countWords} ${saidLevel(levels[0]!)}”: the event's outcomes run from “${low}” to “${high}”.\n\n${rows.map(rowLine).join('\n')}`;
  } else if (covers) {
    text = count
      ? coverText(`${countWords} ${saidLevel(levels[0]!)}`, saidLevel(levels[0]!), cover!, question)
      : coverText(`${sideWords} ${saidLevel(levels[0]!)}`, saidLevel(levels[0]!), cover!, question);
  } else if (otherSide) {
    const said = (r: Row) => {
      const range = labelRange(outcomeOf(r.outcome).name)!;
      return saidLevel((range.from ?? range.to)!);
    };
    text = named.map((r) => otherSideLine(r, sideWords!, said(r))).join('\n');
  } else if (no && !sideSaid && !ladder && rows.length > 1 && named.length && named.length < rows.length) {
    text = notLine(named);
  } else if (
    (verdictOf.length === 1 || (verdictOf.length > 1 && exclusive && !ladder)) &&
    (((kind === 'market_favourite' || kind === 'market_least') && LIKELIHOOD.test(question) && /^\s*(?:so\s+)?(?:is|are|will|was)\b/i.test(question)) || willItHappen(question, kind, no))
  ) {
    // "Is a hike likely?", "will they hike?": whether it is more likely than not, not whether it is the favourite.
    text = likelihoodText(verdictOf, kind === 'market_least' && LIKELIHOOD.test(question));
  } else if ((kind === 'market_favourite' || kind === 'market_least') && named.length === 1 && rows.length > 1 && !ladder && /^\s*(?:is|are|will|was)\b/i.test(question)) {
    // "Is hike the favourite?": Yes or No, then the favourite.
    const pick = kind === 'market_favourite' ? best((r) => r.marketValue) : best((r) => -r.marketValue);
    const asked = named[0]!;
    const verdict = asked === pick ? '**Yes**: ' : `**No**: **${outcomeOf(asked.outcome).name}** is at ${asked.market}. `;
    text = `${verdict}${asked === pick ? 'the' : 'The'} market's ${kind === 'market_favourite' ? 'favourite' : 'least likely outcome'} is **${outcomeOf(pick!.outcome).name}** at ${pick!.market}${modelOf(pick!)} ${refsOf([asked, pick!])}.`;
  } else if (kind === 'resolution' && named.length && named.length < rows.length && rulesText(question, section('key claims'), rows, exclusive, report.title)) {
    // "What exactly counts as a cut of more than 25? does an emergency meeting count?": the rules, not the outcome's price.
    text = rulesText(question, section('key claims'), rows, exclusive, report.title)!;
  } else if (named.length && named.length < rows.length) {
    const missing = unmatchedAmounts(question, named);
    // "a cut of 50bps" of "Cut 25bps" and "Cut more than 25bps": the outcome whose range holds the amount, alone.
    const holds = (r: Row) => {
      const x = labelRange(outcomeOf(r.outcome).name);
      return x !== null && inRange(x, parseFloat(missing[0]!));
    };
    const holding = missing.length === 1 ? named.filter(holds) : [];
    const range = holding.length === 1 ? labelRange(outcomeOf(holding[0]!.outcome).name)! : null;
    const also = range?.to === null ? ', which also covers larger amounts' : range?.from === null ? ', which also covers smaller amounts' : '';
    // "a cut" of "Cut 25bps" and "Cut more than 25bps": exclusive outcomes named together add up.
    // (Both the prices as quoted, added up, and their share of 100%, said which is which.)
    const together = named.length > 1 && !ladder && exclusive ? `\n\nTogether: ${marketSum(named)}${modelSum(named)} ${refsOf(named)}.` : '';
    text = range
      ? `No outcome is exactly “${missing[0]}”: it falls under **${outcomeOf(holding[0]!.outcome).name}**${also}, so its chance is at most that outcome's.\n\n${rowLine(holding[0]!)}`
      : `${missing.length ? `No outcome is ${missing.map((m) => `“${m}”`).join(' or ')}; the nearest named:\n\n` : ''}${named.map(rowLine).join('\n')}${together}`;
  } else if (ladder && levels.length === 1 && !named.length && rungsAround(rows, levels[0]!)) {
    const [below, above] = rungsAround(rows, levels[0]!)!;
    const rung = rungSide(labelRange(outcomeOf(below.outcome).name)) ?? 'above';
    // Asked from the rungs' other side ("below 2.9" of "Above" rungs): their complements.
    const flip = side !== null && side !== rung;
    const value = (x: number) => (flip ? 100 - x : x);
    const span = (a: number, b: number) => `${percent(Math.min(value(a), value(b)))} to ${percent(Math.max(value(a), value(b)))}`;
    text = `No rung is at ${saidLevel(levels[0]!)}: it falls between **${outcomeOf(below.outcome).name}** and **${outcomeOf(above.outcome).name}**, so “${side ?? rung} ${saidLevel(levels[0]!)}” is between ${flip ? 'what their prices leave' : 'their prices'}: market ${span(below.marketValue, above.marketValue)}, model ${span(below.modelValue, above.modelValue)} ${refsOf([below, above])}.\n\n${[below, above].map(rowLine).join('\n')}`;
  } else if (ladder && levels.length === 1 && !named.length && side && beyondLadder(rows, levels[0]!, side, saidLevel(levels[0]!))) {
    text = beyondLadder(rows, levels[0]!, side, saidLevel(levels[0]!));
  } else if (levels.length && ranged.length && !named.length) {
    const [low, high] = [outcomeOf(ranged[0]!.outcome).name, outcomeOf(ranged.at(-1)!.outcome).name];
    const span = ranged.length > 1 ? `: the event's levels run from “${low}” to “${high}”` : '';
    text = `No outcome is at ${levels.map(saidLevel).join(' or ')}${span}.\n\n${rows.map(rowLine).join('\n')}`;
  } else if (single && (kind === 'market_favourite' || kind === 'market_least' || kind === 'model_favourite' || kind === 'outcome' || no || (kind === null && /\b(?:yes|odds|chances?|probabilit\w*)\b/i.test(question)))) {
    const { name, refs } = outcomeOf(single.outcome);
    const yes = single.marketValue;
    // "Favours" would mislead of one contract the model puts under even odds: its side is said.
    const modelSide = single.modelValue >= 50 ? 'that it happens' : 'that it does not';
    const agree = single.modelValue >= 50 === single.marketValue >= 50 ? `, so the model, like the market, leans ${modelSide} (${points(single.modelValue - single.marketValue)} from the market)` : `, so the model leans ${modelSide} where the market does not`;
    // "Who's gonna release first?" of one contract: it prices whether, not who.
    const who = /\bwho\b/i.test(question) ? `It does not price who: ` : '';
    text = `${who}${who ? 'this' : 'This'} event has one yes/no contract, **${name}**: the market gives it ${single.market} (so about ${(100 - yes).toFixed(1)}% that it does not happen), the model ${single.model} ${refs}${kind === 'model_favourite' ? agree : ''}.`;
  } else if ((kind === 'market_favourite' || kind === 'market_least' || kind === 'model_favourite') && ladder && ladderBandsText(rows)) {
    text = expectedText(rows, true, question);
  } else if ((kind === 'market_favourite' || kind === 'market_least') && ladder) {
    text = `Each outcome here is a yes/no on its own level, so no single one is the likeliest result; the market and the model price each:\n\n${rows.map(rowLine).join('\n')}`;
  } else {
    switch (kind) {
      case 'model_favourite': {
        const top = best((r) => r.modelValue);
        if (top) {
          const { name, refs } = outcomeOf(top.outcome);
          text = `The model favours **${name}** at ${top.model}; the market prices it at ${top.market}, a gap of ${top.gap} ${refs}.`;
        }
        break;
      }
      case 'market_favourite':
      case 'market_least': {
        const pick = kind === 'market_favourite' ? best((r) => r.marketValue) : best((r) => -r.marketValue);
        if (pick) {
          const { name, refs } = outcomeOf(pick.outcome);
          text = `The market's ${kind === 'market_favourite' ? 'favourite' : 'least likely outcome'} is **${name}** at ${pick.market}${modelOf(pick)} ${refs}.`;
          // "Who's the underdog and by how much?": the distance between the two ends, in points.
          const other = kind === 'market_favourite' ? best((r) => -r.marketValue) : best((r) => r.marketValue);
          if (other && other !== pick && /\bby how much\b|\bhow far\b|\bhow big\b|\bmargin\b/i.test(question)) {
            const gap = Math.abs(pick.marketValue - other.marketValue);
            const normalised = Math.abs(pick.marketNormalised - other.marketNormalised);
            const same = Math.abs(gap - normalised) < 0.05;
            text += ` The ${kind === 'market_favourite' ? 'least likely' : 'favourite'}, **${outcomeOf(other.outcome).name}**, is at ${other.market}: ${gap.toFixed(1)} points apart${same ? '' : ` (${normalised.toFixed(1)} on the normalised prices)`} ${outcomeOf(other.outcome).refs}.`;
          }
        }
        break;
      }
      case 'gap': {
        const way = TOO_HIGH.test(question) ? -1 : TOO_LOW.test(question) ? 1 : 0;
        if (!way) {
          text = section('key takeaway') ?? null;
          break;
        }
        text = pricedText(rows, way);
        // "Is there any value here?" with every YES dear: the value the model finds may be NO, or a lock across outcomes.
        if (text?.startsWith('On the model, no outcome')) {
          const trade = rankedTrades(rows, contracts)[0];
          if (trade && trade.ev > 0) text += `\n\nThe value the model finds is on the other side: ${tradeSaid(trade)}, before fees.`;
          const arb = exclusive ? arbitrageText(rows, contracts, exclusive, 'arbitrage?') : null;
          if (arb?.startsWith('Yes')) text += `\n\nAnd the quotes lock in a profit across outcomes:\n\n${arb.replace(/^Yes, on the report's quotes:\s*/, '')}`;
        }
        break;
      }
      case 'closing': {
        // With a rule that can end trading early ("can it close early?").
        const lines = bullets(section('key claims'), /^- \*\*(?:Trading closes|Trading may close|Closes|Expir)/);
        text = lines.length ? lines.join('\n') : null;
        break;
      }
      case 'resolution':
        text = rulesText(question, section('key claims'), rows, exclusive, report.title);
        if (text && SUBJECT_ASKED.test(question.toLowerCase())) text = `The event is **${report.title}**; as its rules put it:\n\n${text}`;
        break;

      case 'moves': {
        const lines = bullets(section('key claims'), /^- \*\*(?:Price move|Volume surge)/);
        // Live quotes say only where each price was a day ago: that, said to be all they show.
        const day = report.unreported && !lines.length ? pastText('since yesterday', [], section('key claims'), countedFrom) : null;
        text = lines.length ? lines.join('\n') : day ? `The exchange's quotes show each price a day ago, not a week ago (a report adds the 7-day moves and volume surges from its candlesticks):\n\n${day}` : 'The report found no notable price move or volume surge over the last day and week.';
        break;
      }
      case 'history': {
        const history = section('resolution history');
        // How past favourites did: the record and the base rates, not the whole table.
        const record = (history ?? '').split('\n').filter((l) => /^\*\*(?:Market accuracy|Base rates)/.test(l));
        // Of one contract, its price now beside its record ("base rate vs current price").
        // "Has the market been good at calling these games?", "did the underdog ever win?": its accuracy first, and how often the favourite lost.
        const accuracy = /\b(?:good|well|right|accurate)\b[^?]*\b(?:calling|predicting|picking)\b|\bcalling\b|\bpredict(?:ing|ed|ions?)\b|\breliab\w*|\btrust\w*|\bunderdog\b|\bupsets?\b|\bfavou?rites?\b[^?]*\bw[oi]n|\baccura\w*|\busually right\b|\b(?:been|was|were|is|are|be)\s+(?:\w+\s+)?(?:right|correct|wrong|accurate|on the money)\b/i.test(question);
        const called = record.find((l) => l.startsWith('**Market accuracy'));
        const won = called ? /won (\d+) of (\d+) events/.exec(called) : null;
        const lost = won ? Number(won[2]) - Number(won[1]) : null;
        const upsets = lost === null ? '' : lost === 0 ? ' The favourite never lost among them.' : ` So ${rows.length > 2 ? 'an outcome other than the favourite' : 'the underdog'} won ${lost === 1 ? 'once' : `${lost} times`} in ${won![2]}.`;
        // (The table this line speaks of is not shown here.)
        const ordered = (accuracy && called ? [`${called}${upsets}`, ...record.filter((l) => l !== called)] : record).map((l) => l.replace(', not only the winner shown above', ''));
        // "Lately": the most recent events of the table beside the record.
        const table = (history ?? '').split('\n').filter((l) => l.startsWith('|'));
        const recent = /\b(?:lately|recently|recent|last few|latest)\b/i.test(question) && table.length > 7 ? `\n\nThe last five:\n\n${table.slice(0, 7).join('\n')}` : '';
        text = (TRACK_RECORD.test(question) || accuracy) && record.length ? `${ordered.join('\n\n')}${recent}${single ? `\n\nNow:\n${rowLine(single)}` : ''}` : (history ?? null);
        break;
      }
    }
  }
  // "Lakers -4.5 spread, what's the price?", "will KC cover?": a winner market prices no point spread.
  if (text && POINT_SPREAD.test(question) && rows.some((r) => /^(?:Home|Away) team\b/.test(outcomeOf(r.outcome).name))) {
    text = `This market prices who wins, not a point spread: a win by any margin resolves the winner's contract YES, so no price here is for covering a spread. The winner contracts:\n\n${text.trim()}`;
  }
  if (text && report.unreported) text = ofLiveQuotes(text);
  return text ? cited(`${text.trim()}${from}`, report.citations) : null;
}
