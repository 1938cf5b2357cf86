import { invalidRequest, type SvcError } from '../../errors.js';

export interface EventAddress {
  /** Uppercased, as the API expects. */
  eventTicker: string;
  /** Lowercased path segments, kept to link back to the event's page. */
  seriesSegment: string;
  slug: string;
  /**
   * The ticker has the shape of a market's (the event's and one more part: KXCPIYOY-26DEC-T2.8).
   * Only the exchange can tell for sure: see confirmEventAddress.
   */
  marketLike: boolean;
}

export const EXPECTED_FORM = 'https://kalshi.com/markets/<series>/<slug>/<event_ticker>, e.g. https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec (or the event ticker alone, KXFEDDECISION-26DEC)';

const bad = (why: string) => invalidRequest('invalid_event_url', `${why} Expected the address of a Kalshi event page: ${EXPECTED_FORM}.`, 'input');

/**
 * Parses a Kalshi event page address. Nothing is ever fetched from it: only the ticker is
 * used, against the configured Kalshi API, so no caller can point the service at another host.
 */
export function parseEventUrl(input: string): EventAddress {
  // The same addresses come again and again (a cached report asked for by many callers).
  const known = parsed.get(input);
  if (known) return known;
  const address = Object.freeze(parse(input));
  if (input.length <= 512) {
    if (parsed.size >= 10_000) parsed.clear();
    parsed.set(input, address);
  }
  return address;
}

const parsed = new Map<string, EventAddress>();

/** Wrappings an address picks up when pasted: Slack's <url|label>, brackets, quotes. */
const WRAPPED = [/^<([^<>|\s]+)(?:\|[^<>]*)?>$/, /^\(([^()\s]+)\)$/, /^\[([^[\]\s]+)\]$/, /^"([^"\s]+)"$/, /^'([^'\s]+)'$/, /^“([^“”\s]+)”$/, /^`([^`\s]+)`$/];

/** The address alone: unwrapped, without the sentence's closing punctuation ("see …/kxcpiyoy-26dec."). */
function bareAddress(input: string): string {
  let text = input.trim();
  for (let again = true; again; ) {
    again = false;
    const stripped = text.replace(/[.,;:!?]+$/, '');
    const inner = WRAPPED.map((re) => re.exec(stripped)?.[1]).find((x) => x !== undefined);
    if (inner !== undefined) [text, again] = [inner, true];
    else text = stripped;
  }
  return text;
}

/**
 * An event ticker given alone ("KXFEDDECISION-26DEC"): its page's address, the series being the
 * ticker's first part (the slug is decorative: Kalshi ignores it). Null for anything else; a
 * dotted part must be a number ("T2.8"), so "my-site.com" is not a ticker.
 */
export function tickerAddress(input: string): string | null {
  const text = bareAddress(input);
  if (!/^[A-Za-z]{3,}(?:-[A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?)+$/.test(text) || /\.(?!\d)|(?<!\d)\./.test(text) || !/\d/.test(text)) return null;
  const series = text.split('-')[0]!.toLowerCase();
  return `https://kalshi.com/markets/${series}/${series}/${text.toLowerCase()}`;
}

function parse(input: string): EventAddress {
  if (!input.trim()) throw bad('The input is empty.');
  const text = tickerAddress(input) ?? bareAddress(input);
  if (!text) throw bad(`'${input.trim().slice(0, 100)}' is not a web address.`);
  const addresses = text.split(/\s+/).filter((w) => /kalshi\.com\//i.test(w)).length;
  if (addresses > 1) throw bad(`The input has ${addresses} addresses, and a report is for one event: send one event address per request.`);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    // A sentence: a question about an event, for the agent that answers those.
    const question = /\s/.test(text) ? ' Questions about an event or its report go to svc-agent, or here after the event\'s address earlier in the same conversation.' : '';
    throw bad(`'${text.slice(0, 100)}' is not a web address.${question}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad(`'${url.protocol}' addresses are not Kalshi pages.`);
  // "kalshi.com." is the same host written fully qualified.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host !== 'kalshi.com' && host !== 'www.kalshi.com') throw bad(`'${host}' is not kalshi.com.`);
  if (url.username || url.password || (url.port && url.port !== '443' && url.port !== '80')) throw bad('The address carries credentials or a port.');
  let segments: string[];
  try {
    segments = url.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    throw bad(`The path '${url.pathname.slice(0, 100)}' has a malformed %-escape.`);
  }
  if (segments[0]?.toLowerCase() !== 'markets' || segments.length !== 4) throw bad(`The path '${url.pathname}' is not an event page.`);
  const [, series, slug, ticker] = segments as [string, string, string, string];
  // Parts end in a letter or digit: a trailing '.' is punctuation, not part of a ticker.
  const valid = /^[A-Za-z0-9][A-Za-z0-9._]*(-[A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?)+$/;
  if (!valid.test(ticker) || !/^[A-Za-z0-9._-]+$/.test(series) || !/^[A-Za-z0-9._-]+$/.test(slug)) throw bad(`'${ticker}' is not an event ticker.`);
  // An event ticker is usually the series and one more part (KXCPIYOY-26DEC); a market ticker adds
  // another (KXCPIYOY-26DEC-T2.8).
  return { eventTicker: ticker.toUpperCase(), seriesSegment: series.toLowerCase(), slug: slug.toLowerCase(), marketLike: ticker.split('-').length > 2 };
}

/** The 400 for the address of a market: names its event, known from the exchange or guessed from the ticker. */
export function marketAddressError(a: EventAddress, event?: { ticker: string; outcome?: string }): SvcError {
  const guessed = a.eventTicker.split('-').slice(0, 2).join('-');
  const eventTicker = event?.ticker ?? guessed;
  const page = `https://kalshi.com/markets/${a.seriesSegment}/${a.slug}/${eventTicker.toLowerCase()}`;
  const what = event?.outcome ? `the market for “${event.outcome}”, an outcome inside an event` : 'a market ticker (an outcome inside an event)';
  return bad(`'${a.eventTicker}' is ${what}, not an event; its event is ${event ? '' : 'likely '}${eventTicker}, at ${page}.`);
}

/** Exchange lookups that tell a market's ticker from an event's. */
export interface TickerLookup {
  market(ticker: string): Promise<{ event_ticker: string; yes_sub_title?: string } | null>;
  event(ticker: string): Promise<unknown | null>;
}

/**
 * For an address whose ticker looks like a market's: a 400 naming the market's event when the
 * exchange knows the market; nothing when it is an event after all (some event tickers have more
 * parts); the guessed 400 when the exchange knows neither. An exchange that cannot be asked is
 * its own error (502): a valid event is not called a market's ticker because of an outage.
 */
export async function confirmEventAddress(a: EventAddress, kalshi: TickerLookup): Promise<void> {
  if (!a.marketLike) return;
  const market = await kalshi.market(a.eventTicker);
  if (market) throw marketAddressError(a, { ticker: market.event_ticker, outcome: market.yes_sub_title || undefined });
  if (await kalshi.event(a.eventTicker)) return;
  throw marketAddressError(a);
}

/** The event's page on kalshi.com, for citations. */
export const eventPageUrl = (a: EventAddress) => `https://kalshi.com/markets/${a.seriesSegment}/${a.slug}/${a.eventTicker.toLowerCase()}`;
