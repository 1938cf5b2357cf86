import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/agents/usage.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';
import { refusal as sdkError } from '../helpers/sdk-error.js';

// Chat's `stop` is honoured as OpenAI's models honour it: the answer ends before the first stop
// sequence, which is not sent, with finish_reason "stop". Its sampling fields (seed, penalties,
// logit_bias) are checked as OpenAI checks them, and audio output is refused.

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter.\n\nServices grew faster than products did [2].\n\nData: demo.';
const CITATIONS = [1, 2].map((order) => ({ order, name: `Apple Inc. Form 10-Q, page ${order}`, url: `https://docs.example/a.pdf#page=${order}` }));
const ASK = [{ role: 'user' as const, content: 'What was Apple revenue?' }];

let svc: TestService;
let client: OpenAI;
let apiKey: string;

beforeAll(async () => {
  svc = await startService({
    agents: [
      // Deltas of 3 characters: a stop sequence falls across them.
      scriptedAgent('svc-test', () => answer(TEXT, CITATIONS, 3)),
      scriptedAgent('svc-report', () => [{ type: 'answer', answer: { text: TEXT, citations: CITATIONS } }, { type: 'done' }]),
    ],
  });
  apiKey = (await svc.account()).apiKey;
  client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
});

afterAll(() => svc.close());

const BEFORE_BLANK = 'Apple reported revenue of $85.8 billion [1] for the quarter.';

describe('Chat: stop', () => {
  it.each(['svc-test', 'svc-report'])('%s: the answer ends before the first stop sequence, only the sources of the markers sent, usage of the text sent', async (model) => {
    for (const stop of ['\n\n', ['Services', '\n\n'], ['zzz', '\n']]) {
      const r = await client.chat.completions.create({ model, messages: ASK, stop });
      expect(r.choices[0]!.finish_reason).toBe('stop');
      expect(r.choices[0]!.message.content).toBe(BEFORE_BLANK);
      expect(r.choices[0]!.message.annotations!.map((a) => a.url_citation.url)).toEqual([CITATIONS[0]!.url]);
      expect(r.usage!.completion_tokens).toBe(countTextTokens(BEFORE_BLANK));
    }
    // A sequence inside a line: the text before it, the sequence itself not sent.
    const mid = await client.chat.completions.create({ model, messages: ASK, stop: 'billion' });
    expect(mid.choices[0]!.message.content).toBe('Apple reported revenue of $85.8 ');
    expect(mid.choices[0]!.message.annotations).toEqual([]);
  });

  it('streamed: the same text (a sequence split across deltas is found), finish_reason stop, the usage chunk after it', async () => {
    const stream = client.chat.completions.stream({ model: 'svc-test', messages: ASK, stop: ['[2]'], stream_options: { include_usage: true } });
    const done = await stream.finalChatCompletion();
    expect(done.choices[0]!.finish_reason).toBe('stop');
    expect(done.choices[0]!.message.content).toBe(TEXT.slice(0, TEXT.indexOf('[2]')));
    expect(done.choices[0]!.message.annotations!.map((a) => a.url_citation.url)).toEqual([CITATIONS[0]!.url]);
    expect(done.usage!.completion_tokens).toBe(countTextTokens(TEXT.slice(0, TEXT.indexOf('[2]'))));
  });

  it('a sequence that never comes leaves the answer whole; with max_tokens too, the earlier of the two ends it', async () => {
    const whole = await client.chat.completions.create({ model: 'svc-report', messages: ASK, stop: ['zzz'] });
    expect(whole.choices[0]!.message.content).toBe(TEXT);
    expect(whole.choices[0]!.message.annotations).toHaveLength(2);
    const short = await client.chat.completions.create({ model: 'svc-test', messages: ASK, stop: ['Services'], max_tokens: 3 });
    expect(short.choices[0]!.finish_reason).toBe('length');
    const stopped = await client.chat.completions.create({ model: 'svc-test', messages: ASK, stop: ['\n'], max_tokens: 1000 });
    expect(stopped.choices[0]!.finish_reason).toBe('stop');
    expect(stopped.choices[0]!.message.content).toBe(BEFORE_BLANK);
  });

  it('the AI SDK chat model: stopSequences end the text, generateText and streamText alike', async () => {
    const openai = createOpenAI({ baseURL: svc.baseURL, apiKey });
    const made = await generateText({ model: openai.chat('svc-test'), prompt: 'What was Apple revenue?', stopSequences: ['\n\n'] });
    expect(made.text).toBe(BEFORE_BLANK);
    expect(made.finishReason).toBe('stop');
    expect(made.warnings ?? []).toEqual([]);
    const streamed = streamText({ model: openai.chat('svc-test'), prompt: 'What was Apple revenue?', stopSequences: ['\n\n'] });
    expect(await streamed.text).toBe(BEFORE_BLANK);
    expect(await streamed.finishReason).toBe('stop');
    expect((await streamed.sources).map((s) => (s.sourceType === 'url' ? s.url : ''))).toEqual([CITATIONS[0]!.url]);
  });

  it('a wrong stop is a 400 naming it', async () => {
    const cases: [unknown, string, string][] = [
      [5, 'stop', 'invalid_type'],
      [['a', 'b', 'c', 'd', 'e'], 'stop', 'invalid_value'],
      [['a', 7], 'stop[1]', 'invalid_type'],
      [[''], 'stop[0]', 'empty_value'],
    ];
    for (const [stop, param, code] of cases) {
      const err = await sdkError(client.chat.completions.create({ model: 'svc-test', messages: ASK, stop: stop as string }));
      expect([err.status, err.param, err.code]).toEqual([400, param, code]);
    }
    // null and [] are no stop.
    for (const stop of [null, []]) expect((await client.chat.completions.create({ model: 'svc-test', messages: ASK, stop: stop as null })).choices[0]!.message.content).toBe(TEXT);
  });
});

describe('Chat: sampling fields checked, audio refused', () => {
  it('seed, penalties and logit_bias in range are accepted (and change nothing)', async () => {
    const r = await client.chat.completions.create({ model: 'svc-test', messages: ASK, seed: 42, frequency_penalty: -2, presence_penalty: 2, logit_bias: { '50256': -100, '1': 100 }, modalities: ['text'] });
    expect(r.choices[0]!.message.content).toBe(TEXT);
  });

  it('a wrong type or value is a 400 naming it; audio output is a 400 naming modalities', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ seed: 'x' }, 'seed', 'invalid_type'],
      [{ seed: 1.5 }, 'seed', 'invalid_type'],
      [{ frequency_penalty: 5 }, 'frequency_penalty', 'invalid_value'],
      [{ presence_penalty: '1' }, 'presence_penalty', 'invalid_type'],
      [{ logit_bias: 'x' }, 'logit_bias', 'invalid_type'],
      [{ logit_bias: { '50256': -101 } }, 'logit_bias.50256', 'invalid_value'],
      [{ modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'mp3' } }, 'modalities', 'invalid_value'],
      [{ modalities: ['video'] }, 'modalities[0]', 'invalid_value'],
    ];
    for (const [fields, param, code] of cases) {
      const err = await sdkError(client.chat.completions.create({ model: 'svc-test', messages: ASK, ...fields } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming));
      expect([err.status, err.param, err.code]).toEqual([400, param, code]);
    }
  });
});
