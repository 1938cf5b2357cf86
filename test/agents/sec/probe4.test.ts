import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Questions a fourth round of probes (an equity analyst's threads) found misread, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: probe round 4 (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();
  const PAGES = /^The figures of that answer come from these filing pages \(each link opens the filing at its page\):/;
  const signed = /^http:\/\/127\.0\.0\.1:\d+\/v1\/documents\/sec-\w+-\d+-\d{18}\.pdf\?expires=\d+&signature=\w+#page=\d+$/;

  it('"show me where it says that" lists the pages of the answer before, not a figure called "says"', async () => {
    const a = await talk('Apple revenue last 4 quarters', 'gross margin trend', 'show me where it says that');
    expect(a.text).toMatch(PAGES);
    expect(a.text).not.toContain('figure called');
    expect(a.text).toContain('[Apple Inc. Form 10-Q, quarter ended 2025-03-29, page 3](');
    for (const c of a.citations) expect(c.url).toMatch(signed);
    consistent(a);
    // The same asked other ways, and through the router.
    for (const q of ['where does the filing say that?', 'where can I check this?', 'point me to the page']) {
      const b = await talk('Apple operating income fiscal 2024', q);
      expect(b.text, q).toMatch(PAGES);
      expect(b.text, q).toContain('[Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 3](');
      consistent(b);
    }
    const routed = await talkOf('svc-agent', 'Apple revenue last 4 quarters', 'show me where it says that');
    expect(routed.text).toMatch(PAGES);
    consistent(routed);
  });

  it('"where in the 10-Q is EPS?" after a table lists the pages the EPS figures are on', async () => {
    const a = await talk('Microsoft net income for the last 8 quarters', 'EPS trend?', 'where in the 10-Q is EPS');
    expect(a.text).toMatch(PAGES);
    expect(a.text).toContain('[Microsoft Corp. Form 10-Q, quarter ended 2025-03-31, page 3](');
    expect(a.text).not.toContain('| **Diluted EPS**');
    consistent(a);
  });
});
