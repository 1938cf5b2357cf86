import { invalidRequest } from '../../errors.js';

export interface EventAddress {
  /** Uppercased, as the API expects. */
  eventTicker: string;
  /** Lowercased path segments, kept to link back to the event's page. */
  seriesSegment: string;
  slug: string;
}

export const EXPECTED_FORM = 'https://kalshi.com/markets/<series>/<slug>/<event_ticker>, e.g. https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec';

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

function parse(input: string): EventAddress {
  const text = input.trim();
  if (!text) throw bad('The input is empty.');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw bad(`'${text.slice(0, 100)}' is not a web address.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad(`'${url.protocol}' addresses are not Kalshi pages.`);
  const host = url.hostname.toLowerCase();
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
  const valid = /^[A-Za-z0-9][A-Za-z0-9._]*(-[A-Za-z0-9._]+)+$/;
  if (!valid.test(ticker) || !/^[A-Za-z0-9._-]+$/.test(series) || !/^[A-Za-z0-9._-]+$/.test(slug)) throw bad(`'${ticker}' is not an event ticker.`);
  // An event ticker is the series and one more part (KXCPIYOY-26DEC); a market ticker adds
  // another (KXCPIYOY-26DEC-T2.8).
  if (ticker.split('-').length > 2) {
    const event = ticker.split('-').slice(0, 2).join('-').toLowerCase();
    throw bad(
      `'${ticker.toUpperCase()}' is a market ticker (an outcome inside an event), not an event; its event is likely ${event.toUpperCase()}, at https://kalshi.com/markets/${series.toLowerCase()}/${slug.toLowerCase()}/${event}.`,
    );
  }
  return { eventTicker: ticker.toUpperCase(), seriesSegment: series.toLowerCase(), slug: slug.toLowerCase() };
}

/** The event's page on kalshi.com, for citations. */
export const eventPageUrl = (a: EventAddress) => `https://kalshi.com/markets/${a.seriesSegment}/${a.slug}/${a.eventTicker.toLowerCase()}`;
