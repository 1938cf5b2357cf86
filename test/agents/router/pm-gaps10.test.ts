import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// Settlement scenarios said with the verb of the event's own kind ("what if it opens at 35 million?"
// for a box office opening weekend), not only "settles/ends/closes at".

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const BOX = 'https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22';

describe('a settlement scenario said with the event\'s own verb', () => {
  it('"what if it opens at 35 million?" settles the position said at that level', async () => {
    const ask = await demo.thread(BOX);
    await ask('i hold 100 yes on 20m to 40m');
    const answer = await ask('what if it opens at 35 million?');
    expect(answer).toMatch(/^At \$35,000,000, \*\*\$20M to \$40M\*\* resolves \*\*YES\*\*, so your 100 YES contracts pay \$100/);
    expect(answer).not.toContain('## Key takeaway');
    // (Other verbs of the kind: "grosses", "ends up at".)
    expect(await ask('and if it grosses 45 million?')).toMatch(/^At \$45,000,000, \*\*\$20M to \$40M\*\* resolves \*\*NO\*\*/);
    expect(await ask('what if it ends up at 25m?')).toMatch(/^At \$25,000,000, \*\*\$20M to \$40M\*\* resolves \*\*YES\*\*/);
  });
});

describe('a hedge of NO on one side of a two-outcome game', () => {
  it('says NO on one side is the same position as YES on the other', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxnflgame/nfl/kxnflgame-26nov23bufkc');
    const answer = await ask('how do i hedge 100 no on buffalo?');
    expect(answer).toMatch(/\n- \*\*NO on Away team \(Bills\) is YES on Home team \(Chiefs\)\*\*: with two outcomes one of which wins, the same position; buying 100 NO on \*\*Home team \(Chiefs\)\*\* at 1 minus its YES bid, \$0\.38 \(\$38\), offsets it/);
  });
});

describe('"what\'s my max loss" of a position said with no price paid', () => {
  it('says first that the most it can lose is what was paid (the ask if bought now), then the mark', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec');
    await ask('i hold 100 yes on hike');
    const answer = await ask("what's my max loss");
    expect(answer).toMatch(/^\*\*The most you can lose is what you paid\*\* for them, all of it if it resolves NO; you have not said what that was: bought now at the ask, \$0\.52, it would be \$52\.\n\n- \*\*Hike 25bps\*\*[^\n]*\*\*Your 100 YES\*\*; sold now at the bid, \$0\.51, fetch \$51/);
  });
});

describe('a position said on words that name several buckets', () => {
  it('"i hold 100 no on above 40m" of buckets says no one outcome is that, names the matched ones, and prices no trade', async () => {
    const ask = await demo.thread('https://kalshi.com/markets/kxboxoffice/opening-weekend-box-office/kxboxoffice-26nov22');
    const answer = await ask('i hold 100 no on above 40m');
    expect(answer).toMatch(/^No one outcome of this event is what you said: the words match \*\*\$20M to \$40M\*\* \[1\] and \*\*\$40M to \$60M\*\* \[2\], and a position is on one contract/);
    expect(answer).not.toContain('cost $84');
  });
});
