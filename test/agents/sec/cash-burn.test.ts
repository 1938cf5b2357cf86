import { describe, expect, it } from 'vitest';
import { burnerWorld, citedAfter, expectConsistentCitations } from './burner-world.js';

const ask = burnerWorld();

describe('cash burn and runway of a company that burns cash (loopback EDGAR)', () => {
  it('"what is X\'s cash burn?": the quarter\'s burn and its monthly pace, the twelve months\' burn, the cash on hand and the months of runway, each cited', async () => {
    const a = await ask('svc-sec-agent', "what is Ember Biosciences' cash burn?");
    expect(a.text).toMatch(/^Ember Biosciences' cash burn for Q4 2024 \(quarter ended 2024-12-31\) was \*\*\$48 million\*\* \[\d\]\[\d\] \(derived\), about \*\*\$16 million a month\*\*/);
    // -43 - 44 - 47 - 48 over the four quarters of 2024, each cited.
    expect(a.text).toMatch(/Trailing twelve months to 2024-12-31: burned \*\*\$182 million\*\* \(derived\), about \$15\.2 million a month; free cash flow each quarter: Q1 2024 -\$43 million \[\d\], Q2 2024 -\$44 million \[\d\]\[\d\], Q3 2024 -\$47 million \[\d\]\[\d\], Q4 2024 -\$48 million \[\d\]\[\d\]/);
    // 420 / 16 = 26.25 months; 420 / (182 / 12) = 27.7.
    expect(a.text).toMatch(/Cash and cash equivalents at the end of Q4 2024 \(2024-12-31\): \*\*\$420 million\*\* \[\d\]: a runway of about \*\*26\.3 months\*\* at the latest quarter's pace, or about 27\.7 months at the trailing twelve months' pace/);
    expect(citedAfter(a, '**$420 million**')).toBe('Ember Biosciences, Inc. Form 10-K, fiscal year ended 2024-12-31, page 4');
    expect(citedAfter(a, 'Q1 2024 -$43 million')).toBe('Ember Biosciences, Inc. Form 10-Q, quarter ended 2024-03-31, page 5');
    expectConsistentCitations(a);
  });

  it.each([
    ['how long is their runway?'],
    ['how long will their cash last?'],
    ['when do they run out of money?'],
  ])('after the burn, "%s" leads with the months of runway, cash over the monthly burn, cited', async (followUp) => {
    const a = await ask('svc-sec-agent', "what is Ember Biosciences' cash burn?", followUp);
    expect(a.text).toMatch(/^\*\*About 26\.3 months of runway\*\* at the latest quarter's burn, or about 27\.7 months at the trailing twelve months' pace: Ember Biosciences' cash and cash equivalents of \$420 million \[\d\] at the end of Q4 2024 \(2024-12-31\), over its cash burn of \$48 million in Q4 2024 \(\$16 million a month\) \[\d\]\[\d\] \(derived\)\./);
    expect(a.text).not.toMatch(/I do not have a figure called/);
    expectConsistentCitations(a);
  });

  it('a runway asked at once of a year is at that year\'s pace', async () => {
    const a = await ask('svc-sec-agent', 'EMBR cash runway FY2024');
    expect(a.text).toMatch(/^\*\*About 27\.7 months of runway\*\* at that burn: Ember Biosciences' cash and cash equivalents of \$420 million \[\d\] at the end of fiscal year 2024 \(2024-12-31\), over its cash burn of \$182 million in fiscal year 2024 \(\$15\.2 million a month\)/);
  });

  it('"is it burning cash?" is Yes with the burn; a runway asked of a company burning none says there is none to measure', async () => {
    const yes = await ask('svc-sec-agent', 'is EMBR burning cash?');
    expect(yes.text).toMatch(/^\*\*Yes\*\*: Ember Biosciences' cash burn for Q4 2024/);
    const none = await ask('svc-sec-agent', "what is Apple's cash runway?");
    expect(none.text).toMatch(/^\*\*No runway to measure\*\*: Apple did not burn cash in fiscal Q2 2025 \(quarter ended 2025-03-29\): its free cash flow \(operating cash flow minus capital expenditure\) was \*\*\+\$20,881 million\*\*/);
    expect(none.text).toMatch(/Its cash and cash equivalents at the end of fiscal Q2 2025 \(2025-03-29\) were \$28,162 million \[\d\], not being run down by operations\./);
    expectConsistentCitations(none);
  });

  it('through svc-agent too', async () => {
    const a = await ask('svc-agent', "what is Ember Biosciences' cash burn?", 'how long is their runway?');
    expect(a.text).toMatch(/About 26\.3 months of runway/);
  });
});
