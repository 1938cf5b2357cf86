import { describe, expect, it } from 'vitest';
import { confirmEventAddress, eventPageUrl, parseEventUrl } from '../../../src/data/kalshi/url.js';

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
    // As pasted: the end of a sentence, Slack's link markup, brackets and quotes, a fully qualified host.
    ['https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec.', 'KXCPIYOY-26DEC'],
    ['https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec?ref=x!', 'KXCPIYOY-26DEC'],
    ['<https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec>', 'KXCPIYOY-26DEC'],
    ['<https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec|CPI in December>', 'KXCPIYOY-26DEC'],
    ['(https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec).', 'KXCPIYOY-26DEC'],
    ['“https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec”', 'KXCPIYOY-26DEC'],
    ['https://Kalshi.Com./markets/kxcpiyoy/cpi/kxcpiyoy-26dec', 'KXCPIYOY-26DEC'],
    // The event ticker alone, as Kalshi's pages and API write it.
    ['KXFEDDECISION-26DEC', 'KXFEDDECISION-26DEC'],
    ['kxcpiyoy-26dec.', 'KXCPIYOY-26DEC'],
    ['`KXCPIYOY-26DEC-T2.8`', 'KXCPIYOY-26DEC-T2.8'],
  ])('accepts %s', (input, ticker) => {
    expect(parseEventUrl(input).eventTicker).toBe(ticker);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['what are the odds of a Fed cut?', /not a web address\. Questions about an event or its report go to svc-agent, or here after the event's address earlier in the same conversation\./],
    ['https://polymarket.com/event/fed-decision-in-december', /not kalshi\.com/],
    ['https://kalshi.com.evil.example/markets/a/b/kxfed-26dec', /not kalshi\.com/],
    ['https://evil.example/?u=https://kalshi.com/markets/a/b/c-1', /not kalshi\.com/],
    ['ftp://kalshi.com/markets/a/b/kxfed-26dec', /ftp/],
    ['https://user:pw@kalshi.com/markets/a/b/kxfed-26dec', /credentials or a port/],
    ['https://kalshi.com:8443/markets/a/b/kxfed-26dec', /credentials or a port/],
    ['https://kalshi.com/markets/kxfeddecision', /not an event page/],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision', /not an event page/],
    ['https://kalshi.com/events/kxfeddecision/fed/kxfeddecision-26dec', /not an event page/],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision-26dec/extra', /not an event page/],
    ['https://kalshi.com/markets/kxfeddecision/fed-decision/kxfeddecision', /not an event ticker/],
    ['https://kalshi.com/markets/kx%2Ffed/x/kxfed-26dec', /not an event ticker/],
    ['https://kalshi.com/markets/a/b/%ZZ', /malformed %-escape/],
    ['https://kalshi.com/markets/kxfed/fed/kxfed-26dec%E0%A4%A', /malformed %-escape/],
    ['.', /'\.' is not a web address/],
    // Not tickers: a host with a dash, a quarter, a word pair.
    ['my-site2.com', /'my-site2\.com' is not kalshi\.com/],
    ['Q3-2024', /'q3-2024' is not kalshi\.com/],
    ['fed-decision', /'fed-decision' is not kalshi\.com/],
    ['https://kalshi.com/markets/kxbtcd/btc/kxbtcd-26nov20 https://kalshi.com/markets/kxethd/eth/kxethd-26nov20', /The input has 2 addresses, and a report is for one event: send one event address per request\./],
    ['https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec./', /'kxcpiyoy-26dec\.' is not an event ticker/],
    ['<https://evil.example/markets/a/b/kxfed-26dec|https://kalshi.com/markets/a/b/kxfed-26dec>', /'evil\.example' is not kalshi\.com/],
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
    // A ticker alone: its series as the (decorative) slug.
    expect(eventPageUrl(parseEventUrl('KXFEDDECISION-26DEC'))).toBe('https://kalshi.com/markets/kxfeddecision/kxfeddecision/kxfeddecision-26dec');
  });
});

describe('addresses whose ticker looks like a market', () => {
  const lookup = (markets: Record<string, { event_ticker: string; yes_sub_title?: string }>, events: string[]) => ({
    calls: [] as string[],
    async market(t: string) {
      this.calls.push(`market ${t}`);
      return markets[t] ?? null;
    },
    async event(t: string) {
      this.calls.push(`event ${t}`);
      return events.includes(t) ? {} : null;
    },
  });
  const refusal = async (p: Promise<void>) => p.then(() => null, (e) => e);
  const url = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec-t3.0';

  it('are parsed, marked market-like; an event ticker of two parts is not', () => {
    expect(parseEventUrl(url)).toMatchObject({ eventTicker: 'KXCPIYOY-26DEC-T3.0', marketLike: true });
    expect(parseEventUrl('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec').marketLike).toBe(false);
  });

  it("a market the exchange knows: 400 naming its event, from the exchange's data", async () => {
    const k = lookup({ 'KXCPIYOY-26DEC-T3.0': { event_ticker: 'KXCPIYOY-26DEC', yes_sub_title: 'Above 3.0%' } }, []);
    const err = await refusal(confirmEventAddress(parseEventUrl(url), k));
    expect(err).toMatchObject({ code: 'invalid_event_url', param: 'input' });
    expect(err.message).toMatch(/'KXCPIYOY-26DEC-T3\.0' is the market for “Above 3\.0%”, an outcome inside an event, not an event; its event is KXCPIYOY-26DEC, at https:\/\/kalshi\.com\/markets\/kxcpiyoy\/cpi\/kxcpiyoy-26dec\./);
    expect(err.message).toContain('https://kalshi.com/markets/<series>/<slug>/<event_ticker>');
  });

  it('an event whose ticker has more parts is accepted after the exchange says so', async () => {
    const k = lookup({}, ['KXELONTWEETS-26NOV14-26NOV21']);
    await expect(confirmEventAddress(parseEventUrl('https://kalshi.com/markets/kxelontweets/elon/kxelontweets-26nov14-26nov21'), k)).resolves.toBeUndefined();
    expect(k.calls).toEqual(['market KXELONTWEETS-26NOV14-26NOV21', 'event KXELONTWEETS-26NOV14-26NOV21']);
  });

  it('neither known (or the exchange unreachable): 400 with the event guessed from the ticker; a two-part ticker is never looked up', async () => {
    const err = await refusal(confirmEventAddress(parseEventUrl(url), lookup({}, [])));
    expect(err.message).toMatch(/market ticker .*its event is likely KXCPIYOY-26DEC, at https:\/\/kalshi\.com\/markets\/kxcpiyoy\/cpi\/kxcpiyoy-26dec\./);
    const k = lookup({}, []);
    await confirmEventAddress(parseEventUrl('https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec'), k);
    expect(k.calls).toEqual([]);
  });
});
