import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';
const CPI = 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec';
const PAYROLLS = 'https://kalshi.com/markets/kxpayrolls/nonfarm-payrolls/kxpayrolls-26dec';

const conversation = (...events: string[]) => demo.thread(...events);


describe('prediction-market follow-ups in svc-agent threads, third round', () => {
  it('a thread started with bare event tickers is those reports\' thread, as one started with their addresses', async () => {
    const questions = ['price of hike?', "what's the edge?", 'kelly on hike with $500'];
    const byTicker = await conversation('KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC');
    const byAddress = await conversation(FED, CPI);
    for (const q of questions) expect(await byTicker(q)).toBe(await byAddress(q));
    // (Hike is the Fed's outcome, though the CPI report was asked for last.)
    const fresh = await conversation('KXFEDDECISION-26DEC', 'kxcpiyoy-26dec');
    expect(await fresh('price of hike?')).toMatch(/^- \*\*Hike 25bps\*\*: market 51\.5% \(mid; 46\.6% normalised\), model 50\.8%, gap \+4\.2 pts \[1\]/);
    expect(await fresh('kelly on hike with $500')).toMatch(/^On the model, the trade to size is \*\*NO on Hike 25bps\*\* at \$0\.49[^\n]*On \$500: \$1\.96 \(4 contracts at \$0\.49\)/);
  });

  it('Kelly on a bucket named by its range sizes that bucket on the bankroll said, never a bound read as dollars', async () => {
    const jobs = await conversation(PAYROLLS);
    // 0 to 75k has no bid and no ask (last trade $0.41): nothing to size at, said so.
    const none = await jobs('quarter kelly on 0 to 75k with 500');
    expect(none).toMatch(/^\*\*0 to 75k\*\* has no quotes in the report's contract snapshot: no bid and no ask, only a last trade at \$0\.41 \[1\]; the model gives it 34\.5%[^\n]*nothing to size on \$500/);
    expect(none).not.toContain('75,000');
    // NO on 75k to 150k at 1 − $0.27 = $0.73 against 77.9%: (0.779 − 0.73) / 0.27 = 18.1%; $181.48 of $1,000 buys 248 at $0.73.
    expect(await jobs('kelly on 75k-150k with $1000')).toMatch(/^On the model, the trade to size is \*\*NO on 75k to 150k\*\* at \$0\.73[^\n]*\*\*18\.1%\*\*[^\n]*On \$1,000: \$181\.48 \(248 contracts at \$0\.73\)/);
    // NO on 150k to 225k at $0.80 against 84.1%: (0.841 − 0.80) / 0.20 = 20.5% of $800 = $164.
    expect(await jobs('kelly on 150k–225k, bankroll 800')).toMatch(/^On the model, the trade to size is \*\*NO on 150k to 225k\*\*[^\n]*On \$800: \$164 \(205 contracts at \$0\.80\)/);
    // "225k+" is Above 225k: NO at $0.90 against 92.4%, (0.924 − 0.90) / 0.10 = 24.0% of $300 = $72.
    expect(await jobs('kelly on 225k+ with 300')).toMatch(/^On the model, the trade to size is \*\*NO on Above 225k\*\*[^\n]*\*\*24\.0%\*\*[^\n]*On \$300: \$72 /);
    expect(await jobs('half kelly on under 0 with 2k')).toMatch(/^\*\*Below 0\*\* has no quotes[^\n]*nothing to size on \$2,000/);
  });

  it("'flip' or 'overtake' between two named things is a comparison, not the rules' flip", async () => {
    const fed = await conversation(FED);
    expect(await fed('will ethereum flip solana?')).toMatch(/^No open Kalshi event matches all of “will ethereum flip solana\?”: none mentions “solana”\./);
    const fresh = await conversation(FED);
    const over = await fresh('can hold overtake hike?');
    expect(over).toMatch(/^\*\*Hold\*\* against \*\*Hike 25bps\*\*:\n\n- \*\*Market:\*\* Hold 16\.0% \(14\.5% normalised\), Hike 25bps 51\.5% \(46\.6% normalised\): Hold is behind by 35\.5 pts/);
    expect(over).toContain('- **Model:** Hold 12.4%, Hike 25bps 50.8%: Hold is behind by 38.4 pts.');
    // A week ago: Hold 15.0%, Hike 59.0%, 44.0 pts apart.
    expect(over).toContain('- **A week ago:** Hold 15.0%, Hike 25bps 59.0%, Hold behind by 44.0 pts; the gap has narrowed since');
    expect(over).not.toContain('Could flip');
    expect(await fresh('what could flip it?')).toContain('**Could flip the outcome:**');
    const cpi = await conversation(CPI);
    expect(await cpi('will above 3.2 flip above 3.0?')).toContain('YES on Above 3.2 implies YES on Above 3.0');
  });

  it("'worst case?' takes the position last named in the thread; with none, one contract of each side", async () => {
    const fed = await conversation(FED);
    const each = await fed('worst case?');
    expect(each).toMatch(/^No position is named in this thread, so here is the worst case of buying one contract of each side/);
    // NO at 1 − bid: Cut more than 25bps 1 − 0.32, Hike 1 − 0.51.
    expect(each).toContain('| Cut more than 25bps [1] | $0.34; loses on NO, 70.2% | $0.68; loses on YES, 29.8% |');
    expect(each).toContain('| Hike 25bps [4] | $0.52; loses on NO, 49.2% | $0.49; loses on YES, 50.8% |');
    expect(each).not.toMatch(/bid \$0\.32, ask \$0\.34, spread/);
    await fed('kelly on hike with a 5k bankroll?');
    await fed('what stands out?');
    // (Past the answer naming no position, to the Kelly stake: 40 NO at $0.49.)
    expect(await fed("what's the worst case?")).toMatch(/^If \*\*Hike 25bps\*\* resolves YES, the NO contracts on it are worth nothing at settlement\.\n\n- At full Kelly, 40 NO contracts at \$0\.49: you lose the \*\*\$19\.60\*\*/);
    expect(await fed('max loss?')).toMatch(/^If \*\*Hike 25bps\*\* resolves YES/);
  });

  it("'and if i'm wrong?' after 'is this a safe bet?' takes the position that answer named", async () => {
    const fed = await conversation(FED);
    await fed('is this a safe bet?');
    expect(await fed("and if i'm wrong?")).toMatch(/^If \*\*Cut more than 25bps\*\* resolves YES, the NO contracts on it are worth nothing at settlement\. Each NO contract bought at \$0\.68 loses the \*\*\$0\.68\*\* it cost/);
    expect(await fed('and if it loses?')).toMatch(/^If \*\*Cut more than 25bps\*\* resolves YES/);
    expect(await fed("what's the most i can lose?")).toMatch(/^If \*\*Cut more than 25bps\*\* resolves YES/);
  });

  it("'why?' after 'what stands out?' explains its first point, the largest gap", async () => {
    const fed = await conversation(FED);
    await fed('what stands out?');
    const why = await fed('why?');
    expect(why).toMatch(/^The first point, the largest gap: \*\*Hike 25bps\*\*, the model's 50\.8% against the market's 46\.6% normalised \(its 51\.5% price shared out to 100% with the other outcomes, whose prices add up to more\), a gap of \+4\.2 pts \[1\]\./);
    expect(why).toContain('- **The price, stretched:** b = ');
    expect(why).toContain('- **The record:** Hike 25bps resolved YES in ');
    // 50.8% − 51.5% = −0.7 pts against its own price; the rest of the gap is the other outcomes' move.
    expect(why).toContain('Against its own 51.5% price the model is −0.7 pts; the gap of +4.2 pts is against the normalised price');
    expect(why).toContain('Cut more than 25bps 33.0% → 29.8%, Cut 25bps 10.0% → 7.0%, Hold 16.0% → 12.4%');
    expect(why).not.toMatch(/^- \*\*Model probability\.\*\*/);
    const cpi = await conversation(CPI);
    await cpi('anything interesting here?');
    expect(await cpi('how so?')).toMatch(/^The first point, the largest gap: \*\*Above 3\.0\*\*, the model's 73\.4% against the market's 86\.5%, a gap of −13\.1 pts/);
  });
});
