import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isYesNoQuestion, yesNoAsked, yesNoInThread, yesNoThen } from '../../src/agents/yes-no.js';
import { linesWithin, wordLimitAsked, withinWords } from '../../src/agents/word-limit.js';
import { jsonAsked, plainTextAsked } from '../../src/agents/plain-text.js';
import { startDemoThreads, type DemoThreads } from '../helpers/report-threads.js';
import { formInstructed } from '../../src/agents/instructions.js';

// Forms a demanding user asks, on every agent: just yes or no, a number of bullets over a list of
// figures, just the number / plain words / bullets over a table of periods, a word limit over prose.

/** Every [n] in the text has its citation and every citation is used. */
function consistent(text: string, annotations: { order?: number }[]) {
  const used = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const orders = annotations.map((a) => a.order).sort((a, b) => a! - b!);
  expect(orders).toEqual(used);
}

describe('reading the asks', () => {
  it('yes or no, asked and not', () => {
    for (const t of ['Is it up, yes or no?', 'Is it up? https://example.com/x yes or no', 'just yes or no', 'Answer yes or no only.', 'Reply with a simple yes or no.', 'yes/no please', 'Did it grow? Only yes or no.']) expect(yesNoAsked(t), t).toBe(true);
    for (const t of ['Answer yes or no questions with a verdict first.', "Don't just say yes or no, explain.", 'Is it yes or not?']) expect(yesNoAsked(t), t).toBe(false);
    expect(isYesNoQuestion("Did Apple's revenue grow last year? just yes or no")).toBe(true);
    expect(isYesNoQuestion('Will the Fed hike in December?')).toBe(true);
    expect(isYesNoQuestion("What was Apple's revenue in fiscal 2024?")).toBe(false);
    // (A short follow-up of a yes-or-no question asks yes or no too.)
    expect(yesNoInThread(['Apple revenue in fiscal 2024', 'did it grow? just yes or no', "and Microsoft's? yes or no"])).toBe(true);
    expect(yesNoInThread(['Apple revenue in fiscal 2024', "and Microsoft's? yes or no"])).toBe(false);
  });

  it('three sentences at most asks the form "one sentence" too', () => {
    expect(formInstructed('Answer in 3 sentences max, plain text.')).toEqual({ form: 'sentence', one: false });
    expect(formInstructed('No more than three sentences.')).toEqual({ form: 'sentence', one: false });
  });

  it('word limits', () => {
    expect(wordLimitAsked('in 20 words or fewer')).toBe(20);
    expect(wordLimitAsked('Keep it under 15 words.')).toBe(15);
    expect(wordLimitAsked('25 words max')).toBe(25);
    expect(wordLimitAsked('Answer in 12 words.')).toBe(12);
    expect(wordLimitAsked('Be brief.')).toBeNull();
  });

  it('a word limit over prose: whole sentences within it, asides dropped, citations renumbered to those kept', () => {
    const answer = {
      text: 'Apple grew its revenue by 2.0% in fiscal 2024 (year ended 2024-09-28) [1]. Its net income fell to $93.7 billion [2]. Services rose again, as they have for years [3].\n\n_Data: demo._\n',
      citations: [1, 2, 3].map((order) => ({ order, name: `s${order}`, url: `https://example.com/${order}` })),
    };
    const cut = withinWords(answer, 18)!;
    expect(cut.text).toBe('Apple grew its revenue by 2.0% in fiscal 2024 [1]. Its net income fell to $93.7 billion [2].\n\n_Data: demo._\n');
    expect(cut.citations.map((c) => c.url)).toEqual(['https://example.com/1', 'https://example.com/2']);
    // (Not even the first sentence fits: its first words, "…", its marker kept.)
    expect(withinWords(answer, 5)!.text).toBe('Apple grew its revenue by… [1]\n\n_Data: demo._\n');
    expect(withinWords(answer, 60)).toBeNull();
  });

  it('a long word limit keeps the answer\'s own first lines, a table whole or not at all', () => {
    const words = (n: number, ref = '') => `${Array.from({ length: n }, (_, i) => `w${i}`).join(' ')}${ref}`;
    const answer = {
      text: `# Title\n\n${words(40, ' [1].')}\n\n| A | B |\n|---|---|\n| ${words(20)} | x [2] |\n\n${words(10, ' [2].')}\n\n_Note._\n`,
      citations: [1, 2].map((order) => ({ order, name: `s${order}`, url: `https://example.com/${order}` })),
    };
    expect(linesWithin(answer, 60)!.text).toBe(`# Title\n\n${words(40, ' [1].')}\n\n_Note._\n_The answer's start, within the 60 words asked._\n`);
    expect(linesWithin(answer, 60)!.citations.map((c) => c.order)).toEqual([1]);
    expect(linesWithin(answer, 80)!.text).toContain('| A | B |\n|---|---|\n');
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
    const annotations = (r.output[0] as any).content[0].annotations as { order?: number }[];
    consistent(r.output_text, annotations);
    return r.output_text;
  };
  const chat = async (model: string, question: string, system?: string) => {
    const r = await demo.client.chat.completions.create({ model, messages: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user' as const, content: question }] });
    return r.choices[0]!.message.content!;
  };
  const streamed = async (model: string, input: string, instructions?: string) => {
    let text = '';
    const stream = demo.client.responses.stream({ model, input, ...(instructions ? { instructions } : {}) });
    for await (const e of stream) if (e.type === 'response.output_text.delta') text += e.delta;
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(text);
    return text;
  };

  it('just yes or no: the verdict alone, cited; in the question or the instructions, chat or responses, streamed or not', async () => {
    expect(await respond('svc-sec-agent', "Did Apple's revenue grow last year? just yes or no")).toBe('Yes [1].\n');
    expect(await chat('svc-sec-agent', "Did Apple's revenue grow last year?", 'Answer yes or no only.')).toBe('Yes [1].\n');
    expect(await streamed('svc-agent', "Did Microsoft's net income grow in fiscal 2024?", 'Reply with a simple yes or no.')).toBe('Yes [1].\n');
    // (A verdict given under a table, "- **Yes**: …"; "yes or no" asked at the end of the question, after an address too.)
    // (Of two companies, the verdict cites both companies' figures.)
    expect(await respond('svc-sec-agent', 'Is Apple bigger than Microsoft by revenue? yes or no')).toBe('Yes [1][2].\n');
  });

  it('just yes or no of a question that is none, or one the answer gives no verdict on: said so, in one short sentence', async () => {
    expect(await respond('svc-sec-agent', "What was Microsoft's net income in fiscal 2024? just yes or no")).toBe("That is not a yes-or-no question; in short: Microsoft Corp.'s net income for fiscal year 2024 was about $88.1 billion [1].\n");
    expect(await respond('svc-agent', `Will the Fed hike in December 2026? ${FED}`, 'Answer yes or no only.')).toBe('No plain yes or no: on Kalshi\'s “Fed decision in December 2026?” market, traders put about 52% on “Hike 25bps” [1].\n');
    // (The event's live prices given alone, with no report stored, in one sentence as a listing's are.)
    expect((await respond('svc-agent', `Will the Fed hike in December 2026? ${FED}`, 'Answer in one sentence.')).split('\n')[0]).toBe('On Kalshi\'s “Fed decision in December 2026?” market, traders put about 52% on “Hike 25bps” [1].');
    // (With a report stored, its follow-up gives the verdict.)
    await demo.reportOf(FED);
    expect(await respond('svc-agent', `Is a Fed hike the favourite in December 2026? ${FED} yes or no`)).toBe('Yes [1].\n');
  });

  it('yes or no, then one sentence: the verdict first, then the answer in one sentence, cited', async () => {
    const said = "Yes. Alphabet's net income rose, +$26.3 billion (+36%), year over year (fiscal year 2024); Alphabet Inc.'s net income for fiscal year 2024 was about $100.1 billion [1].\n";
    expect(await respond('svc-sec-agent', "Did Alphabet's net income grow in fiscal 2024?", 'Answer yes or no, then one sentence why.')).toBe(said);
    expect(await respond('svc-agent', "Did Alphabet's net income grow in fiscal 2024? yes or no, then explain in one sentence")).toBe(said);
    expect(yesNoThen('Yes or no first, then one sentence.')).toBe(true);
    expect(yesNoThen('Answer yes or no only.')).toBe(false);
  });

  it('a number of bullets over a list of figures: that many bullets, every figure kept', async () => {
    const q = "What were Apple's revenue, net income, gross profit, operating income and EPS in fiscal 2024?";
    const three = [
      '- Apple, fiscal year 2024: revenue $391.0 billion, net income $93.7 billion [1]',
      '- Apple, fiscal year 2024: gross profit $180.7 billion, operating income $123.2 billion [1]',
      '- Apple, fiscal year 2024: diluted EPS $6.08 a share [1]',
    ].join('\n');
    expect((await respond('svc-sec-agent', q, 'Answer in 3 bullets.')).startsWith(`${three}\n\n_Data:`)).toBe(true);
    expect((await respond('svc-sec-agent', `${q} in 3 bullets`)).startsWith(`${three}\n\n_Data:`)).toBe(true);
    // (Two: three figures and two.)
    const two = await chat('svc-agent', q, 'Use two bullet points.');
    expect(two.split('\n').filter((l) => l.startsWith('- '))).toEqual(['- Apple, fiscal year 2024: revenue $391.0 billion, net income $93.7 billion, gross profit $180.7 billion [1]', '- Apple, fiscal year 2024: operating income $123.2 billion, diluted EPS $6.08 a share [1]']);
  });

  it('just the number over a table of periods: the latest period\'s figure, named; several figures in the fewest words', async () => {
    const one = '**$95.4 billion** (Apple Inc.\'s revenue, Q2 FY2025, the latest of 4 periods) [1]\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative._\n';
    expect(await respond('svc-sec-agent', 'Apple revenue over the last four quarters', 'Reply with just the number.')).toBe(one);
    expect(await streamed('svc-sec-agent', 'Apple revenue over the last four quarters, just the number')).toBe(one);
    expect(await respond('svc-agent', 'Apple revenue and net income over the last four quarters, numbers only')).toBe('**$95.4 billion** revenue, **$24.8 billion** net income (Apple Inc., Q2 FY2025, the latest of 4 periods) [1]\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative._\n');
    expect(await respond('svc-sec-agent', 'Microsoft revenue by quarter', 'Just the number.')).toMatch(/^\*\*\$70\.1 billion\*\* \(Microsoft Corp\.'s revenue, Q3 FY2025, the latest of 8 periods\) \[1\]\n/);
  });

  it('explain like I\'m 12 over a table of periods: plain short sentences, no table', async () => {
    const said = await respond('svc-sec-agent', 'Apple revenue over the last four quarters', "Explain like I'm 12");
    expect(said).toBe("Apple's sales were about $86 billion in Q3 of its 2024 business year [1]. In Q2 of its 2025 business year, the latest, they were about $95 billion [2]. That is 5% more than a year before.\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative._\n");
    const asked = await chat('svc-agent', "Apple revenue and net income over the last four quarters. Explain like I'm 12");
    expect(asked).not.toContain('|');
    expect(asked).toContain('Its profit was about $21 billion in Q3 of its 2024 business year [1].');
  });

  it('bullets over a table of periods: a period a line, the latest that many when a number was asked', async () => {
    const said = await respond('svc-sec-agent', 'Microsoft revenue by quarter', 'Answer in 3 bullets.');
    expect(said.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- Q1 FY2025: revenue $65.6 billion (+16.0% y/y) [1]',
      '- Q2 FY2025: revenue $69.6 billion (+12.3% y/y) [2]',
      '- Q3 FY2025: revenue $70.1 billion (+13.3% y/y) [3]',
    ]);
    expect(said).toContain('_5 earlier periods not shown._');
  });

  it('a word limit over prose answers, in the question or the instructions', async () => {
    const words = (s: string) => s.split('\n')[0]!.replace(/\s*\[\d+\]/g, '').split(/\s+/).filter(Boolean).length;
    const q = await respond('svc-sec-agent', 'How did Microsoft do in fiscal 2024? in 20 words or fewer');
    expect(q).not.toMatch(/company called/);
    expect(q).toMatch(/^Microsoft Corp\.'s revenue was \$245\.1 billion \[1\]/);
    expect(words(q)).toBeLessThanOrEqual(20);
    const prose = await respond('svc-sec-agent', "Did Apple's revenue grow last year?", 'Answer in 10 words or fewer.');
    expect(prose.split('\n')[0]).toBe("In fiscal year 2024, Apple's revenue was $391.0 billion [1].");
    // (A long limit over a report: its first lines whole, no table cut, said to be its start.)
    await demo.reportOf(FED);
    const report = await respond('svc-prediction-markets-agent:cache', FED, 'Keep answers under 150 words.');
    expect(report).toMatch(/^# Fed decision in December 2026\?\n/);
    expect(report).toContain('## Key takeaway');
    expect(report).not.toContain('|');
    expect(report.endsWith("_The answer's start, within the 150 words asked._\n")).toBe(true);
    expect(words(report.split('\n_')[0]!.replace(/\n/g, ' '))).toBeLessThanOrEqual(150);
    const glossary = await chat('svc-agent', 'What is a prediction market? Keep it under 15 words');
    expect(words(glossary)).toBeLessThanOrEqual(15);
    expect(glossary).toMatch(/^Prediction market: An exchange where people trade contracts on whether something will happen\./);
  });
});

describe('no markdown, and JSON asked', () => {
  let demo: DemoThreads;
  const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());

  it('reads the asks', () => {
    for (const t of ['No markdown.', 'Plain text only', "Don't use markdown", 'answer unformatted']) expect(plainTextAsked(t), t).toBe(true);
    for (const t of ['Use markdown tables.', 'Explain in plain English']) expect(plainTextAsked(t), t).toBe(false);
    for (const t of ['Respond in JSON.', 'Return JSON only', 'Apple revenue as JSON', 'output valid JSON']) expect(jsonAsked(t), t).toBe(true);
    for (const t of ["Don't answer in JSON.", 'What is JSON?']) expect(jsonAsked(t), t).toBe(false);
  });

  it('no markdown: a table a line per row, its cells named; headings and bold as words; every marker kept with its source', async () => {
    const r = await demo.client.responses.create({ model: 'svc-sec-agent', input: "What was Apple's revenue and net income in fiscal 2024?", instructions: 'No markdown.' });
    const text = r.output_text;
    expect(text).not.toMatch(/\||\*\*|^#|(?:^|\s)_\S/m);
    expect(text).toContain('Company: Apple Inc. (AAPL); Figure: Revenue; Period: fiscal year 2024 (year ended 2024-09-28); Value: $391,035 million [1]; Filed in: Form 10-K filed 2024-11-01\n');
    consistent(text, (r.output[0] as any).content[0].annotations);
    // (A report, streamed, asked in the question's own words.)
    await demo.reportOf(FED);
    let streamed = '';
    const stream = demo.client.responses.stream({ model: 'svc-prediction-markets-agent:cache', input: `${FED} plain text please` });
    for await (const e of stream) if (e.type === 'response.output_text.delta') streamed += e.delta;
    const final = await stream.finalResponse();
    expect(streamed).toMatch(/^Fed decision in December 2026\?\n/);
    expect(streamed).toContain('Outcome: Hike 25bps [3]; Market: 51.5% (mid; 46.6% normalised); Model: 50.8%; Gap: +4.2 pts;');
    expect(streamed).not.toMatch(/\||\*\*|^#/m);
    consistent(streamed, (final.output[0] as any).content[0].annotations);
  });

  it('a form asked in the question of a whole stored report: tl;dr its one sentence, "in 3 bullets" its key points, three', async () => {
    await demo.reportOf(FED);
    const r = await demo.client.responses.create({ model: 'svc-prediction-markets-agent:cache', input: `${FED} tl;dr` });
    expect(r.output_text).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see “Hike 25bps” as the likeliest result, at about 47%, ahead of “Cut more than 25bps” at 30% \[1\]\[2\], [^\n]+\.\n\n_From the stored report/);
    consistent(r.output_text, (r.output[0] as any).content[0].annotations);
    const bullets = await demo.client.responses.create({ model: 'svc-prediction-markets-agent:cache', input: `${FED} in 3 bullets` });
    expect(bullets.output_text.split('\n').filter((l) => l.startsWith('- ')).length).toBe(3);
    expect(bullets.output_text).not.toContain('## ');
    consistent(bullets.output_text, (bullets.output[0] as any).content[0].annotations);
    // (The address alone: the report whole.)
    expect((await demo.client.responses.create({ model: 'svc-prediction-markets-agent:cache', input: FED })).output_text).toBe(await demo.reportOf(FED));
  });

  it('JSON asked: a first line saying the answer is text, then the answer', async () => {
    const plain = (await demo.client.responses.create({ model: 'svc-sec-agent', input: 'Apple revenue in fiscal 2024' })).output_text;
    const asked = (await demo.client.responses.create({ model: 'svc-sec-agent', input: 'Apple revenue in fiscal 2024 as JSON' })).output_text;
    expect(asked).toBe(`(This service answers in text with numbered citations, not JSON; JSON was asked.)\n\n${plain}`);
    const instructed = (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'system', content: 'Respond in JSON.' }, { role: 'user', content: 'Apple revenue in fiscal 2024' }] })).choices[0]!.message.content!;
    expect(instructed.startsWith('(This service answers in text with numbered citations, not JSON; JSON was asked.)\n\n')).toBe(true);
  });
});

describe('one word, percent only', () => {
  let demo: DemoThreads;
  beforeAll(async () => {
    demo = await startDemoThreads();
  });
  afterAll(() => demo.svc.close());
  const ask = async (model: string, input: string, instructions?: string) => (await demo.client.responses.create({ model, input, ...(instructions ? { instructions } : {}) })).output_text;

  it('in one word: a yes-or-no question its verdict, any other its figure; percent only: the one price asked', async () => {
    expect(await ask('svc-sec-agent', "Did Apple's revenue grow in fiscal 2024?", 'Answer in one word.')).toBe('Yes [1].\n');
    expect(await ask('svc-sec-agent', "Did Apple's revenue grow in fiscal 2024? In one word.")).toBe('Yes [1].\n');
    expect(await ask('svc-sec-agent', "What was Apple's net income in fiscal 2024? In one word.")).toMatch(/^\*\*\$93\.7 billion\*\* \(Apple's net income, fiscal year 2024, ended 2024-09-28\) \[1\]\n/);
    expect(await ask('svc-agent', 'What are the odds of a hike at the December 2026 Fed meeting?', 'Answer in one word.')).toMatch(/^\*\*51\.5%\*\* \(the Kalshi market price of “Hike 25bps”, Fed decision in December 2026\?\) \[1\]\n/);
    expect(await ask('svc-agent', 'What are the odds of a hike at the December 2026 Fed meeting? percent only')).toMatch(/^\*\*51\.5%\*\* \(the Kalshi market price of “Hike 25bps”/);
    expect(await ask('svc-sec-agent', 'Apple gross margin last quarter, percentage only')).toMatch(/^\*\*47\.1%\*\* \(Apple's gross margin, fiscal Q2 2025, ended 2025-03-29\) \[1\]\n/);
  });
});
