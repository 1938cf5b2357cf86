import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** "Which year was best?" after a table asked "by year" / "by quarter" (no count of periods): of that table, on the demo snapshot, offline. */
describe('svc-sec-agent: the best or worst period of a table asked by year or by quarter', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('"which year was best?" after "Alphabet operating margin by year" ranks the years\' margins, not the latest quarter', async () => {
    const a = await talk('Alphabet operating margin by year', 'which year was best?');
    expect(a.text).toMatch(/^### Alphabet Inc\. \(GOOGL\), by fiscal year\n\n\*\*Operating margin\*\*, highest in \*\*FY2024\*\* \(32\.1%\), lowest in \*\*FY2022\*\* \(26\.5%\), of the 3 shown\./);
    expect(a.text).not.toContain('Q4 2024');
    consistent(a);
  });

  it('"which quarter was highest?" after "Alphabet capex by quarter" names the highest and lowest of the eight quarters', async () => {
    const a = await talk('Alphabet capex by quarter', 'which quarter was highest?');
    expect(a.text).toContain('**Capital expenditure**, highest in **Q4 2024** ($14,276 million), lowest in **Q1 2023** ($6,289 million), of the 8 shown.');
    consistent(a);
  });

  it.each([['svc-sec-agent'], ['svc-agent']])('a variant: "which quarter was weakest?" after Microsoft revenue by quarter (%s)', async (model) => {
    const a = await talkOf(model, 'Microsoft revenue by quarter', 'which quarter was weakest?');
    expect(a.text).toContain('**Revenue**, highest in **Q3 FY2025** ($70,066 million), lowest in **Q4 FY2023** ($56,189 million), of the 8 shown.');
    consistent(a);
  });
});
