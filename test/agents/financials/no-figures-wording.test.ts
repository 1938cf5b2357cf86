import { describe, expect, it } from 'vitest';
import { demoTalk } from '../sec/demo-talk.js';

/** A table asked of figures a company's data lacks says so in plain words (demo snapshot, offline). */
describe('a table of figures the snapshot lacks', () => {
  const { talk, talkOf } = demoTalk();

  it('"Microsoft buybacks last 4 quarters": no share repurchases figures by quarter', async () => {
    const a = await talk('Microsoft buybacks last 4 quarters');
    expect(a.text).toMatch(/^The XBRL facts recorded for \*\*Microsoft Corp\. \(MSFT\)\*\* in this snapshot have no share repurchases figures by quarter\./);
    expect(a.text).not.toContain('none of');
  });

  it('two figures are joined with "or", by fiscal year; through svc-financials-agent too', async () => {
    const a = await talkOf('svc-financials-agent', 'Apple dividends paid and buybacks by year');
    expect(a.text).toMatch(/^The XBRL facts recorded for \*\*Apple Inc\. \(AAPL\)\*\* in this snapshot have no dividends paid or share repurchases figures by fiscal year\./);
  });
});
