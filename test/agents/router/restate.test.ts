import { describe, expect, it } from 'vitest';
import { restated } from '../../../src/agents/router/restate.js';

const citations = [1, 2].map((order) => ({ order, name: `Source ${order}`, url: `https://example.com/${order}` }));
const listing = `Open Kalshi events matching “fed”, with current prices (as of 2026-11-19 15:00 UTC):

1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [1]: **Cut more than 25bps 33.0%**; **Cut 25bps 10.0%**; Hike 25bps 51.5%; Hold 16.0%. Closes 2026-12-15 15:00 UTC.
2. **Government shutdown by December 2026?** (KXSHUTDOWN-26DEC31, Politics) [2]: **Yes 30.0%**. Closes 2026-12-31 15:00 UTC.
`;

describe('restated in one sentence', () => {
  it('joins two claims with a semicolon, the second going on in lower case where it opens with an ordinary word', () => {
    expect(restated({ text: listing, citations }, 'sentence')!.text).toBe(
      "On Kalshi's “Fed decision in December 2026?” market, traders put about 33% on “Cut more than 25bps” and about 10% on “Cut 25bps” [1]; on Kalshi's “Government shutdown by December 2026?” market, traders put about 30% on “Yes” [2].\n\n_Kalshi prices as of 2026-11-19 15:00 UTC._\n",
    );
  });

  it('keeps a name that opens the second claim as it is', () => {
    const text = `| Company | Figure | Period | Value |\n|---|---|---|---|\n| Apple Inc. (AAPL) | Revenue | fiscal year 2024 | $391,035 million [1] |\n| Microsoft Corp. (MSFT) | Revenue | fiscal year 2024 | $245,122 million [2] |\n`;
    const said = restated({ text, citations }, 'sentence')!.text;
    expect(said).toMatch(/; Microsoft Corp\.'s revenue/);
  });
});
