import type { KalshiMarket } from '../../src/data/kalshi/types.js';
import { HISTORICAL_CUTOFF, buildWorld, candles, orderbook, type World, type WorldMarket } from '../fixtures/kalshi-world.js';
import { FakeHttpServer, type FakeReply, type FakeRequest } from './fake-http.js';

export const API_PREFIX = '/trade-api/v2';

export interface FakeKalshiOptions {
  world?: World;
  latencyMs?: number;
  /** Page size of list endpoints (tests paging). */
  pageSize?: number;
  /** Answers instead of the world when it returns a reply (failure injection). */
  intercept?: (req: FakeRequest) => FakeReply | undefined;
}

/** Strips the world's bookkeeping fields: what Kalshi would send. */
function wire(m: WorldMarket): KalshiMarket {
  const { anchor: _a, weekAgo: _w, ...market } = m;
  return market;
}

const notFound = (what: string): FakeReply => ({ status: 404, json: { error: { code: 'not_found', message: `${what} not found`, service: 'kalshi' } } });
const closeTs = (m: KalshiMarket) => Date.parse(m.close_time!) / 1000;

/**
 * A loopback Kalshi Trade API v2 over the synthetic world: the real paths, parameters and
 * shapes, cursor paging, and the historical split (markets settled before the cutoff are only
 * on /historical). Base URL for the service: `${fake.url}/trade-api/v2`.
 */
export async function startFakeKalshi(options: FakeKalshiOptions = {}) {
  const world = options.world ?? buildWorld();
  const pageSize = options.pageSize ?? 1000;
  const markets = new Map<string, WorldMarket>();
  for (const e of world.events.values()) for (const m of e.markets) markets.set(m.ticker, m);

  const page = (items: KalshiMarket[], q: URLSearchParams): FakeReply => {
    const limit = Math.min(Number(q.get('limit') ?? 100), pageSize);
    const offset = Number(q.get('cursor') || 0);
    const slice = items.slice(offset, offset + limit);
    return { json: { markets: slice, cursor: offset + limit < items.length ? String(offset + limit) : '' } };
  };

  const route = (req: FakeRequest): FakeReply => {
    if (!req.path.startsWith(API_PREFIX)) return notFound('route');
    const path = req.path.slice(API_PREFIX.length);
    const q = req.query;
    let m: RegExpExecArray | null;
    if ((m = /^\/events\/([^/]+)$/.exec(path))) {
      const event = world.events.get(decodeURIComponent(m[1]!));
      if (!event) return notFound('event');
      const body = { ...event, markets: event.markets.map(wire) };
      return { json: q.get('with_nested_markets') === 'true' ? { event: body } : { event: { ...body, markets: undefined }, markets: body.markets } };
    }
    if (path === '/events') {
      const status = q.get('status');
      const open = new Set(world.openEvents);
      const events = [...world.events.values()].filter((e) => (status === 'open' ? open.has(e.event_ticker) : status === 'settled' ? !open.has(e.event_ticker) : true));
      const limit = Math.min(Number(q.get('limit') ?? 100), 200, pageSize);
      const offset = Number(q.get('cursor') || 0);
      const nested = q.get('with_nested_markets') === 'true';
      const slice = events.slice(offset, offset + limit).map((e) => ({ ...e, markets: nested ? e.markets.map(wire) : undefined }));
      return { json: { events: slice, cursor: offset + limit < events.length ? String(offset + limit) : '' } };
    }
    if (path === '/series') return { json: { series: [...world.series.values()] } };
    if ((m = /^\/series\/([^/]+)$/.exec(path))) {
      const series = world.series.get(decodeURIComponent(m[1]!));
      return series ? { json: { series } } : notFound('series');
    }
    if (path === '/markets') {
      const settled = (world.settled.get(q.get('series_ticker') ?? '') ?? []).filter((x) => closeTs(x) > HISTORICAL_CUTOFF);
      return page(q.get('status') === 'settled' ? settled.map(wire) : [], q);
    }
    if (path === '/historical/markets') {
      const old = (world.settled.get(q.get('series_ticker') ?? '') ?? []).filter((x) => closeTs(x) <= HISTORICAL_CUTOFF);
      return page(old.map(wire), q);
    }
    if (path === '/historical/cutoff') return { json: { market_settled_ts: new Date(HISTORICAL_CUTOFF * 1000).toISOString() } };
    if (path === '/markets/orderbooks') {
      const tickers = (q.get('tickers') ?? '').split(',').filter(Boolean);
      return { json: { orderbooks: tickers.filter((t) => markets.has(t)).map((t) => ({ ticker: t, orderbook_fp: orderbook(markets.get(t)!) })) } };
    }
    const window = () => ({ start: Number(q.get('start_ts')), end: Number(q.get('end_ts')), period: Number(q.get('period_interval') ?? 60) });
    if (path === '/markets/candlesticks') {
      const { start, end, period } = window();
      const tickers = (q.get('market_tickers') ?? '').split(',').filter(Boolean);
      const live = tickers.filter((t) => markets.has(t) && !(markets.get(t)!.result && closeTs(markets.get(t)! as KalshiMarket) <= HISTORICAL_CUTOFF));
      return { json: { markets: live.map((t) => ({ market_ticker: t, candlesticks: candles(markets.get(t)!, start, end, period) })) } };
    }
    if ((m = /^\/series\/([^/]+)\/events\/([^/]+)\/candlesticks$/.exec(path))) {
      const event = world.events.get(decodeURIComponent(m[2]!));
      if (!event) return notFound('event');
      if (event.markets.some((x) => x.result && closeTs(x) <= HISTORICAL_CUTOFF)) return { json: { market_tickers: [], market_candlesticks: [], adjusted_end_ts: 0 } };
      const { start, end, period } = window();
      return { json: { market_tickers: event.markets.map((x) => x.ticker), market_candlesticks: event.markets.map((x) => candles(x, start, end, period)), adjusted_end_ts: end } };
    }
    if ((m = /^\/markets\/([^/]+)$/.exec(path)) && m[1] !== 'orderbooks' && m[1] !== 'candlesticks') {
      const market = markets.get(decodeURIComponent(m[1]!));
      return market ? { json: { market: wire(market) } } : notFound('market');
    }
    if ((m = /^\/historical\/markets\/([^/]+)\/candlesticks$/.exec(path))) {
      const market = markets.get(decodeURIComponent(m[1]!));
      if (!market) return notFound('market');
      const { start, end, period } = window();
      return { json: { ticker: market.ticker, candlesticks: candles(market, start, end, period) } };
    }
    return notFound('route');
  };

  const fake = await new FakeHttpServer(async (req) => {
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    return options.intercept?.(req) ?? route(req);
  }).start();
  // `reply`: what the world answers to a request (an intercept may delay or alter it).
  return Object.assign(fake, { world, apiUrl: `${fake.url}${API_PREFIX}`, reply: route });
}

export type FakeKalshi = Awaited<ReturnType<typeof startFakeKalshi>>;
