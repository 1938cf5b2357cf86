/**
 * The service's own probability for each outcome, not an echo of the price. One penalised
 * logistic regression, fitted on the series' settled markets priced some hours before close:
 *
 *   P(yes) = σ(a + b·logit(price) + c·w·(logit(base rate) − logit(price)))
 *
 * - a, b: the calibration curve. Markets show a favourite-longshot bias (longshots trade above
 *   their hit rate, favourites below); b > 1 means prices sit too close to 50% and the model
 *   pushes them outwards.
 * - c: how much the outcome type's base rate (how often the same label, e.g. "Hold", resolved
 *   YES in the series) should override the price; w = cases/(cases + 10) discounts thin
 *   histories. c = 0 ignores base rates, c = 1 (with b = 1) would follow them entirely.
 *
 * The penalty pulls (a, b, c) towards (0, 1, 0), "the price is right", with the weight of
 * PRIOR_STRENGTH observations, so a short history moves the model little. When fitting, a
 * market's base rate leaves out its own event, so nothing leaks from the outcome being
 * predicted. Mutually exclusive outcomes are finally normalised to sum to 1.
 */

export const PRIOR_STRENGTH = 12;
const BASE_HALF_WEIGHT_CASES = 10;
/** Prices are clipped this far from 0 and 1 before their log-odds: a tenth of a cent, Kalshi's finest tick, so sub-cent prices keep their size. */
const EDGE = 0.001;

export interface Observation {
  eventTicker: string;
  /** When the event closed (unix seconds), for walk-forward ordering. */
  closeTs: number;
  /** Outcome type: the label, shared by events of the series ("Hold", "Above 3.0"). */
  type: string;
  /** Market price before close, 0..1. */
  price: number;
  outcome: 0 | 1;
}

export interface Calibration {
  a: number;
  b: number;
  c: number;
  /** Observations it was fitted on. */
  n: number;
}

export interface BaseRate {
  wins: number;
  cases: number;
}

export const logit = (p: number) => Math.log(p / (1 - p));
export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const clip = (p: number, lo = EDGE) => Math.min(1 - lo, Math.max(lo, p));

export const IDENTITY: Calibration = { a: 0, b: 1, c: 0, n: 0 };

/** Laplace-smoothed, so one past case cannot claim certainty. */
export const smoothedRate = (r: BaseRate) => (r.wins + 0.5) / (r.cases + 1);
export const rateWeight = (cases: number) => cases / (cases + BASE_HALF_WEIGHT_CASES);

/** The two features of a market: its price's log-odds, and how far its base rate disagrees. */
function features(price: number, rate: BaseRate | null): [number, number] {
  const x = logit(clip(price));
  if (!rate || !rate.cases) return [x, 0];
  return [x, rateWeight(rate.cases) * (logit(clip(smoothedRate(rate))) - x)];
}

export function predict(c: Calibration, price: number, rate: BaseRate | null): number {
  const [x1, x2] = features(price, rate);
  return sigmoid(c.a + c.b * x1 + c.c * x2);
}

/** Calibrated price alone (no base rate): the curve a, b. */
export const calibrate = (c: Calibration, price: number) => predict(c, price, null);

export function baseRates(items: readonly { type: string; outcome: 0 | 1 }[]): Map<string, BaseRate> {
  const out = new Map<string, BaseRate>();
  for (const o of items) {
    const r = out.get(o.type) ?? { wins: 0, cases: 0 };
    r.cases++;
    r.wins += o.outcome;
    out.set(o.type, r);
  }
  return out;
}

export interface Sample {
  price: number;
  outcome: 0 | 1;
  rate: BaseRate | null;
}

/**
 * Training samples: each observation with its type's base rate over `history`, leaving out
 * the observation's own event.
 */
export function samples(observations: readonly Observation[], history: readonly { type: string; outcome: 0 | 1; eventTicker: string }[]): Sample[] {
  const all = baseRates(history);
  const own = new Map<string, BaseRate>();
  for (const h of history) {
    const key = `${h.eventTicker}\u0000${h.type}`;
    const r = own.get(key) ?? { wins: 0, cases: 0 };
    r.cases++;
    r.wins += h.outcome;
    own.set(key, r);
  }
  return observations.map((o) => {
    const total = all.get(o.type);
    const mine = own.get(`${o.eventTicker}\u0000${o.type}`) ?? { wins: 0, cases: 0 };
    const rate = total ? { wins: total.wins - mine.wins, cases: total.cases - mine.cases } : null;
    return { price: o.price, outcome: o.outcome, rate: rate && rate.cases > 0 ? rate : null };
  });
}

/** Penalised maximum likelihood by Newton's method (three parameters, closed-form 3×3 solve). */
export function fitCalibration(data: readonly Sample[], strength = PRIOR_STRENGTH): Calibration {
  if (!data.length) return IDENTITY;
  const prior = [0, 1, 0];
  let theta = [...prior];
  const xs = data.map((d) => [1, ...features(d.price, d.rate)] as const);
  for (let iter = 0; iter < 60; iter++) {
    const g = theta.map((t, i) => -strength * (t - prior[i]!));
    const h = [
      [-strength, 0, 0],
      [0, -strength, 0],
      [0, 0, -strength],
    ];
    data.forEach((d, k) => {
      const x = xs[k]!;
      const p = sigmoid(theta[0]! * x[0] + theta[1]! * x[1] + theta[2]! * x[2]);
      const r = d.outcome - p;
      const w = p * (1 - p);
      for (let i = 0; i < 3; i++) {
        g[i]! += r * x[i]!;
        for (let j = 0; j < 3; j++) h[i]![j]! -= w * x[i]! * x[j]!;
      }
    });
    const step = solve3(h, g);
    if (!step) break;
    theta = theta.map((t, i) => t - step[i]!);
    if (step.reduce((s, v) => s + Math.abs(v), 0) < 1e-9) break;
  }
  return { a: theta[0]!, b: theta[1]!, c: theta[2]!, n: data.length };
}

/** Solves H·x = g for a 3×3 matrix (Cramer's rule); null when singular. */
function solve3(h: number[][], g: number[]): number[] | null {
  const det = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) - m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) + m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det(h);
  if (Math.abs(d) < 1e-15) return null;
  return [0, 1, 2].map((col) => det(h.map((row, i) => row.map((v, j) => (j === col ? g[i]! : v)))) / d);
}

export interface OutcomeModel {
  /** Calibrated price alone. */
  calibrated: number;
  baseRate: BaseRate | null;
  /** Before normalisation. */
  raw: number;
  model: number;
}

/** The model probability of each outcome of one event, from its market prices (0..1). */
export function modelEvent(
  outcomes: readonly { type: string; price: number }[],
  calibration: Calibration,
  rates: ReadonlyMap<string, BaseRate>,
  mutuallyExclusive: boolean,
  /** What mutually exclusive outcomes share: less than 1 when a decided outcome already won. */
  mass = 1,
): OutcomeModel[] {
  const parts = outcomes.map((o) => {
    const baseRate = rates.get(o.type) ?? null;
    return { calibrated: calibrate(calibration, o.price), baseRate, raw: predict(calibration, o.price, baseRate) };
  });
  const total = parts.reduce((s, p) => s + p.raw, 0);
  return parts.map((p) => ({ ...p, model: mutuallyExclusive && total > 0 ? (p.raw / total) * mass : p.raw }));
}

/** Where an outcome sits on a ladder of strikes: YES when the value ends above (or below) `value`. */
export interface Strike {
  direction: 'above' | 'below';
  value: number;
}

/**
 * Holds the probabilities of a ladder of strikes in order: YES on "above 3.0" implies YES on
 * "above 2.8", so the higher strike can never be the likelier, and the reverse for "below".
 * Violations (which the market's own prices can show) are pooled to their average, the closest
 * ordered sequence in squared error (pool-adjacent-violators). Outcomes off the ladder keep theirs.
 */
export function monotoneLadder(probabilities: readonly number[], strikes: readonly (Strike | null)[]): number[] {
  const out = [...probabilities];
  for (const direction of ['above', 'below'] as const) {
    // Ordered so that each next outcome may only be as likely or less: "above" by rising strike, "below" by falling.
    const rungs = strikes
      .map((s, i) => ({ s, i }))
      .filter((x): x is { s: Strike; i: number } => x.s?.direction === direction)
      .sort((a, b) => (direction === 'above' ? a.s.value - b.s.value : b.s.value - a.s.value));
    if (rungs.length < 2) continue;
    const blocks: { sum: number; n: number }[] = [];
    for (const r of rungs) {
      blocks.push({ sum: out[r.i]!, n: 1 });
      while (blocks.length > 1 && blocks.at(-2)!.sum / blocks.at(-2)!.n < blocks.at(-1)!.sum / blocks.at(-1)!.n) {
        const last = blocks.pop()!;
        blocks.at(-1)!.sum += last.sum;
        blocks.at(-1)!.n += last.n;
      }
    }
    let k = 0;
    for (const b of blocks) for (let j = 0; j < b.n; j++) out[rungs[k++]!.i] = b.sum / b.n;
  }
  return out;
}

export interface Scores {
  brier: number;
  logLoss: number;
}

export function score(predictions: readonly { p: number; y: 0 | 1 }[]): Scores {
  if (!predictions.length) return { brier: NaN, logLoss: NaN };
  let brier = 0;
  let logLoss = 0;
  for (const { p, y } of predictions) {
    const q = clip(p, 0.001);
    brier += (p - y) ** 2;
    logLoss -= y * Math.log(q) + (1 - y) * Math.log(1 - q);
  }
  return { brier: brier / predictions.length, logLoss: logLoss / predictions.length };
}

export interface CalibrationBin {
  from: number;
  to: number;
  count: number;
  meanPredicted: number;
  observed: number;
}

/** Reliability table: predictions in ten 10% bins, with how often they came true. */
export function reliability(predictions: readonly { p: number; y: 0 | 1 }[]): CalibrationBin[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: 0, sumP: 0, sumY: 0 }));
  for (const { p, y } of predictions) {
    const bin = bins[Math.min(9, Math.floor(p * 10))]!;
    bin.count++;
    bin.sumP += p;
    bin.sumY += y;
  }
  return bins.map((b) => ({ from: b.from, to: b.to, count: b.count, meanPredicted: b.count ? b.sumP / b.count : NaN, observed: b.count ? b.sumY / b.count : NaN }));
}

export interface Backtest {
  events: number;
  markets: number;
  market: Scores;
  model: Scores;
  marketBins: CalibrationBin[];
  modelBins: CalibrationBin[];
  final: Calibration;
}

/**
 * Walk-forward: each settled event is predicted by a model fitted only on the events that
 * closed before it, and scored beside the market price taken at the same time.
 */
export function backtest(obs: readonly Observation[], mutuallyExclusive: (eventTicker: string) => boolean): Backtest {
  const events = new Map<string, Observation[]>();
  for (const o of obs) events.set(o.eventTicker, [...(events.get(o.eventTicker) ?? []), o]);
  // By close time, ties by ticker: the same result whatever order the observations came in.
  const ordered = [...events.values()].sort((x, y) => x[0]!.closeTs - y[0]!.closeTs || (x[0]!.eventTicker < y[0]!.eventTicker ? -1 : 1));
  const seen: Observation[] = [];
  const market: { p: number; y: 0 | 1 }[] = [];
  const model: { p: number; y: 0 | 1 }[] = [];
  for (let start = 0; start < ordered.length; ) {
    // Events closing at the same moment are predicted from the same past: none learns from another.
    let end = start;
    while (end < ordered.length && ordered[end]![0]!.closeTs === ordered[start]![0]!.closeTs) end++;
    const fit = fitCalibration(samples(seen, seen));
    const rates = baseRates(seen);
    const group = ordered.slice(start, end);
    for (const event of group) {
      const outcomes = modelEvent(event, fit, rates, mutuallyExclusive(event[0]!.eventTicker));
      event.forEach((o, i) => {
        market.push({ p: o.price, y: o.outcome });
        model.push({ p: outcomes[i]!.model, y: o.outcome });
      });
    }
    for (const event of group) seen.push(...event);
    start = end;
  }
  return {
    events: ordered.length,
    markets: market.length,
    market: score(market),
    model: score(model),
    marketBins: reliability(market),
    modelBins: reliability(model),
    final: fitCalibration(samples(seen, seen)),
  };
}
