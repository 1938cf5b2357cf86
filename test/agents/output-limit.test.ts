import { describe, expect, it } from 'vitest';
import { TokenTally, withOutputLimit } from '../../src/agents/output-limit.js';
import type { AgentEvent, AgentRequest, Citation } from '../../src/agents/types.js';
import { countTextTokens } from '../../src/agents/usage.js';
import { SvcError } from '../../src/errors.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';

const request = {
  model: { id: 'svc-test', agent: 'svc-test', variant: null },
  messages: [{ role: 'user', content: 'What was Apple revenue?' }],
  instructions: null,
  caller: { accountId: 'acct', plan: 'pro', keyId: null },
  requestId: 'req',
  idempotencyKey: null,
  signal: new AbortController().signal,
} satisfies AgentRequest;

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter, up 5% year over year [2]. Services grew faster [3].';
const CITATIONS: Citation[] = [1, 2, 3].map((order) => ({ order, name: `Source ${order}`, url: `https://docs.example/${order}` }));

async function collect(events: AgentEvent[] | (() => AsyncGenerator<AgentEvent>), max: number): Promise<AgentEvent[]> {
  const agent = withOutputLimit(scriptedAgent('svc-test', () => (typeof events === 'function' ? events() : events)), max);
  const out: AgentEvent[] = [];
  for await (const e of agent.run(request)) out.push(e);
  return out;
}

const textOf = (events: AgentEvent[]) => events.map((e) => (e.type === 'text' ? e.delta : e.type === 'answer' ? e.answer.text : '')).join('');
const citationsOf = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'citation' ? [e.citation] : e.type === 'answer' ? e.answer.citations : []));

describe('withOutputLimit', () => {
  it('an answer within the limit passes through whole, done without incomplete', async () => {
    const whole = countTextTokens(TEXT);
    const out = await collect(answer(TEXT, CITATIONS), whole);
    expect(textOf(out)).toBe(TEXT);
    expect(citationsOf(out)).toEqual(CITATIONS);
    expect(out.at(-1)).toEqual({ type: 'done' });
  });

  it("a streamed answer is cut at the end of the last word that fits; only sources whose marker survived are kept; usage counts what was sent", async () => {
    const cutAt = TEXT.indexOf('[2]') + 1;
    const max = countTextTokens(TEXT.slice(0, cutAt));
    const out = await collect([...answer(TEXT, CITATIONS), { type: 'usage', usage: { inputTokens: 17, outputTokens: 999 } }], max);
    const sent = textOf(out);
    expect(countTextTokens(sent)).toBeLessThanOrEqual(max);
    expect(TEXT.startsWith(sent)).toBe(true);
    // At a word's end, and the next word would not have fitted.
    expect(TEXT[sent.length]).toBe(' ');
    expect(countTextTokens(TEXT.slice(0, TEXT.indexOf(' ', sent.length + 1)))).toBeGreaterThan(max);
    expect(sent).toContain('[1]');
    expect(sent).not.toContain('[2]');
    expect(citationsOf(out)).toEqual([CITATIONS[0]]);
    expect(out.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: expect.any(Number), outputTokens: countTextTokens(sent) } });
    expect(out.at(-1)).toEqual({ type: 'done', incomplete: 'max_output_tokens' });
  });

  it('keeps the input tokens the agent reported before its text', async () => {
    const out = await collect([{ type: 'usage', usage: { inputTokens: 17, outputTokens: 999 } }, ...answer(TEXT, CITATIONS)], 5);
    expect(out.find((e) => e.type === 'usage')).toEqual({ type: 'usage', usage: { inputTokens: 17, outputTokens: countTextTokens(textOf(out)) } });
    expect(countTextTokens(textOf(out))).toBeLessThanOrEqual(5);
  });

  it('a whole answer (a stored report) over the limit is cut, its sources with it, and is no longer the stored answer', async () => {
    const report = { text: TEXT, citations: CITATIONS, textRef: 'report:rep_1' };
    const out = await collect([{ type: 'answer', answer: report }, { type: 'done' }], 12);
    expect(out.some((e) => e.type === 'answer')).toBe(false);
    expect(TEXT.startsWith(textOf(out))).toBe(true);
    expect(textOf(out).length).toBeLessThan(TEXT.length);
    expect(citationsOf(out).every((c) => textOf(out).includes(`[${c.order}]`))).toBe(true);
    expect(out.at(-1)).toEqual({ type: 'done', incomplete: 'max_output_tokens' });
  });

  it('a whole answer that fits goes on as the same event, its reference kept', async () => {
    const report = { text: TEXT, citations: CITATIONS, textRef: 'report:rep_1' };
    const out = await collect([{ type: 'answer', answer: report }, { type: 'text', delta: ' And more text after it.' }, { type: 'done' }], countTextTokens(TEXT) + 2);
    expect(out[0]).toEqual({ type: 'answer', answer: report });
    expect((out[0] as { answer: unknown }).answer).toBe(report);
    expect(out.at(-1)).toEqual({ type: 'done', incomplete: 'max_output_tokens' });
  });

  it('a failure passes through as it is', async () => {
    const error = new SvcError('upstream', { code: 'upstream_error', message: 'down' });
    const out = await collect([{ type: 'text', delta: 'so' }, { type: 'failed', error }], 100);
    expect(out).toEqual([{ type: 'text', delta: 'so' }, { type: 'failed', error }]);
  });

  it('sources sent after the text are kept for the markers that were sent, and the rest of the text is dropped', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word [${i + 1}] `);
    const sources = words.map((_, i) => ({ order: i + 1, name: `S${i + 1}`, url: `https://s/${i + 1}` }));
    const out = await collect([...words.map((delta): AgentEvent => ({ type: 'text', delta })), ...sources.map((citation): AgentEvent => ({ type: 'citation', citation })), { type: 'done' }], 20);
    const sent = textOf(out);
    expect(countTextTokens(sent)).toBeLessThanOrEqual(20);
    expect(sent.length).toBeGreaterThan(0);
    const shown = sources.filter((c) => sent.includes(`[${c.order}]`));
    expect(shown.length).toBeGreaterThan(0);
    expect(citationsOf(out)).toEqual(shown);
    expect(out.at(-1)).toEqual({ type: 'done', incomplete: 'max_output_tokens' });
  });
});

describe('where an answer is cut', () => {
  const table = ['| Outcome | Market | Model |', '|---|---:|---:|', ...Array.from({ length: 30 }, (_, i) => `| Above ${i}% | ${50 + i}% | ${40 + i}% [${i + 1}] |`)].join('\n');

  it('a whole answer is cut after its last whole line when that keeps most of what fits: a table ends on a whole row', async () => {
    const out = await collect([{ type: 'answer', answer: { text: table, citations: [] } }, { type: 'done' }], 120);
    const sent = textOf(out);
    expect(sent.endsWith('|\n')).toBe(true);
    expect(table.startsWith(sent)).toBe(true);
    expect(countTextTokens(sent)).toBeLessThanOrEqual(120);
    expect(countTextTokens(sent)).toBeGreaterThan(60);
  });

  it('a cut after a whole line leaves no table header without its rows, nor a heading with nothing under it', async () => {
    const intro = '# Report\n\nThe market favours a hike, and the model agrees with it on most outcomes.\n\n';
    const head = '## Outcomes\n\n| Outcome | Market | Model |\n|---|---:|---:|\n';
    const text = `${intro}${head}| Hike 25bps and a much longer label to make this row cost many tokens | 51.5% | 50.8% |\n`;
    const out = await collect([{ type: 'answer', answer: { text, citations: [] } }, { type: 'done' }], countTextTokens(intro + head) + 3);
    expect(textOf(out)).toBe(intro);
  });

  it('one long word with nothing before it is cut inside it; after a finished word, a word that does not fit is left out whole', async () => {
    const word = 'x'.repeat(400);
    expect(textOf(await collect([{ type: 'text', delta: word }, { type: 'done' }], 10)).length).toBeGreaterThan(0);
    expect(textOf(await collect([{ type: 'text', delta: 'Revenue rose ' }, { type: 'text', delta: word }, { type: 'done' }], 5))).toBe('Revenue rose ');
  });
});

describe('TokenTally', () => {
  it('counts a text added in deltas exactly as the whole text is counted, however it is split', () => {
    const samples = [
      TEXT,
      '| Outcome | Market | Model |\n|---|---:|---:|\n| Above 4.25% | 61% | 58% [1] |\n\n## Catalysts\n- FOMC  meeting   on Dec 17 [2]\n\tIndented\r\nline',
      'Revenue was $85,777,000,000 (85.8B) in FY2024; gross margin 46.2%... “quoted” — dashes—and   spaces   ',
      '日本語のテキストと English mixed 🙂🙂 emoji, then words again',
    ];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (const text of samples) {
      for (let round = 0; round < 25; round++) {
        const tally = new TokenTally();
        for (let at = 0; at < text.length; ) {
          const next = Math.min(text.length, at + 1 + Math.floor(random() * 12));
          tally.add(text.slice(at, next));
          at = next;
        }
        expect(tally.text).toBe(text);
        expect(tally.tokens).toBe(countTextTokens(text));
      }
    }
  });

  it('a run of hundreds of characters with no space is settled in pieces, a few tokens off at most, in linear time', () => {
    const text = `start ${'x'.repeat(5000)} end`;
    const tally = new TokenTally();
    for (let at = 0; at < text.length; at += 5) tally.add(text.slice(at, at + 5));
    expect(tally.text).toBe(text);
    expect(Math.abs(tally.tokens - countTextTokens(text))).toBeLessThanOrEqual(text.length / 128);
  });
});

describe('TokenTally.longestStart', () => {
  const prefixWithin = (text: string, budget: number) => new TokenTally().longestStart(text, budget);

  it('never ends inside a surrogate pair', () => {
    const text = '🙂'.repeat(40);
    for (let budget = 1; budget < 30; budget++) {
      const cut = prefixWithin(text, budget);
      expect(cut.length % 2).toBe(0);
      expect(countTextTokens(cut)).toBeLessThanOrEqual(budget);
    }
  });

  it('is empty for no budget, and the whole text when it fits', () => {
    expect(prefixWithin('hello world', 0)).toBe('');
    expect(prefixWithin('hello world', 100)).toBe('hello world');
  });
});
