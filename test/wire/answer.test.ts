import { describe, expect, it } from 'vitest';
import type { AgentEvent, Answer } from '../../src/agents/types.js';
import { transcriptEntry, transcriptEvents } from '../../src/responses/transcript.js';
import { answerChunks, chunksOf } from '../../src/wire/answer.js';
import { ChatEncoder } from '../../src/wire/chat.js';
import { ResponsesEncoder, type ResponseParams } from '../../src/wire/responses.js';
import { responseParams } from '../helpers/response-params.js';

const params: ResponseParams = { ...responseParams, store: false };

/** A report-sized answer: paragraphs, `[n]` markers out of order, one citation never cited. */
function report(): Answer {
  let text = '# Report "quoted" \\ é 🙂\n\n';
  for (let i = 0; text.length < 6000; i++) text += `Paragraph ${i}: a claim [${(i % 5) + 1}] with detail.\n\n`;
  const citations = [5, 3, 1, 2, 4, 6].map((order) => ({ order, name: `Source ${order}`, url: `https://example.com/${order}` }));
  return { text, citations };
}

/** The same answer as separate events, the way an agent that streams would send it. */
const asEvents = (a: Answer): AgentEvent[] => [
  ...chunksOf(a.text).map((delta) => ({ type: 'text' as const, delta })),
  ...a.citations.map((citation) => ({ type: 'citation' as const, citation })),
];

const ending: AgentEvent[] = [{ type: 'usage', usage: { inputTokens: 5, outputTokens: 900 } }, { type: 'done' }];

function responses(events: AgentEvent[], emit: boolean) {
  const enc = new ResponsesEncoder(params, { emit });
  const out = emit ? [...enc.begin()] : [];
  for (const e of [...events, ...ending]) out.push(...enc.push(e, 1_700_000_005));
  return { out, body: enc.responseBody().toString(), json: JSON.stringify(enc.response()) };
}

function chat(events: AgentEvent[]) {
  const enc = new ChatEncoder({ id: 'chatcmpl-1', model: 'svc-test', created: 1_700_000_000, includeUsage: true });
  const frames = [...enc.begin()];
  for (const e of [...events, ...ending]) frames.push(...enc.push(e));
  return { frames, body: enc.completionJson() };
}

describe('a whole answer event', () => {
  it('encodes exactly as its text deltas and citation events would, streamed and not (Responses)', () => {
    const a = report();
    expect(responses([{ type: 'answer', answer: a }], false).body).toBe(responses(asEvents(a), false).body);
    expect(responses([{ type: 'answer', answer: a }], false).body).toBe(responses(asEvents(a), false).json);
    const whole = responses([{ type: 'answer', answer: a }], true).out;
    expect(whole).toEqual(responses(asEvents(a), true).out);
    const deltas = whole.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(a.text);
  });

  it('encodes exactly as its text deltas and citation events would (Chat)', () => {
    const a = report();
    expect(chat([{ type: 'answer', answer: a }])).toEqual(chat(asEvents(a)));
  });

  it('served again and again, gives the same bytes, and nothing it is served with changes it', () => {
    const a = report();
    const before = JSON.stringify(a);
    const first = responses([{ type: 'answer', answer: a }], false).body;
    for (let i = 0; i < 3; i++) expect(responses([{ type: 'answer', answer: a }], false).body).toBe(first);
    expect(chat([{ type: 'answer', answer: a }]).body).toBe(chat([{ type: 'answer', answer: a }]).body);
    expect(JSON.stringify(a)).toBe(before);
    expect(answerChunks(a)).toBe(answerChunks(a));
  });

  it('mixed with other text or citations, everything is placed as if it had come in pieces', () => {
    const a = report();
    const extra = { order: 7, name: 'Extra', url: 'https://example.com/7' };
    const mixed: AgentEvent[] = [{ type: 'text', delta: 'Intro [7].\n\n' }, { type: 'answer', answer: a }, { type: 'citation', citation: extra }];
    const pieces: AgentEvent[] = [{ type: 'text', delta: 'Intro [7].\n\n' }, ...asEvents(a), { type: 'citation', citation: extra }];
    expect(responses(mixed, false).body).toBe(responses(pieces, false).body);
    expect(responses(mixed, true).out).toEqual(responses(pieces, true).out);
    expect(chat(mixed)).toEqual(chat(pieces));
    // The whole answer's own placements are not reused for a text that starts elsewhere.
    const intro = JSON.parse(responses(mixed, false).body).output[0].content[0].annotations.find((x: { order: number }) => x.order === 1);
    expect(intro.start_index).toBe(JSON.parse(responses(mixed, false).body).output[0].content[0].text.indexOf('[1]'));
  });

  it('is kept whole in a stored transcript, and replays to the same stream', () => {
    const a = report();
    const events: AgentEvent[] = [{ type: 'answer', answer: a }, ...ending];
    const entries = events.map((e) => transcriptEntry(e, 1_700_000_005)).filter((e) => e !== null);
    expect(entries[0]).toEqual(['a', a.text, a.citations]);
    const replayed = [...transcriptEvents(JSON.parse(JSON.stringify(entries)))].map((x) => x.event!);
    expect(responses(replayed.slice(0, 1), true).out).toEqual(responses(events.slice(0, 1), true).out);
  });
});

describe('chunksOf', () => {
  const whole = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

  it('never ends a delta on half of a surrogate pair when a paragraph has no break', () => {
    for (let at = 1195; at <= 1201; at++) {
      const text = `${'x'.repeat(at)}😀${'y'.repeat(1500)}`;
      const chunks = chunksOf(text);
      expect(chunks.join('')).toBe(text);
      for (const c of chunks) expect(whole(c), `emoji at ${at}`).toBe(true);
      // Each delta survives a strict UTF-8 round trip, as Python or serde_json clients need.
      for (const c of chunks) expect(Buffer.from(c, 'utf8').toString('utf8')).toBe(c);
    }
  });

  it('cuts at a blank line when there is one in the last two thirds', () => {
    const text = `${'a'.repeat(900)}\n\n${'b'.repeat(900)}`;
    expect(chunksOf(text)).toEqual([`${'a'.repeat(900)}\n\n`, 'b'.repeat(900)]);
  });
});
