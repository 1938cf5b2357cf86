import { describe, expect, it } from 'vitest';
import { restatedAsInstructed } from '../../../src/agents/router/instructed.js';
import { figureNotes, restated } from '../../../src/agents/router/restate.js';
import type { Answer } from '../../../src/agents/types.js';

// An answer reshaped (one sentence, plain words, bullet points) keeps the notes that qualify its
// figures (the time of the data, a snapshot, a market closed, no model probability) and drops
// only the decoration (what to ask next, how to get a report).

const citations = [1, 2].map((order) => ({ order, name: `Source ${order}`, url: `https://example.com/${order}` }));

const OUTCOME: Answer = {
  text: `- **Hold**: market 16.0% (mid; 14.5% normalised), model 12.4%, gap −2.1 pts [1]

_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC; ask for the event's address again for the whole report._
`,
  citations,
};

const LIVE: Answer = {
  text: `- **Yes**: market 58.0% (mid) [1]

_From Kalshi's live quotes for **Government shutdown by December 2026?** (KXSHUTDOWN-26DEC31), as of 2026-11-19 15:00 UTC; no report is stored for it, so there is no model probability (none generated yet)._
`,
  citations,
};

const CLOSED: Answer = {
  text: `Open Kalshi events matching “nba”, with current prices (as of 2026-11-21 03:00 UTC):

1. **Lakers at Celtics?** (KXNBAGAME-26NOV21LALBOS, Sports) [1]: Boston 64.0%; Los Angeles 36.0%. Closed 2026-11-21 02:30 UTC.

Prices are the mid of the best bid and ask (or the last trade), read as probabilities. For a research report with the model probability of each outcome, send an event address to \`svc-prediction-markets-agent\` (3 credits).
`,
  citations,
};

const SEC: Answer = {
  text: `**Apple Inc. (AAPL)**: revenue for fiscal Q3 2024 (quarter ended 2024-06-29) was **$85,777 million** (about $85.8 billion) [1].

_Data: demo snapshot recorded 2025-05-15; figures are illustrative._
`,
  citations,
};

describe('notes kept under a restated answer', () => {
  it('one sentence and plain words keep the report\'s time, without the advice to ask again', () => {
    for (const form of ['sentence', 'simple'] as const) {
      const said = restated(OUTCOME, form)!.text;
      expect(said).toMatch(/about 16% on “Hold”/);
      expect(said.endsWith('\n\n_From the stored report on **Fed decision in December 2026?** (KXFEDDECISION-26DEC), as of 2026-11-19 15:00 UTC._\n')).toBe(true);
      expect(said).not.toContain('ask for the event');
    }
  });

  it('keeps that there is no model probability for live quotes, and a filings snapshot\'s data note', () => {
    expect(figureNotes(LIVE.text)).toEqual(['_From Kalshi\'s live quotes for **Government shutdown by December 2026?** (KXSHUTDOWN-26DEC31), as of 2026-11-19 15:00 UTC; no report is stored for it, so there is no model probability (none generated yet)._']);
    expect(restated(SEC, 'simple')!.text).toMatch(/\$85\.8 billion[^\n]*\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative\._\n$/);
  });

  it('says a listed market has closed and when its prices were read; drops how prices are read and how to get a report', () => {
    const said = restated(CLOSED, 'sentence')!.text;
    expect(said).toContain('\n_“Lakers at Celtics?” closed 2026-11-21 02:30 UTC: its prices are the last it traded at._');
    expect(said).toContain('\n_Kalshi prices as of 2026-11-21 03:00 UTC._');
    expect(said).not.toMatch(/Prices are the mid|research report|svc-prediction-markets-agent/);
  });

  it('bullet points asked in instructions keep them too', () => {
    const said = restatedAsInstructed(CLOSED, { form: 'bullets', one: false }, 'nba odds')!.text;
    expect(said).toMatch(/^- On Kalshi's “Lakers at Celtics\?” market, /);
    expect(said).toContain('_“Lakers at Celtics?” closed 2026-11-21 02:30 UTC');
  });

  it('an answer with no notes gets none', () => {
    expect(figureNotes('- **Hold**: market 16.0% [1]\n')).toEqual([]);
    expect(restated({ text: '- **Hold**: market 16.0% (mid), model 12.4%, gap −2.1 pts [1]\n', citations }, 'sentence')!.text).not.toContain('_');
  });
});
