import { describe, expect, it } from 'vitest';
import { eventPageUrl, parseEventUrl } from '../../../src/data/kalshi/url.js';

describe('parseEventUrl', () => {
  it.each([
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec', 'KXFEDDECISION-26DEC'],
    ['https://www.kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec', 'KXFEDDECISION-26DEC'],
    ['HTTPS://KALSHI.COM/MARKETS/KXFEDDECISION/FED-DECISION/KXFEDDECISION-26DEC', 'KXFEDDECISION-26DEC'],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec/', 'KXFEDDECISION-26DEC'],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec?utm_source=x&ref=y', 'KXFEDDECISION-26DEC'],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec#outcomes', 'KXFEDDECISION-26DEC'],
    ['  https://kalshi.com/markets/kxnbagame/nba-game/kxnbagame-26nov21lalbos  ', 'KXNBAGAME-26NOV21LALBOS'],
    ['kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec', 'KXCPIYOY-26DEC'],
    ['http://kalshi.com/markets/kxbtcd/bitcoin/KxBtCd-26Nov20', 'KXBTCD-26NOV20'],
  ])('accepts %s', (input, ticker) => {
    expect(parseEventUrl(input).eventTicker).toBe(ticker);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['what are the odds of a Fed cut?', /not kalshi\.com|not a web address/],
    ['https://polymarket.com/event/fed-decision-in-december', /not kalshi\.com/],
    ['https://kalshi.com.evil.example/markets/a/b/kxfed-26dec', /not kalshi\.com/],
    ['https://evil.example/?u=https://kalshi.com/markets/a/b/c-1', /not kalshi\.com/],
    ['ftp://kalshi.com/markets/a/b/kxfed-26dec', /ftp/],
    ['https://user:pw@kalshi.com/markets/a/b/kxfed-26dec', /credentials or a port/],
    ['https://kalshi.com:8443/markets/a/b/kxfed-26dec', /credentials or a port/],
    ['https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec-t3.0', /market ticker .*its event is likely KXCPIYOY-26DEC, at https:\/\/kalshi\.com\/markets\/kxcpiyoy\/cpi\/kxcpiyoy-26dec\./],
    ['https://kalshi.com/markets/kxfeddecision', /not an event page/],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision', /not an event page/],
    ['https://kalshi.com/events/kxfeddecision/fed/kxfeddecision-26dec', /not an event page/],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec/extra', /not an event page/],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision', /not an event ticker/],
    ['https://kalshi.com/markets/kx%2Ffed/x/kxfed-26dec', /not an event ticker/],
    ['https://kalshi.com/markets/a/b/%ZZ', /malformed %-escape/],
    ['https://kalshi.com/markets/kxfed/fed/kxfed-26dec%E0%A4%A', /malformed %-escape/],
  ])('refuses %j', (input, why) => {
    let err: any;
    try {
      parseEventUrl(input);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ kind: 'invalid_request', code: 'invalid_event_url', param: 'input' });
    expect(err.message).toMatch(why);
    expect(err.message).toContain('https://kalshi.com/markets/<series>/<slug>/<event_ticker>');
  });

  it('links back to the event page, normalised', () => {
    expect(eventPageUrl(parseEventUrl('https://WWW.Kalshi.com/markets/KXFED/Fed/KXFED-26DEC?x=1'))).toBe('https://kalshi.com/markets/kxfed/fed/kxfed-26dec');
  });
});
