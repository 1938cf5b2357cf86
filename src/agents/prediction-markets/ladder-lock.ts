import { SCALE, formatCount, formatDollars, parseFixed } from '../../data/kalshi/numbers.js';
import type { Strike } from './model.js';
import type { MarketView } from './research.js';

/**
 * A ladder's crossed quotes as a trade: YES on a rung at its ask and NO on a rung inside it (YES
 * there implies YES on the first: "Above 2.8" inside "Above 2.6") at 1 minus its YES bid. One of
 * the two always pays, both when the result lands between them, so a pair costing under $1 locks
 * in the difference. The cheapest such pair, or null when none costs under $1.
 */
export interface LadderLock {
  wide: MarketView;
  narrow: MarketView;
  /** What a pair costs, in the exchange's fixed-point units (SCALE is $1). */
  cost: number;
  /** Pairs the best prices are good for (the thinner leg), or null when sizes are not quoted. */
  pairs: number | null;
}

export function ladderLock(views: readonly MarketView[], strikeOf: (v: MarketView) => Strike | null): LadderLock | null {
  let best: LadderLock | null = null;
  for (const wide of views) {
    for (const narrow of views) {
      const [w, n] = [strikeOf(wide), strikeOf(narrow)];
      if (!w || !n || w.direction !== n.direction) continue;
      const inside = w.direction === 'above' ? n.value > w.value : n.value < w.value;
      const [ask, bid] = [wide.quote.ask, narrow.quote.bid];
      if (!inside || ask === null || bid === null) continue;
      const cost = ask + SCALE - bid;
      if (cost >= SCALE || (best && cost >= best.cost)) continue;
      const [askSize, bidSize] = [parseFixed(wide.market.yes_ask_size_fp), parseFixed(narrow.market.yes_bid_size_fp)];
      best = { wide, narrow, cost, pairs: askSize !== null && bidSize !== null ? Math.min(askSize, bidSize) : null };
    }
  }
  return best;
}

/** The report's line for a ladder lock: its legs, cost, what it locks in and how many pairs the best prices fill. */
export function ladderLockLine(lock: LadderLock): string {
  const { wide, narrow, cost, pairs } = lock;
  const size = pairs === null ? 'the report does not show how many contracts are offered at those prices' : `the best prices are good for ${formatCount(pairs)} pairs (the contract snapshot has each size), more filling at worse prices`;
  return `**Arbitrage on these quotes:** YES on ${wide.label} at the ask and NO on ${narrow.label} at 1 minus its YES bid cost ${formatDollars(cost)} and pay at least $1 whatever happens (YES on ${narrow.label} means YES on ${wide.label}; both pay if the result lands between them), ${Math.round(((SCALE - cost) / SCALE) * 100)}¢ locked in before fees; ${size}.`;
}

/** The takeaway's words for a ladder lock ("YES on Above 2.6 and NO on Above 2.8 lock in 2¢ whatever happens"). */
export const ladderLockWords = (lock: LadderLock) => `YES on ${lock.wide.label} and NO on ${lock.narrow.label} lock in ${Math.round(((SCALE - lock.cost) / SCALE) * 100)}¢ whatever happens`;
