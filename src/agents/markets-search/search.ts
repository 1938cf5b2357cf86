import type { KalshiEvent, KalshiSeries } from '../../data/kalshi/types.js';
import { editDistance } from '../../text.js';
import { settlesAt } from './asked.js';
import { teamMentions } from './teams.js';

/** Words that carry no topic in questions about odds (folded like every other word). */
const STOP_WORDS =
  'a an the of in on at to for by from into with via and or is are was were be just only anything list all have one ones size sized pick choose select will would could should do does did what whats which who whom how when where why there their this that these those it its odds chance chances probability probabilities likely likelihood percent percentage market markets prediction predictions kalshi bet bets betting price prices priced pricing forecast happen happens happening next me tell show give find any about get current currently right now today tomorrow tonight soon vs versus than many much more less least most fewer exactly ' +
  // Time spans and directions say when or which way, not what: "is bitcoin going to crash this week".
  'event events settle settles settling settled expire expires expiring resolve resolves resolving cover covers can you your back times compare two underdog favourite favorite favoured favored likelier likeliest against going gonna go goes year yearly week weekly weekend month monthly day daily crash rise fall drop climb hit reach between last previous prior recent latest ' +
  // How often it went one way is asked of the series' record (see past-results.ts), not a topic.
  'often usually typically historically history historical record track past ' +
  // Sources and advice asked around a topic ("any news on bitcoin?", "put my savings into bitcoin"): said apart.
  'news headline headlines rumor rumors rumour rumours savings invest investing put my our ' +
  'dropped dropping dip dips dipped fell falling rose rising risen jumped jumping surged surging spiked tanked plunged ' +
  // Words weighing events against each other ("rank them by how overpriced they are", "which has the bigger edge").
  'has had bigger biggest larger largest smaller smallest greater rank ranked ranking they them we ' +
  'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun ' +
  // Units a level is said in ("60 degrees", "3 percent"): the level is read apart.
  'degree degrees deg unit units ' +
  // Words every contract's text has ("Closes …", "win", "above"), and chat shorthand.
  'win wins winner won winning close closes closed closing end ends higher lower above below over under think thinks say says trader traders people wat r u ur pls please ' +
  // When, said around a date ("before year end", "until friday"): the date is read apart.
  'before after until till ' +
  // How an outcome is said to have paid ("which strikes paid out on the sept cpi print?").
  'strike strikes paid out payout payouts print prints printed bucket buckets rung rungs times ' +
  // What a rule question asks of an event ("which station is used", "what's the settlement source").
  'station stations used source sources rule rules resolution ' +
  // Bettors' words for a trade ("bills ML", "if i throw 250 on them").
  'ml moneyline throw toss ' +
  // Negations and the sign of a figure ask about a side of the outcome (read apart), not a topic.
  'not no never without don dont doesn doesnt didn didnt isn isnt aren arent wasn wasnt wont cant cannot fail fails negative positive ' +
  // How an outcome is said to come about: "payrolls come in negative", "the Lakers beat the Celtics".
  'come comes coming came beat beats beating defeat defeats lose loses losing up down ' +
  // How a figure is said to come in ("if CPI comes in hot") and what a trader thinks of a price: not topics.
  'if hot cold hotter colder soft softer strong stronger weak weaker underpricing overpricing underpriced overpriced mispriced mispricing undervalued overvalued cheap expensive edge value ' +
  // Chat words around a question that name nothing: "whos the fav", "what's the market saying", "the numbers", "implied".
  'fav favs fave whos saying say says number numbers figure figures expected expect expectation implied imply implies look looks like ' +
  // Chat spellings of question words ("wuts the yes on a cut", "wats teh odds … abov 100k").
  'wat wats wut wuts wot hw bout abt teh da abov ' +
  // What is asked of the prices, read apart (see distribution.ts), and shorthand for days.
  'print prints median mean average overround vig vigorish normalised normalized normalise normalize sum total moneyline american decimal tmrw tmr tmrrw tomoz tonite ' +
  // The parts of an event's book: every event has them.
  'ladder ladders rung rungs strike strikes bucket buckets outcome outcomes contract contracts properly off ' +
  // Trading words around a topic ("EV of buying 100 YES on eth above 3400?", "an arbitrage on the cpi ladder?", "whats hot rn"), read apart.
  'ok okay then tho though actually again got gotten ev rn now currently buy buying bought sell selling sold yes arb arbs arbitrage arbitrages free money guaranteed profit profits lock locked riskless max loss payoff payouts payout trade trades trading spot worth ' +
  // The size of a move asked ("the expected size of the Fed's move"), read apart.
  'move moves extent magnitude big large much ' +
  // The unit a price is asked in ("whats the chiefs in cents", "hike as a percentage").
  'cent cents percent percentage percentages pct ' +
  // How a figure is said to end up ("cpi lands between 2.8 and 3.0", "btc finishes above 92k"), and a change of subject ("switching to the lakers game").
  'land lands landing landed finish finishes finishing finished ends ending ended switching switch switched expecting expects ' +
  // Words of asking in a reader's or a trader's terms that name no event ("what's the crowd saying, in plain english?", "quote me the exact rule").
  'crowd plain english words terms quote exact reliable been generate full ' +
  // Chat filler: "yo", "lol", "nah i meant".
  'yo lol lmao haha bro dude nah ya yah yeah yep nope hey hi ngl idk imo fr tbh meant mean just dog dogs line got ' +
  // Which events are asked ("open events in the Kalshi series KXCPIYOY", "what's open on bitcoin"): every listed
  // event is open, and a series is named by its ticker or title. Not "opening", which a box-office title has.
  'open series still';

/** Query words that should also match their usual synonyms in event titles. */
export const SYNONYMS: Record<string, string[]> = {
  fed: ['fed', 'federal', 'reserve', 'fomc', 'rate'],
  fomc: ['fed', 'fomc'],
  cut: ['cut', 'lower', 'decrease', 'reduce', 'rate'],
  hike: ['hike', 'raise', 'increase', 'rate'],
  // "How often does the Fed hold?": the Fed's decision.
  hold: ['hold', 'decision', 'rate'],
  // "Will the Fed raise rates?": a hike.
  raise: ['hike', 'raise', 'increase', 'rate'],
  btc: ['bitcoin', 'btc'],
  bitcoin: ['bitcoin', 'btc'],
  eth: ['ethereum', 'eth', 'ether'],
  ethereum: ['ethereum', 'eth', 'ether'],
  crypto: ['bitcoin', 'ethereum', 'crypto'],
  // Not "price": that is every "Bitcoin price" event too.
  inflation: ['cpi', 'inflation', 'pce'],
  cpi: ['cpi', 'inflation'],
  job: ['jobs', 'payrolls', 'nonfarm', 'employment'],
  payroll: ['payrolls', 'jobs', 'nonfarm'],
  unemployment: ['unemployment', 'jobs'],
  nyc: ['nyc', 'york'],
  york: ['york', 'nyc'],
  temperature: ['temperature', 'temp', 'high', 'weather'],
  temp: ['temperature', 'temp'],
  weather: ['temperature', 'weather', 'rain', 'snow'],
  // "Will it be warm in NYC?": a temperature event.
  warm: ['temperature', 'high'],
  hot: ['temperature', 'high'],
  cold: ['temperature', 'low'],
  shutdown: ['shutdown', 'government'],
  govt: ['government', 'govt', 'shutdown'],
  gov: ['government', 'gov', 'shutdown'],
  // Nonfarm payrolls, the jobs report.
  nfp: ['payrolls', 'jobs', 'nonfarm'],
  // Year over year, as CPI titles write it.
  yoy: ['year', 'cpi', 'inflation'],
  // "Is the government going to shut down?"
  shut: ['shutdown', 'shut'],
  president: ['president', 'presidential'],
  approval: ['approval', 'rating'],
  ai: ['ai', 'model', 'openai', 'anthropic', 'deepmind'],
  spacex: ['spacex', 'launch', 'launches'],
  movie: ['box', 'office', 'film', 'opening'],
  nba: ['nba', 'basketball'],
  nfl: ['nfl', 'football'],
  // Kalshi's categories as people say them ("the economy ones", "anything political?").
  economy: ['economics', 'economy'],
  economic: ['economics', 'economy'],
  macro: ['economics', 'macro'],
  political: ['politics', 'political'],
  tech: ['technology', 'tech'],
  film: ['box', 'office', 'film', 'opening'],
  game: ['sports', 'game'],
};

/**
 * A topic word misspelt ("inflaton", "unemploymnet", "paroll"): the synonym key one edit away (two
 * for long words), so that it finds the events its titles name in other words; itself otherwise.
 * Short words are left alone ("hold" is no "gold").
 */
function misspeltKey(word: string): string {
  if (word.length < 5) return word;
  const most = word.length >= 8 ? 2 : 1;
  let best: { key: string; d: number } | null = null;
  for (const key of Object.keys(SYNONYMS)) {
    if (key.length < 4 || Math.abs(key.length - word.length) > most) continue;
    const d = editDistance(word, key, most);
    if (d <= most && (!best || d < best.d)) best = { key, d };
  }
  return best?.key ?? word;
}

const STOP = new Set(STOP_WORDS.split(' ').map(fold));
/** The model of a report asked about, which is no topic: "model vs market", "your model", "what does the model say". */
export const MODEL_ASKED = /\b(?:model\s+(?:vs\.?|versus|and|or|against|compared to)\s+(?:the\s+)?market|market\s+(?:vs\.?|versus|and|or|against)\s+(?:the\s+)?model|(?:your|the|svc'?s?|our)\s+model(?:'s)?(?:\s+(?:says?|thinks?|probabilit(?:y|ies)|odds))?|model\s+(?:says?|thinks?|probabilit(?:y|ies))|model(?:'s)?\s+(?:edges?|gaps?|view|numbers?))\b/i;
/** Long stopwords, which a one-letter typo ("probabilty") still leaves stopwords. */
const LONG_STOP = [...STOP].filter((w) => w.length >= 6);

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Plurals folded to their singular: "cuts" → "cut", "odds" → "odd". */
export function fold(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** Lowercased words without accents or punctuation, as written. */
function plainWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/** Lowercased words without accents or punctuation, plurals folded. */
export function words(text: string): string[] {
  return plainWords(text).map(fold);
}

/** A search term: the word as the query wrote it, and the words it may match. */
export interface Term {
  word: string;
  alternatives: string[];
}


/** How closely a query word matches a title word: exact 1, prefix ("dec" of "december") 0.8, one typo 0.7. */
function similarity(q: string, w: string): number {
  if (q === w) return 1;
  if (q.length >= 3 && w.startsWith(q)) return 0.8;
  if (q.length >= 4 && w.length >= 4 && editDistance(q, w, q.length >= 8 ? 2 : 1) <= (q.length >= 8 ? 2 : 1)) return 0.7;
  return 0;
}

export interface IndexedEvent {
  event: KalshiEvent;
  seriesTitle: string;
  category: string;
  fields: { words: string[]; weight: number }[];
}

export interface SearchHit {
  entry: IndexedEvent;
  score: number;
  matched: number;
  /** The query's words this event does not match ("paris" for a New York temperature event). */
  missing: string[];
}

/** Search over the titles of the open events and their series. */
/** A topic is a few words; beyond these a question adds cost, not precision. */
const MAX_TERMS = 12;
const MAX_QUERY_CHARS = 2000;

export class EventSearch {
  readonly entries: IndexedEvent[];
  readonly #df = new Map<string, number>();

  constructor(events: KalshiEvent[], series: KalshiSeries[]) {
    const seriesBy = new Map(series.map((s) => [s.ticker, s]));
    this.entries = events.map((event) => {
      const s = seriesBy.get(event.series_ticker);
      const seriesTitle = s?.title ?? '';
      const category = s?.category ?? event.category ?? '';
      const fields = [
        { words: words(event.title), weight: 3 },
        { words: words(seriesTitle), weight: 2 },
        { words: words(`${event.sub_title ?? ''} ${(s?.tags ?? []).join(' ')}`), weight: 1.5 },
        { words: words(`${category} ${event.series_ticker.replace(/^KX/, '')}`), weight: 1 },
        // A ticker written out ("the KXCPIYOY series", "KXFEDDECISION-26DEC") names its event exactly.
        { words: words(`${event.series_ticker} ${event.event_ticker}`), weight: 3 },
      ];
      return { event, seriesTitle, category, fields };
    });
    for (const e of this.entries) for (const w of new Set(e.fields.flatMap((f) => f.words))) this.#df.set(w, (this.#df.get(w) ?? 0) + 1);
  }

  #idf(word: string): number {
    return Math.log(1 + this.entries.length / (1 + (this.#df.get(word) ?? 0)));
  }

  /** The query's topic words, each with the alternatives it may match. */
  /**
   * The query's search terms, each with its alternatives: distinct, and at most MAX_TERMS of them
   * (a search costs terms × events × words on the event loop; a 1 MB question must not stall it).
   */
  static terms(query: string): Term[] {
    const out: Term[] = [];
    const seen = new Set<string>();
    // "Model vs market", "what does your model say": the report's model, not an event about a model.
    let rest = query.slice(0, MAX_QUERY_CHARS).replace(new RegExp(MODEL_ASKED.source, 'gi'), ' ');
    // A team named by its place or abbreviation ("KC", "Kansas City") matches titles that write its
    // nickname ("Bills at Chiefs"): one term, whose alternatives are the nicknames of the teams there.
    for (const m of teamMentions(rest)
      .filter((x) => !x.byNickname)
      .slice(0, MAX_TERMS)) {
      // A place keeps its own longest word ("york" of "New York"), for events about the place itself.
      const place = words(m.said).sort((a, b) => b.length - a.length)[0]!;
      const alternatives = [...new Set([...(Object.hasOwn(SYNONYMS, place) ? SYNONYMS[place]! : [place]), ...m.teams.map((t) => words(t.nickname).at(-1)!)])];
      if (!seen.has(alternatives.join(' '))) out.push({ word: m.said, alternatives });
      seen.add(alternatives.join(' '));
      rest = `${rest.slice(0, m.at)}${' '.repeat(m.said.length)}${rest.slice(m.at + m.said.length)}`;
    }
    // "The last 5 CPI releases", "payrolls print": of a data series, how it comes out, no event of its own (not the AI model's "Release").
    const ofData = /\b(?:cpi|inflation|payrolls?|jobs|nfp|gdp|unemployment|pce)\b/i.test(rest);
    for (const word of plainWords(rest)) {
      if (out.length >= MAX_TERMS) break;
      if (ofData && /^(?:release|print|report|number|reading)s?$/i.test(word)) continue;
      const w = fold(word);
      // Numbers and levels ("100k", "25bps", "3rd") are read apart (see asked.ts), never as topic words.
      if (w.length < 2 || STOP.has(w) || /^\d+(?:[a-z]|bps?|pts?|pct|deg|st|nd|rd|th)?$/.test(w) || LONG_STOP.some((s) => editDistance(w, s, 1) <= 1)) continue;
      const month = MONTHS.find((m) => m.startsWith(w) && w.length >= 3);
      // Own keys only: "constructor" is a word, not Object's constructor.
      const alternatives = month ? [month] : (Object.hasOwn(SYNONYMS, w) ? SYNONYMS[w]! : Object.hasOwn(SYNONYMS, misspeltKey(w)) ? SYNONYMS[misspeltKey(w)]! : [w]).map(fold);
      const key = alternatives.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ word, alternatives });
    }
    return out;
  }

  /**
   * Whether a word of a query names something an event could be about, so that no event shown
   * having it is worth saying ("none mentions “paris”"): a word some open event has, a month, a
   * name capitalised inside the sentence ("in Paris"), a place, a subject or a rival said where
   * names go; not an ordinary word no event has ("keep", "flop", "comfortably", "stays").
   */
  namesSomething(word: string, query: string): boolean {
    const term = EventSearch.terms(word)[0];
    if (!term) return false;
    if (term.alternatives.some((alt) => MONTHS.includes(alt))) return true;
    if (this.entries.some((e) => e.fields.some((f) => f.words.some((w) => term.alternatives.some((alt) => similarity(alt, w) > 0))))) return true;
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const m of query.matchAll(new RegExp(`\\b${escaped}\\b`, 'gi'))) {
      const before = query.slice(0, m.index).trimEnd();
      // Capitalised where a sentence does not start: a name.
      if (/^[A-Z]/.test(m[0]) && before && !/[.?!:]$/.test(before)) return true;
      // A place ("in london"), the subject asked of ("will openai release …?"), or a topic set against another ("bitcoin vs dogecoin").
      if (/\b(?:in|at|near|from|will|does|vs\.?|versus)$/i.test(before)) return true;
      // The rival of a contest, lower case or not ("will bitcoin beat dogecoin?", "can ethereum flip solana?"): the
      // word after a verb of beating one thing by another, where a name goes.
      if (/\b(?:beat(?:s|ing)?|defeat(?:s|ing)?|flip(?:s|ping)?|overtak(?:e|es|ing)|outperform(?:s|ing)?|outpac(?:e|es|ing)|outsell(?:s|ing)?|overtook|beaten)$/i.test(before)) return true;
    }
    return false;
  }

  /** The one open event each text names wholly (every topic word matched), of the first five texts: the text beside its event's ticker. */
  named(texts: readonly string[]): { ticker: string; text: string }[] {
    return texts.slice(0, 5).flatMap((text) => this.search(text, 1).filter((h) => h.missing.length === 0).map((h) => ({ ticker: h.entry.event.event_ticker, text })));
  }

  /** Every open event, soonest to settle first (those without a listed date last). */
  everyEvent(limit: number): IndexedEvent[] {
    const at = (x: IndexedEvent) => settlesAt(x.event) ?? Infinity;
    return [...this.entries].sort((a, b) => at(a) - at(b)).slice(0, limit);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Open events settling in [from, to), soonest first (the index lists no markets: events without a strike date cannot be placed). */
  settlingBetween(from: number, to: number, limit: number): IndexedEvent[] {
    return this.entries
      .map((x) => ({ x, at: settlesAt(x.event) }))
      .filter(({ at }) => at !== null && at >= from && at < to)
      .sort((a, b) => a.at! - b.at!)
      .slice(0, limit)
      .map(({ x }) => x);
  }

  /**
   * The open events a query names, best first. `context` (the question a follow-up continues)
   * only ranks what the query's own words find: "what about bitcoin?" after a Fed question finds
   * Bitcoin events, and "and in January?" prefers the Fed's January event among January ones.
   */
  search(query: string, limit = 5, context?: string): SearchHit[] {
    const terms = EventSearch.terms(query);
    if (!terms.length) return [];
    const own = new Set(terms.map((t) => t.alternatives.join(' ')));
    const extra = context ? EventSearch.terms(context).filter((t) => !own.has(t.alternatives.join(' '))) : [];
    const { hits, seen } = this.#ranked(terms, extra);
    const kept = EventSearch.#close(hits, terms.length, limit);
    // "Can you give me a plain-English summary of what the market expects for the December CPI
    // print?": words no open event has anywhere ("plain", "readers") do not count against the
    // topic; the events are found on the others, those words still said to be missing.
    const unknown = terms.filter((_, i) => !seen[i]);
    if (kept.length || !unknown.length || unknown.length === terms.length) return kept;
    const known = terms.filter((_, i) => seen[i]);
    const again = this.#ranked(known, extra).hits.map((h) => ({ ...h, missing: [...h.missing, ...unknown.map((t) => t.word)] }));
    return EventSearch.#close(again, known.length, limit);
  }

  /** Each event's score on the terms (the context's counting half), and which terms any event has at all. */
  #ranked(terms: Term[], extra: Term[]): { hits: SearchHit[]; seen: boolean[] } {
    const hits: SearchHit[] = [];
    const seen = terms.map(() => false);
    for (const entry of this.entries) {
      let score = 0;
      let matched = 0;
      const missing: string[] = [];
      for (const [i, { word, alternatives }] of [...terms, ...extra].entries()) {
        let best = 0;
        for (const f of entry.fields) {
          for (const w of f.words) {
            for (const alt of alternatives) {
              const sim = similarity(alt, w);
              if (sim) best = Math.max(best, sim * f.weight * this.#idf(w));
            }
          }
        }
        if (i >= terms.length) {
          score += best / 2;
          continue;
        }
        if (best > 0) {
          matched++;
          seen[i] = true;
        } else missing.push(word);
        score += best;
      }
      if (matched) hits.push({ entry, score: (score * matched) / terms.length, matched, missing });
    }
    return { hits, seen };
  }

  /** What is reasonably close to the best match, and matches at least half the topic, best first. */
  static #close(hits: SearchHit[], terms: number, limit: number): SearchHit[] {
    hits.sort((a, b) => b.score - a.score);
    const top = hits[0]?.score ?? 0;
    return hits.filter((h) => h.score >= top * 0.35 && h.matched * 2 >= terms).slice(0, limit);
  }
}
