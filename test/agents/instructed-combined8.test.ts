import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFirstInstructed, formInstructed, summaryFirstInstructed } from '../../src/agents/instructions.js';
import { formAsked } from '../../src/agents/sec/restate.js';
import { formWordsOut } from '../../src/agents/form-words.js';
import { WORD_LIMIT_WORDS } from '../../src/agents/word-limit.js';
import { JSON_WORDS, PLAIN_WORDS } from '../../src/agents/plain-text.js';
import { YES_NO_WORDS } from '../../src/agents/yes-no.js';
import { startDemoThreads, type DemoThreads } from '../helpers/report-threads.js';

// Forms asked together, as a demanding user asks them: plain words with bullets ("Explain like I'm
// 12, in 2 bullets") in the instructions or the question, on every agent; shapes that contradict
// each other (the one asked last wins); a word limit beside a table; "start with the answer"; and
// the words asking a form taken out of the question with what only joined them to it.

/** Every [n] in the text has its citation and every citation is used. */
function consistent(text: string, annotations: { order?: number }[]) {
  const used = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  expect(annotations.map((a) => a.order).sort((a, b) => a! - b!)).toEqual(used);
}

describe('reading forms asked together', () => {
  it('plain words beside bullets, a sentence or a line: that shape in plain words, in the instructions or the question', () => {
    expect(formInstructed("Explain like I'm 12, in 2 bullets")).toEqual({ form: 'bullets', one: false, count: 2, plain: true });
    expect(formInstructed("Explain like I'm 12. Use 2 bullets.")).toEqual({ form: 'bullets', one: false, count: 2, plain: true });
    expect(formInstructed('Be blunt. No jargon. One sentence.')).toEqual({ form: 'sentence', one: false, plain: true });
    expect(formInstructed("Explain like I'm 12.")).toEqual({ form: 'simple', one: false });
    expect(formAsked("What is Kalshi's Fed decision market saying? Explain like I'm 12, in 2 bullets")).toMatchObject({ form: 'bullets', count: 2, plain: true, rest: "What is Kalshi's Fed decision market saying" });
    expect(formAsked('Apple net income fiscal 2024, no jargon')).toMatchObject({ form: 'simple', rest: 'Apple net income fiscal 2024' });
  });

  it('shapes that contradict each other: the one asked last wins; one ask in several words stays one', () => {
    expect(formInstructed('in 3 bullets, in one sentence')?.form).toBe('sentence');
    expect(formInstructed('Answer in one sentence. Use 3 bullets.')).toEqual({ form: 'bullets', one: false, count: 3 });
    expect(formInstructed('just the number, in one sentence')?.form).toBe('sentence');
    expect(formAsked('Apple revenue in 3 bullets, in one sentence')?.form).toBe('sentence');
    expect(formAsked('Apple revenue in one sentence, in 3 bullets')).toMatchObject({ form: 'bullets', count: 3 });
    // ("A tweet-length summary" is one ask; "a table with one line per company", "one line each" shape the rows or bullets, not the answer.)
    expect(formAsked('apple net income fy2024, give me a tweet-length summary')?.form).toBe('tweet');
    expect(formInstructed('Use a table with one line per company')?.form).toBe('table');
    expect(formInstructed('Use bullets, one line each')?.form).toBe('bullets');
    expect(formInstructed('Keep each bullet to one sentence. Use 3 bullets.')).toEqual({ form: 'bullets', one: false, count: 3 });
    // (A word limit is no shape beside one asked: it is kept apart.)
    expect(formInstructed('in under 50 words, as a table')?.form).toBe('table');
    expect(formInstructed("Don't use bullet points, just one sentence")?.form).toBe('sentence');
  });

  it('"start with the answer" asks the answer first, not a summary; a summary asked first stays one', () => {
    for (const t of ['Start with the answer.', 'Lead with the direct answer, then the details.', 'Answer first, then explain.', 'Get straight to the point.']) {
      expect(answerFirstInstructed(t), t).toBe(true);
      expect(summaryFirstInstructed(t), t).toBe(true);
    }
    expect(answerFirstInstructed('Start with a one-sentence summary.')).toBe(false);
    expect(answerFirstInstructed("Don't start with the answer.")).toBe(false);
  });

  it('the words asking a form come out of the question with what only joined them, its question mark kept', () => {
    const out = (q: string) => formWordsOut(q, [YES_NO_WORDS, WORD_LIMIT_WORDS, JSON_WORDS, PLAIN_WORDS]);
    expect(out("What is Kalshi's Fed decision market saying, no markdown please?")).toBe("What is Kalshi's Fed decision market saying?");
    expect(out('Fed decision odds - in JSON, please.')).toBe('Fed decision odds.');
    expect(out('odds of a government shutdown -- in plain text, thanks')).toBe('odds of a government shutdown');
    expect(out('Apple revenue 2024 (just yes or no) did it grow?')).toBe('Apple revenue 2024 did it grow?');
    expect(out('Is a hike or a cut likelier? yes or no')).toBe('Is a hike or a cut likelier?');
    expect(out('Apple revenue and net income in fiscal 2024, and keep it under 15 words')).toBe('Apple revenue and net income in fiscal 2024');
    expect(out('Apple and Microsoft revenue in fiscal 2024')).toBe('Apple and Microsoft revenue in fiscal 2024');
    // (The SEC agent's reading of a question asking a form: the question without it, nothing stray left.)
    expect(formAsked('Zorblax Corp revenue 2024 — as a table, please')?.rest).toBe('Zorblax Corp revenue 2024');
    expect(formAsked("Apple revenue, don't use bullet points, just one sentence")?.rest).toBe('Apple revenue');
  });
});

describe('on the demo service', () => {
  let demo: DemoThreads;
  const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());

  const respond = async (model: string, input: string, instructions?: string) => {
    const r = await demo.client.responses.create({ model, input, ...(instructions ? { instructions } : {}) });
    consistent(r.output_text, (r.output[0] as any).content[0].annotations);
    return r.output_text;
  };
  const bullets = (text: string) => text.split('\n').filter((l) => l.startsWith('- '));

  it("svc-agent, a market's odds: a form asked in the question is applied, plain words with bullets both", async () => {
    const asked = await respond('svc-agent', "What is Kalshi's Fed decision market saying? Explain like I'm 12, in 2 bullets");
    expect(asked).not.toContain('Open Kalshi events matching');
    expect(bullets(asked)[0]).toBe('- On Kalshi\'s “Fed decision in December 2026?” market, traders see “Hike 25bps” as the likeliest result, at about 52%, ahead of “Cut more than 25bps” at about 33% [1].');
    expect(await respond('svc-agent', "What is Kalshi's Fed decision market saying?", "Explain like I'm 12, in 2 bullets")).toBe(asked);
    expect((await respond('svc-agent', 'What are the odds of a Fed hike? one sentence')).split('\n')[0]).toBe('On Kalshi\'s “Fed decision in December 2026?” market, traders put about 52% on “Hike 25bps” [1].');
    // (The later of two shapes that contradict each other.)
    expect((await respond('svc-agent', 'What are the odds of a Fed hike? in 3 bullets, in one sentence')).split('\n')[0]).toBe('On Kalshi\'s “Fed decision in December 2026?” market, traders put about 52% on “Hike 25bps” [1].');
  });

  it('a stored report: plain words in 2 bullets, in the question or the instructions, on the report agent and svc-agent', async () => {
    await demo.reportOf(FED);
    const plain = [
      '- On Kalshi\'s “Fed decision in December 2026?” market, traders see “Hike 25bps” as the likeliest result, at about 47%, ahead of “Cut more than 25bps” at 30% [1][2].',
      '- The svc model, which weighs the prices against how past events of the series resolved, agrees, at about 51%.',
    ];
    expect(bullets(await respond('svc-prediction-markets-agent:cache', `${FED} explain like I'm 12, in 2 bullets`))).toEqual(plain);
    expect(bullets(await respond('svc-prediction-markets-agent:cache', FED, "Explain like I'm 12, in 2 bullets"))).toEqual(plain);
    expect(bullets(await respond('svc-agent', "What does the Fed report say? explain like I'm 12, in 2 bullets"))).toEqual(plain);
    // (Plain words alone, asked of the report by its address on svc-agent: its plain-words summary, not the whole report.)
    const simple = await respond('svc-agent', `${FED} explain like I'm 12`);
    expect(simple).not.toContain('| Outcome');
    expect(simple).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see/);
  });

  it("company figures: plain words in 2 bullets, on svc-agent and svc-sec-agent, one period's or a table's", async () => {
    const two = ['- In the year to September 28, 2024, Apple took in about $391 billion from selling its products and services [1].', '- In the year to September 28, 2024, Apple kept about $94 billion as profit, after paying all its costs and taxes [1].'];
    expect(bullets(await respond('svc-agent', "Apple revenue and net income for fiscal 2024? Explain like I'm 12, in 2 bullets"))).toEqual(two);
    expect(bullets(await respond('svc-sec-agent', 'Apple revenue and net income for fiscal 2024', "Explain like I'm 12, in 2 bullets"))).toEqual(two);
    // (Plain words in one sentence, of two companies: each as plain words say it, in one sentence.)
    expect((await respond('svc-agent', "Compare Apple and Microsoft net income in fiscal 2024, explain like I'm 12, in one sentence")).split('\n')[0]).toBe('In the year to September 28, 2024, Apple kept about $94 billion as profit, after paying all its costs and taxes [1]; in the year to June 30, 2024, Microsoft kept about $88 billion as profit, after paying all its costs and taxes [2].');
    const periods = bullets(await respond('svc-agent', "Apple revenue and net income for the last 4 quarters? Explain like I'm 12, in 2 bullets"));
    expect(periods).toEqual([
      "- In Q1 of its 2025 business year, Apple's sales were about $124 billion, 4% more than a year before; its profit was about $36 billion, 7% more than a year before [1]",
      "- In Q2 of its 2025 business year, Apple's sales were about $95 billion, 5% more than a year before; its profit was about $25 billion, 5% more than a year before [2]",
    ]);
  });

  it('plain words in the instructions, a shape in the question: that shape in plain words', async () => {
    const two = ['- In the year to September 28, 2024, Apple took in about $391 billion from selling its products and services [1].', '- In the year to September 28, 2024, Apple kept about $94 billion as profit, after paying all its costs and taxes [1].'];
    expect(bullets(await respond('svc-agent', 'Apple revenue and net income fiscal 2024 in 2 bullets', "Explain like I'm 12."))).toEqual(two);
    expect(bullets(await respond('svc-sec-agent', 'Apple revenue and net income fiscal 2024 in 2 bullets', 'No jargon.'))).toEqual(two);
    await demo.reportOf(FED);
    expect(bullets(await respond('svc-prediction-markets-agent:cache', `${FED} in 2 bullets`, "Explain like I'm 12."))[1]).toBe('- The svc model, which weighs the prices against how past events of the series resolved, agrees, at about 51%.');
  });

  it('just yes or no with another form asked in the question: the verdict, the question asked without the other form', async () => {
    expect(await respond('svc-agent', "Did Apple's revenue grow in fiscal 2024? in 3 bullets, just yes or no")).toBe('Yes [1].\n');
    expect(await respond('svc-sec-agent', "Did Apple's revenue grow in fiscal 2024? explain like I'm 12 - just yes or no")).toBe('Yes [1].\n');
  });

  it('one sentence, one line or tl;dr asked in the question over a table of periods: its first figures from the first period to the latest, on every agent', async () => {
    const said = "Microsoft Corp.'s revenue went from $56.2 billion (derived) in Q4 FY2023 to $70.1 billion in Q3 FY2025 [1][2][3].";
    expect((await respond('svc-agent', 'Microsoft revenue by quarter in one sentence')).split('\n')[0]).toBe(said);
    expect((await respond('svc-sec-agent', 'Microsoft revenue by quarter, tl;dr')).split('\n')[0]).toBe(said);
    expect((await respond('svc-financials-agent', 'Microsoft revenue by quarter in one line')).split('\n')[0]).toBe(said);
    // (As the instructions asking it have it.)
    expect((await respond('svc-agent', 'Microsoft revenue by quarter', 'Answer in one sentence.')).split('\n')[0]).toBe(said);
  });

  it('"as a table" of one period on svc-agent is a table; with a word limit it fits, or a table is given whole, said to be over it', async () => {
    expect(await respond('svc-agent', 'Apple revenue for fiscal 2024 as a table')).toMatch(/^\| Company \| Figure \| Period \| Value \|\n\|---\|---\|---\|---\|\n\| Apple \| Revenue \| fiscal year 2024 \(year ended 2024-09-28\) \| \$391\.0 billion \[1\] \|/);
    const table = await respond('svc-agent', 'Microsoft revenue and net income for the last 4 quarters in under 50 words, as a table');
    expect(table).toMatch(/^### Microsoft Corp\. \(MSFT\), by fiscal quarter/);
    expect(table).toContain('| **Revenue** ($ million) |');
    expect(table.trimEnd().endsWith('_A table was asked: it is given whole, over the 50 words asked._')).toBe(true);
  });

  it('"start with the answer": a listing gets its answer first; a figure that opens with it is given as it is', async () => {
    const odds = await respond('svc-agent', 'What are the odds of a Fed hike?', 'Start with the answer.');
    expect(odds.split('\n')[0]).toBe('In short: On Kalshi\'s “Fed decision in December 2026?” market, traders put about 52% on “Hike 25bps” [1].');
    expect(odds).toContain('Open Kalshi events matching');
    const figure = await respond('svc-agent', 'Apple net income fiscal 2024', 'Start with the answer.');
    expect(figure).toBe(await respond('svc-agent', 'Apple net income fiscal 2024'));
  });

  it('words asking no markdown or JSON leave no stray word in what is searched', async () => {
    expect((await respond('svc-agent', "What is Kalshi's Fed decision market saying, no markdown please?")).split('\n')[0]).toBe('Open Kalshi events matching “What is Kalshi\'s Fed decision market saying?”, with current prices (as of 2026-11-19 15:00 UTC):');
    expect((await respond('svc-agent', 'odds of a government shutdown -- in plain text, thanks')).split('\n')[0]).toBe('Open Kalshi events matching “odds of a government shutdown”, with current prices (as of 2026-11-19 15:00 UTC):');
    const json = await respond('svc-agent', 'Fed decision odds - in JSON, please.');
    expect(json).toContain('Open Kalshi events matching “Fed decision odds.”');
  });
});
