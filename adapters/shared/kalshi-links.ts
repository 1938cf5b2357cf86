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
 * Whether a message asks something beside the event links it holds ("how does this compare with
 * <link>? which is mispriced more?"): then it is a question for the research agent, which reads
 * the links too, not a request for a new report that would drop it. A link alone, or with a
 * word or two ("report please", "thoughts"), is a report request.
 */
export function asksBesideLinks(text: string): boolean {
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
