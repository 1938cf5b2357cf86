import { describe, expect, it } from 'vitest';
import { burnerWorld, expectConsistentCitations } from './burner-world.js';

const ask = burnerWorld();

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.';
const NOTES =
  'Our team met last week to review the roadmap. We talked about hiring, onboarding, planning, and the offsite in Denver. Everyone agreed the timeline was aggressive but achievable. Sarah will circulate notes by Friday and follow up with stakeholders.';

/** A paste of prose around a question (loopback EDGAR, every filer searchable): its plain words are not taken for companies. */
describe('words of pasted prose are not companies looked up', () => {
  it.each([
    ['lorem ipsum', LOREM],
    ['meeting notes', NOTES],
  ])('%s alone: no "could not find a company" note for its words, and no "figure called" note either', async (_name, paste) => {
    const a = await ask('svc-sec-agent', paste);
    expect(a.text).not.toContain('could not find a company');
    expect(a.text).not.toContain('I do not have a figure called');
    expect(a.text).toMatch(/^Which company do you mean\?/);
  });

  it('a question after lorem ipsum is answered with no note for the lorem words', async () => {
    const a = await ask('svc-sec-agent', `${LOREM} What was Apple revenue in Q3 2024?`);
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\*/);
    expect(a.text).not.toContain('could not find');
    expectConsistentCitations(a);
    // Before it too, where a short run of words after a comma would otherwise be read as a company listed.
    const before = await ask('svc-sec-agent', `Compare Apple and Microsoft net margin. ${LOREM}`);
    expect(before.text).toMatch(/^Net margin \(net income over revenue\), side by side/);
    expect(before.text).not.toContain('could not find');
    expectConsistentCitations(before);
  });

  it('an unknown ticker or a name asked about in the paste still gets its note', async () => {
    const ticker = await ask('svc-sec-agent', `${LOREM} What was ZZZQ revenue in 2024?`);
    expect(ticker.text).toBe('I could not find a company with the ticker "ZZZQ" among SEC filers (searched by ticker and by name), so I have no figures for it.');
    const named = await ask('svc-sec-agent', `${NOTES} How does Apple's revenue compare with Zorblax's?`);
    expect(named.text).toContain('I could not find a company called "Zorblax" among SEC filers');
    expect(named.text).not.toMatch(/"(?:Denver|Friday|Sarah)"/);
    const listed = await ask('svc-sec-agent', `${LOREM} How does Apple revenue compare with Zorblax Corp and zorblax?`);
    expect(listed.text).toContain('I could not find a company called "Zorblax" among SEC filers');
    expect(listed.text).toContain('I could not find a company called "zorblax" among SEC filers');
    expect(listed.text.match(/could not find/g)).toHaveLength(2);
  });

  it('a figure the agent does not have, asked in the paste, is still said to be one', async () => {
    const a = await ask('svc-sec-agent', `${LOREM} What was Apple's goodwill in 2024?`);
    expect(a.text).toMatch(/^I do not have a figure called "goodwill"/);
    expect(a.text.match(/figure called/g)).toHaveLength(1);
  });

  it('through svc-agent too', async () => {
    const a = await ask('svc-agent', `${LOREM} What was Apple revenue in Q3 2024?`);
    expect(a.text).toContain('**$85,777 million**');
    expect(a.text).not.toContain('could not find');
  });
});
