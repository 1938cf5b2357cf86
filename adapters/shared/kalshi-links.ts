/**
 * Kalshi event links: `https://kalshi.com/markets/<series>/<slug>/<event_ticker>`, in any case,
 * with or without `www.`, a trailing slash, a query or a fragment; also inside Slack's
 * `<url|label>` and Discord's `<url>` wrappers. Links inside code (fenced blocks and inline
 * spans) are quoted, not pasted for a report: a snippet of code or logs must not start a paid one.
 */
export interface KalshiEventLink {
  /** The canonical address: lower case, no query or fragment. */
  url: string;
  series: string;
  slug: string;
  /** The event ticker, upper case (`KXFED-25DEC`). */
  eventTicker: string;
  /** A readable title from the slug and ticker, for thread names and status lines. */
  title: string;
}

const SEGMENT = '[A-Za-z0-9_-]+';
// A market's ticker may hold a dot (KXCPIYOY-26DEC-T2.8); a dot with no word after it ends the sentence.
const TICKER = '[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*';
// What may follow a link: the end, space, a wrapper's closing mark, or punctuation (full-width too).
const AFTER = `$|[\\s<>|()\\[\\]"'.,;:!?*_~\u3001\u3002\uff08\uff09\uff0c\uff1a\uff1b\uff01\uff1f\u300c\u300d\u300e\u300f\u2026\u201c\u201d\u2018\u2019]`;
const LINK = new RegExp(
  `https?://(?:www\\.)?kalshi\\.com/markets/(${SEGMENT})/(${SEGMENT})/(${TICKER})/?(?:[?#][^\\s<>|()\\[\\]"'\u3002\uff09\u300d\u2026]*)?(?=${AFTER})`,
  'gi',
);

/** Code, fenced or inline, blanked to spaces of the same length so positions stay put. */
function withoutCode(text: string): string {
  const blank = (code: string) => code.replace(/[^\n]/g, ' ');
  return text.replace(/```[\s\S]*?```/g, blank).replace(/`[^`\n]+`/g, blank);
}

/** Abbreviations common in Kalshi's event slugs, written as they are said ("cpi" is CPI). */
const ABBREVIATIONS = new Set(
  'cpi gdp pce ppi fomc nfp ecb boe boj rba snb ism adp jolts us usa uk eu un nato nba wnba nfl mlb nhl ncaa mls ufc pga atp wta f1 ai btc eth xrp wti ipo ceo sec gop tsa opec'.split(' '),
);
/** Proper names slugs write in lower case. */
const NAMES: Record<string, string> = { fed: 'Fed', trump: 'Trump', bitcoin: 'Bitcoin', ethereum: 'Ethereum', nasdaq: 'Nasdaq', tesla: 'Tesla', apple: 'Apple', nvidia: 'Nvidia' };

function titleOf(slug: string, ticker: string): string {
  const words = slug
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => (ABBREVIATIONS.has(w) ? w.toUpperCase() : (NAMES[w] ?? w)));
  if (!words.length) return ticker;
  const readable = words.join(' ');
  return `${readable[0]!.toUpperCase()}${readable.slice(1)} (${ticker})`;
}

/** Every distinct event link in `text`, in order of appearance. */
export function findKalshiEventLinks(text: string): KalshiEventLink[] {
  const found = new Map<string, KalshiEventLink>();
  const prose = withoutCode(text);
  LINK.lastIndex = 0;
  for (let m = LINK.exec(prose); m; m = LINK.exec(prose)) {
    const [series, slug, ticker] = [m[1]!.toLowerCase(), m[2]!.toLowerCase(), m[3]!.toLowerCase()];
    const eventTicker = ticker.toUpperCase();
    if (found.has(eventTicker)) continue;
    found.set(eventTicker, { url: `https://kalshi.com/markets/${series}/${slug}/${ticker}`, series, slug, eventTicker, title: titleOf(slug, eventTicker) });
  }
  return [...found.values()];
}

/**
 * A Kalshi series page (`https://kalshi.com/markets/<series>`, or `…/<series>/<slug>`): no event
 * ticker, so no report; the research agent lists (and answers about) the series' open events when
 * the series is named to it by its ticker.
 */
export interface KalshiSeriesLink {
  /** The canonical address: lower case, no query or fragment. */
  url: string;
  /** The series ticker, upper case (`KXFEDDECISION`). */
  series: string;
  /** A readable title, for thread names. */
  title: string;
}

// Not followed by another segment: `…/<series>/<slug>/<event>` is an event's page.
// A query or fragment ends before a sentence's closing punctuation ("…/kxfed?", "…/kxfed?ref=x.").
const QUERY_CHAR = `[^\\s<>|()\\[\\]"'\u3002\uff09\u300d\u2026]`;
const SERIES_LINK = new RegExp(`https?://(?:www\\.)?kalshi\\.com/markets/(${SEGMENT})(?:/(${SEGMENT}))?/?(?:[?#]${QUERY_CHAR}*(?<![.,;:!?]))?(?=${AFTER})`, 'gi');

/** Every distinct series link in `text` (event links are not series links), in order of appearance; code is quoted, as for event links. */
export function findKalshiSeriesLinks(text: string): KalshiSeriesLink[] {
  const found = new Map<string, KalshiSeriesLink>();
  const prose = withoutCode(text);
  SERIES_LINK.lastIndex = 0;
  for (let m = SERIES_LINK.exec(prose); m; m = SERIES_LINK.exec(prose)) {
    const series = m[1]!.toUpperCase();
    if (found.has(series)) continue;
    const slug = m[2]?.toLowerCase();
    found.set(series, { url: `https://kalshi.com/markets/${series.toLowerCase()}${slug ? `/${slug}` : ''}`, series, title: slug ? titleOf(slug, series) : `Kalshi series ${series}` });
  }
  return [...found.values()];
}

/**
 * `text` with each Kalshi series link (bare, or in Discord's `<url>` wrapper) written as the
 * series it names, "Kalshi series KXFEDDECISION": the service reads only event addresses and
 * refuses a turn holding any other kalshi.com/markets address, while it answers about a series
 * named by its ticker (its open events and their prices). Code is left as written.
 */
export function nameSeriesLinks(text: string): string {
  if (!/kalshi\.com\/markets\//i.test(text)) return text;
  const code = withoutCode(text);
  const wrapped = new RegExp(`<?(?:${SERIES_LINK.source})>?`, 'gi');
  return text.replace(wrapped, (match, series: string, _slug: string | undefined, offset: number) => {
    // A link inside code (blanked in `code`) stays as written.
    if (code.slice(offset, offset + match.length).trim() !== match.trim()) return match;
    return `Kalshi series ${series.toUpperCase()}`;
  });
}

/**
 * Whether a message asks something beside the event links it holds ("how does this compare with
 * <link>? which is mispriced more?"): then it is a question for the research agent, which reads
 * the links too, not a request for a new report that would drop it. A link alone, or with a
 * word or two ("report please", "thoughts"), is a report request. A series page beside them is
 * always something asked.
 */
export function asksBesideLinks(text: string): boolean {
  // A series page beside an event's ("<event link> vs <series link>") asks about the series, which
  // has no report of its own: a question (the series named "Kalshi series X" to the service, see
  // nameSeriesLinks), whether its address is wrapped (<…>) or bare, never the event's report alone.
  if (findKalshiSeriesLinks(text).length) return true;
  const rest = withoutCode(text)
    .replace(/<[^<>\s]*kalshi\.com[^<>]*>/gi, ' ')
    .replace(LINK, ' ')
    .replace(/<[@#!][^<>]*>/g, ' ');
  const words = rest.match(/[\p{L}\p{N}']+/gu) ?? [];
  if (REPORT_ONLY.test(words.join(' '))) return false;
  const count = wordCount(words);
  // "why is <link> up", "is <link> mispriced": a question without its mark.
  const asked = /^(?:why|how|is|are|will|would|should|does|did|do|can|could|when|which|who|where)$/i.test(words[0] ?? '');
  return count >= 4 || ((/[?？]/.test(rest) || asked) && count >= 2);
}

/** Scripts written without spaces between words: a run of them holds several words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;

/** How many words `runs` hold, reckoning two characters a word in unspaced scripts ("这个市场定价合理吗" is a question, not one word). */
function wordCount(runs: string[]): number {
  let count = 0;
  for (const run of runs) {
    const unspaced = run.match(UNSPACED)?.length ?? 0;
    count += unspaced ? Math.max(1, Math.round(unspaced / 2)) + (unspaced < run.length ? 1 : 0) : 1;
  }
  return count;
}

/**
 * Words beside a link that ask for nothing but the report: "what do you make of this?", "thoughts
 * on this one", "can you look into it", "full report pls".
 */
const REPORT_ONLY =
  /^(?:(?:so|hey|yo|ok|okay|hi|bot|pls|please|anyone|any|quick)\s+)*(?:what\s+do\s+(?:you|u|ya|we)\s+(?:make\s+of|think(?:\s+(?:of|about))?|reckon)|what(?:'s|s|\s+is)\s+(?:your|ur|the)\s+(?:take|view|read|verdict)(?:\s+on)?|(?:your|ur|any)\s+(?:takes?|thoughts?|views?|opinions?)(?:\s+on)?|thoughts?(?:\s+on)?|opinions?(?:\s+on)?|(?:a\s+|the\s+|full\s+)*report(?:\s+on)?|analy[sz]e|research|(?:take\s+a\s+)?look\s+(?:in)?to|(?:take\s+a\s+)?look\s+at|check\s+(?:out)?|(?:can|could|would)\s+(?:you|u)\s+(?:please\s+)?(?:look\s+(?:at|into)|analy[sz]e|research|check(?:\s+out)?|report\s+on|do\s+a\s+report\s+on|break\s+(?:(?:this|it)\s+)?down))(?:\s+(?:this|it|that|these|here|one|event|market|for\s+me|me|pls|please|thanks|thx|ty))*$/i;

export const EXAMPLE_EVENT_URL = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';

/**
 * What `/svc report` says of an argument that is no event's link: for a series' page, which series
 * it is and how to ask about it (its open events) instead; `usage` follows (the platform's own).
 */
export function notAnEventLink(text: string, usage: string): string {
  const [series] = findKalshiSeriesLinks(text);
  if (!series) return `That is not a Kalshi event link. ${usage}`;
  return `That is the page of a Kalshi series (${series.series}), not of one event, so there is no report on it. Ask about it with \`/svc ask\` (its open events and their prices); for a report, use one event's address. ${usage}`;
}
