/**
 * Kalshi event links: `https://kalshi.com/markets/<series>/<slug>/<event_ticker>`, in any case,
 * with or without `www.`, a trailing slash, a query or a fragment; also inside Slack's
 * `<url|label>` and Discord's `<url>` wrappers.
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
const LINK = new RegExp(
  `https?://(?:www\\.)?kalshi\\.com/markets/(${SEGMENT})/(${SEGMENT})/(${SEGMENT})/?(?:[?#][^\\s<>|()\\[\\]"']*)?(?=$|[\\s<>|()\\[\\]"'.,;:!?*_~])`,
  'gi',
);

function titleOf(slug: string, ticker: string): string {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  const readable = words ? words[0]!.toUpperCase() + words.slice(1) : ticker;
  return `${readable} (${ticker})`;
}

/** Every distinct event link in `text`, in order of appearance. */
export function findKalshiEventLinks(text: string): KalshiEventLink[] {
  const found = new Map<string, KalshiEventLink>();
  LINK.lastIndex = 0;
  for (let m = LINK.exec(text); m; m = LINK.exec(text)) {
    const [series, slug, ticker] = [m[1]!.toLowerCase(), m[2]!.toLowerCase(), m[3]!.toLowerCase()];
    const eventTicker = ticker.toUpperCase();
    if (found.has(eventTicker)) continue;
    found.set(eventTicker, { url: `https://kalshi.com/markets/${series}/${slug}/${ticker}`, series, slug, eventTicker, title: titleOf(slug, eventTicker) });
  }
  return [...found.values()];
}

export const EXAMPLE_EVENT_URL = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';
