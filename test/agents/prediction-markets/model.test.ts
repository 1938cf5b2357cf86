import { describe, expect, it } from 'vitest';
import { IDENTITY, backtest, baseRates, calibrate, fitCalibration, modelEvent, monotoneLadder, samples, type Observation } from '../../../src/agents/prediction-markets/model.js';

/** Outcomes drawn from true probabilities, priced by a crowd that compresses them (longshot bias). */
function biasedHistory(n: number, slope = 0.7, recurringTypes = true): Observation[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const out: Observation[] = [];
  for (let i = 0; i < n; i++) {
    const truth = 0.02 + 0.96 * rnd();
    const price = 1 / (1 + Math.exp(-slope * Math.log(truth / (1 - truth))));
    out.push({ eventTicker: `E${i}`, closeTs: i, type: recurringTypes ? (i % 2 ? 'A' : 'B') : `T${i}`, price: Math.round(price * 100) / 100, outcome: rnd() < truth ? 1 : 0 });
  }
  return out;
}

describe('calibration', () => {
  it('is the identity without history', () => {
    expect(fitCalibration([])).toEqual(IDENTITY);
    expect(calibrate(IDENTITY, 0.37)).toBeCloseTo(0.37, 10);
    // Sub-cent prices keep their size (they were clipped to 1% and 99%: 0.2% became 1.0%).
    for (const price of [0.002, 0.005, 0.996]) expect(calibrate(IDENTITY, price), String(price)).toBeCloseTo(price, 10);
  });

  it('finds the favourite-longshot bias: prices too close to 50% get pushed outwards', () => {
    const history = biasedHistory(4000, 0.7, false);
    const c = fitCalibration(samples(history, history));
    expect(c.c).toBe(0); // no outcome type recurs, so there is no base rate to weigh
    expect(c.b).toBeGreaterThan(1.25);
    expect(c.b).toBeLessThan(1.6);
    expect(Math.abs(c.a)).toBeLessThan(0.15);
    expect(calibrate(c, 0.1)).toBeLessThan(0.1);
    expect(calibrate(c, 0.9)).toBeGreaterThan(0.9);
  });

  it('a short history moves the model little (the prior holds)', () => {
    const history = biasedHistory(6);
    const c = fitCalibration(samples(history, history));
    expect(Math.abs(c.b - 1)).toBeLessThan(0.35);
  });

  it('learns to weigh base rates only when they carry information the price missed', () => {
    // "Hold" resolves YES 80% of the time although the crowd prices it at 50%.
    const informative: Observation[] = Array.from({ length: 400 }, (_, i) => ({ eventTicker: `E${i}`, closeTs: i, type: i % 2 ? 'Hold' : 'Cut', price: 0.5, outcome: (i % 2 ? i % 10 !== 1 : i % 10 === 0) ? 1 : 0 }));
    const fit = fitCalibration(samples(informative, informative));
    expect(fit.c).toBeGreaterThan(0.5);
    const noise = biasedHistory(2000);
    expect(Math.abs(fitCalibration(samples(noise, noise)).c)).toBeLessThan(0.3);
  });

  it('normalises mutually exclusive outcomes, and leaves unseen types to the price', () => {
    const rates = baseRates([
      ...Array.from({ length: 30 }, () => ({ type: 'Hold', outcome: 1 as const })),
      ...Array.from({ length: 30 }, () => ({ type: 'Cut', outcome: 0 as const })),
    ]);
    const withRates = { ...IDENTITY, c: 1, n: 60 };
    const out = modelEvent([{ type: 'Hold', price: 0.5 }, { type: 'Cut', price: 0.6 }], withRates, rates, true);
    expect(out[0]!.model + out[1]!.model).toBeCloseTo(1, 10);
    expect(out[0]!.model).toBeGreaterThan(out[1]!.model); // Hold's record pulls it above Cut
    const independent = modelEvent([{ type: 'New', price: 0.3 }], withRates, rates, false);
    expect(independent[0]!.model).toBeCloseTo(0.3, 10);
  });

  it("never lets a market's own outcome into its base rate", () => {
    const obs: Observation[] = [{ eventTicker: 'E1', closeTs: 1, type: 'Hold', price: 0.5, outcome: 1 }];
    expect(samples(obs, obs)[0]!.rate).toBeNull();
  });

  it('backtests walk-forward: the model beats biased prices out of sample', () => {
    const result = backtest(biasedHistory(1500), () => false);
    expect(result.markets).toBe(1500);
    expect(result.model.brier).toBeLessThan(result.market.brier);
    expect(result.model.logLoss).toBeLessThan(result.market.logLoss);
    expect(result.marketBins.reduce((s, b) => s + b.count, 0)).toBe(1500);
    // Longshots are overpriced: in the lowest bin, the market predicts more than happens.
    const low = result.marketBins[0]!;
    expect(low.meanPredicted).toBeGreaterThan(low.observed);
  });
  it('backtests events closing at the same moment from the same past, whatever order they arrive in', () => {
    // Two events close together; the first two events before them set the base rates.
    const ev = (ticker: string, closeTs: number, outcome: 0 | 1): Observation => ({ eventTicker: ticker, closeTs, type: 'Yes', price: 0.5, outcome });
    const history = [ev('A', 1, 1), ev('B', 2, 1), ev('C', 3, 0), ev('D', 3, 0)];
    const forward = backtest(history, () => false);
    const backward = backtest([...history].reverse(), () => false);
    expect(backward).toEqual(forward);
    // C and D saw only A and B: the same prediction for both (D learning from C would differ).
    const alone = backtest([ev('A', 1, 1), ev('B', 2, 1), ev('C', 3, 0)], () => false);
    const squaredErrorOfD = forward.model.brier * 4 - alone.model.brier * 3;
    const squaredErrorOfC = alone.model.brier * 3 - backtest([ev('A', 1, 1), ev('B', 2, 1)], () => false).model.brier * 2;
    expect(squaredErrorOfD).toBeCloseTo(squaredErrorOfC, 10);
  });
});

describe('a ladder of strikes', () => {
  const above = (value: number) => ({ direction: 'above' as const, value });
  const below = (value: number) => ({ direction: 'below' as const, value });

  it('leaves probabilities already in order alone', () => {
    expect(monotoneLadder([0.9, 0.6, 0.2], [above(1), above(2), above(3)])).toEqual([0.9, 0.6, 0.2]);
    expect(monotoneLadder([0.2, 0.6, 0.9], [below(1), below(2), below(3)])).toEqual([0.2, 0.6, 0.9]);
  });

  it('pools crossing rungs to their average, in strike order whatever the listing order', () => {
    // Above 2.8 priced over above 2.6: both become their mean; the rest keep theirs.
    const held = monotoneLadder([0.87, 0.929, 0.962, 0.626], [above(3.0), above(2.6), above(2.8), above(3.2)]);
    expect(held[1]).toBeCloseTo(0.9455, 10);
    expect(held[2]).toBeCloseTo(0.9455, 10);
    expect([held[0], held[3]]).toEqual([0.87, 0.626]);
    // A violation that reaches back pools three rungs: (0.5 + 0.4 + 0.6) / 3.
    expect(monotoneLadder([0.5, 0.4, 0.6], [above(1), above(2), above(3)]).map((p) => Number(p.toFixed(6)))).toEqual([0.5, 0.5, 0.5]);
    expect(monotoneLadder([0.3, 0.1], [below(2), below(1)])).toEqual([0.3, 0.1]);
    expect(monotoneLadder([0.1, 0.3], [below(2), below(1)])).toEqual([0.2, 0.2]);
  });

  it('keeps outcomes off the ladder as they are', () => {
    expect(monotoneLadder([0.4, 0.7, 0.5], [null, above(1), above(2)])).toEqual([0.4, 0.7, 0.5]);
    expect(monotoneLadder([0.4, 0.7], [above(2), below(1)])).toEqual([0.4, 0.7]);
  });
});
