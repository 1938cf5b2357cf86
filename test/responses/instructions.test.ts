import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/config.js';
import { startService, type TestService } from '../helpers/service.js';

/**
 * Instructions (the Responses `instructions` field, system messages on Chat) that ask for a form
 * or a language, followed over the real HTTP API with the official SDK, offline on the shipped
 * demo snapshots.
 */

interface Said {
  text: string;
  citations: { order: number; name: string; url: string }[];
}

let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  svc = await startService({
    env: {
      SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec'),
      SVC_SEC_API_URL: 'http://127.0.0.1:9',
      SVC_SEC_WWW_URL: 'http://127.0.0.1:9',
      SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi'),
    },
  });
  const { apiKey } = await svc.account({ plan: 'pro', credits: 20 });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
}, 60_000);
afterAll(() => svc?.close());

/** Over Responses, the instructions in the `instructions` field. */
async function viaResponses(model: string, turns: string[], instructions?: string): Promise<Said> {
  const r = await client.responses.create({ model, input: turns.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })) as OpenAI.Responses.ResponseInput, ...(instructions ? { instructions } : {}) });
  return { text: r.output_text, citations: (r as unknown as Said).citations };
}

/** Over Chat Completions, the instructions as a system message. */
async function viaChat(model: string, turns: string[], instructions?: string): Promise<Said> {
  const messages = [...(instructions ? [{ role: 'system' as const, content: instructions }] : []), ...turns.map((content, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content }))];
  const c = await client.chat.completions.create({ model, messages });
  return { text: c.choices[0]!.message.content ?? '', citations: (c.choices[0] as unknown as Said).citations };
}

const endpoints = [
  ['Responses (instructions)', viaResponses],
  ['Chat (system message)', viaChat],
] as const;

/** The answer's lines that say something: not blank, not the italic note on the data. */
const body = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l && !/^_.*_$/.test(l));

/** Every [n] in the text has a citation n, and every citation is cited. */
function consistent(a: Said) {
  const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
  expect(markers.length).toBeGreaterThan(0);
  expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
}

const QUESTION = 'What was Apple revenue and net income in Q3 2024?';

describe.each(endpoints)('over %s', (_, ask) => {
  it.each(['svc-sec-agent', 'svc-agent'])('"Answer in one sentence." gives one sentence with its citations (%s)', async (model) => {
    const plain = await ask(model, [QUESTION]);
    const said = await ask(model, [QUESTION], 'Answer in one sentence.');
    const lines = body(said.text);
    expect(lines).toHaveLength(1);
    // One sentence: a single full stop, at its end.
    expect(lines[0]).toMatch(/^[^.]*(?:\.\d[^.]*)*\.$/);
    expect(lines[0]).toMatch(/\$85\.8 billion \[1\]/);
    expect(lines[0]).toMatch(/\$21\.4 billion \[1\]/);
    consistent(said);
    expect(said.citations.map((c) => c.name)).toEqual(plain.citations.map((c) => c.name));
    expect(body(plain.text).length).toBeGreaterThan(1);
  });

  it.each(['svc-sec-agent', 'svc-agent'])('"Reply with just the number." gives the number (%s)', async (model) => {
    const said = await ask(model, ['What was Apple revenue in Q3 2024?'], 'Reply with just the number.');
    const lines = body(said.text);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\*\*\$85\.8 billion\*\* \(Apple's revenue, fiscal Q3 2024, ended 2024-06-29\) \[1\]$/);
    consistent(said);
  });

  it('"Réponds en français." answers in English, its first line saying so', async () => {
    const plain = await ask('svc-sec-agent', [QUESTION]);
    const said = await ask('svc-sec-agent', [QUESTION], 'Réponds en français.');
    expect(said.text.split('\n')[0]).toBe('(This service answers in English; French was asked.)');
    expect(said.text).toBe(`(This service answers in English; French was asked.)\n\n${plain.text}`);
    expect(said.citations.map((c) => c.name)).toEqual(plain.citations.map((c) => c.name));
  });

  it.each(['svc-sec-agent', 'svc-agent'])('"You are a helpful assistant." changes nothing (%s)', async (model) => {
    const plain = await ask(model, [QUESTION]);
    const said = await ask(model, [QUESTION], 'You are a helpful assistant.');
    expect(said.text).toBe(plain.text);
    expect(said.citations.map((c) => c.name)).toEqual(plain.citations.map((c) => c.name));
  });

  it('a form and a language together: the note, then the form', async () => {
    const said = await ask('svc-agent', ['What was Apple revenue in Q3 2024?'], 'Responde en español. Reply with bullet points.');
    const lines = said.text.split('\n').filter(Boolean);
    expect(lines[0]).toBe('(This service answers in English; Spanish was asked.)');
    expect(lines[1]).toMatch(/^- Apple, fiscal Q3 2024: revenue \$85\.8 billion \[1\]$/);
    consistent(said);
  });

  it("the form is for the caller's answer, not for an earlier turn answered again nor a side of a question", async () => {
    const first = await ask('svc-sec-agent', ['Apple net margin Q3 2024'], 'Answer in one sentence.');
    const working = await ask('svc-sec-agent', ['Apple net margin Q3 2024', first.text, 'how did you calculate that?'], 'Answer in one sentence.');
    expect(working.text).toContain('net income / revenue = 21,448 / 85,777 = **25.0%**');
    const linked = await ask('svc-agent', ['Would a government shutdown hurt Apple?'], 'Answer in one sentence.');
    expect(body(linked.text)).toHaveLength(1);
    expect(linked.text).toMatch(/Apple Inc\.'s net margin for fiscal Q2 2025 was 26%/);
    consistent(linked);
  });

  it('a form the question asks itself wins over the instructions', async () => {
    const said = await ask('svc-sec-agent', ['What was Apple revenue in Q3 2024? Just the number.'], 'Answer in one sentence.');
    expect(body(said.text)[0]).toMatch(/^\*\*\$85\.8 billion\*\*/);
  });

  it('a question naming no figure ("how did Apple do?") gets its key figures in the form asked', async () => {
    const bullets = await ask('svc-agent', ['how did apple do in fy2024?'], 'Use bullet points.');
    expect(body(bullets.text)).toEqual([
      '- Apple, fiscal year 2024: revenue $391.0 billion [1]',
      '- Apple, fiscal year 2024: net income $93.7 billion [1]',
      '- Apple, fiscal year 2024: diluted EPS $6.08 a share [1]',
    ]);
    consistent(bullets);
    const sentence = await ask('svc-sec-agent', ['how did microsoft do in fy2024?'], 'Answer in one sentence.');
    expect(body(sentence.text)).toEqual(["In fiscal year 2024 (year ended 2024-06-30), Microsoft's revenue was $245.1 billion [1], its net income $88.1 billion [1] and its diluted EPS $11.80 a share [1]."]);
  });
});

describe('streamed', () => {
  it('a form and a language asked are followed on both streams as on plain answers', async () => {
    for (const instructions of ['Answer in one sentence.', 'Réponds en français.']) {
      const plain = await viaResponses('svc-agent', [QUESTION], instructions);
      const stream = client.responses.stream({ model: 'svc-agent', input: QUESTION, instructions });
      let deltas = '';
      for await (const e of stream) if (e.type === 'response.output_text.delta') deltas += e.delta;
      expect(deltas).toBe(plain.text);
      expect((await stream.finalResponse()).output_text).toBe(plain.text);
      const chunks = await client.chat.completions.create({ model: 'svc-agent', stream: true, messages: [{ role: 'system', content: instructions }, { role: 'user', content: QUESTION }] });
      let text = '';
      for await (const c of chunks) text += c.choices[0]?.delta.content ?? '';
      expect(text).toBe(plain.text);
    }
  });
});

describe('report threads', () => {
  it('a stored report asked in one sentence is its one-sentence summary, with its citations', async () => {
    await client.responses.create({ model: 'svc-prediction-markets-agent', input: 'KXFEDDECISION-26DEC' });
    for (const ask of [viaResponses, viaChat]) {
      const said = await ask('svc-prediction-markets-agent:cache', ['KXFEDDECISION-26DEC'], 'Answer in one sentence.');
      const lines = body(said.text);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^On Kalshi's “Fed decision in December 2026\?” market, traders see/);
      consistent(said);
      // In bullet points, a point of its summary a line.
      const points = body((await ask('svc-prediction-markets-agent:cache', ['KXFEDDECISION-26DEC'], 'Use bullet points.')).text);
      expect(points.length).toBeGreaterThan(2);
      for (const p of points) expect(p).toMatch(/^- .*\[\d+\]\.$/);
      // A follow-up in the thread, restated in one sentence.
      const report = (await ask('svc-agent', ['KXFEDDECISION-26DEC'])).text;
      const plain = await ask('svc-agent', ['KXFEDDECISION-26DEC', report, "what's the edge?"]);
      const edge = await ask('svc-agent', ['KXFEDDECISION-26DEC', report, "what's the edge?"], 'Answer in one sentence.');
      expect(body(plain.text)[0]!.split(/(?<=\.)\s+(?=[A-Z])/).length).toBeGreaterThan(1);
      expect(body(edge.text)).toHaveLength(1);
      expect(body(edge.text)[0]).toMatch(/^The largest gap is Hike 25bps\b.*\[1\]\.$/);
      expect(body(edge.text)[0]).not.toMatch(/[.!?]\s+[A-Z]/);
      consistent(edge);
    }
  }, 120_000);
});
