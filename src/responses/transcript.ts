import type { AgentEvent, Citation, Usage } from '../agents/types.js';
import { SvcError, type ErrorKind } from '../errors.js';

/**
 * The compact record of a run: its agent events with the times that matter. Stored instead
 * of the wire events (which repeat the full text in every `*.done` event); replaying a
 * transcript through the deterministic encoder reproduces the original stream exactly.
 */
export type TranscriptEntry =
  | ['t', string]
  | ['c', Citation]
  | ['a', string, Citation[]]
  | ['u', Usage]
  | ['d', number]
  | ['f', number, { kind: ErrorKind; code: string; message: string; param: string | null }];

export function transcriptEntry(event: AgentEvent, now: number): TranscriptEntry | null {
  switch (event.type) {
    case 'text':
      return ['t', event.delta];
    case 'citation':
      return ['c', event.citation];
    case 'answer':
      return ['a', event.answer.text, [...event.answer.citations]];
    case 'usage':
      return ['u', event.usage];
    case 'done':
      return ['d', now];
    case 'failed':
      return ['f', now, { kind: event.error.kind, code: event.error.code, message: event.error.message, param: event.error.param }];
    default:
      return null;
  }
}

/** The agent events of a transcript, each with the time the encoder saw it. */
export function* transcriptEvents(entries: readonly TranscriptEntry[]): Generator<{ event: AgentEvent; at: number }> {
  for (const e of entries) {
    switch (e[0]) {
      case 't':
        yield { event: { type: 'text', delta: e[1] }, at: 0 };
        break;
      case 'c':
        yield { event: { type: 'citation', citation: e[1] }, at: 0 };
        break;
      case 'a':
        yield { event: { type: 'answer', answer: { text: e[1], citations: e[2] } }, at: 0 };
        break;
      case 'u':
        yield { event: { type: 'usage', usage: e[1] }, at: 0 };
        break;
      case 'd':
        yield { event: { type: 'done' }, at: e[1] };
        break;
      case 'f':
        yield { event: { type: 'failed', error: new SvcError(e[2].kind, e[2]) }, at: e[1] };
        break;
    }
  }
}

/**
 * A transcript as stored beside its output text: text entries become lengths (`['T', n]`,
 * `['A', n, citations]`: the next n characters of the output text), so a row does not hold its
 * answer twice. Rows written before this form hold `['t', text]`, which still read as they are.
 */
export type StoredTranscriptEntry = TranscriptEntry | ['T', number] | ['A', number, Citation[]];

/** The stored form, when the texts make up exactly `outputText` in order; otherwise the transcript unchanged. */
export function storedTranscript(entries: readonly TranscriptEntry[], outputText: string): StoredTranscriptEntry[] {
  const out: StoredTranscriptEntry[] = [];
  let at = 0;
  // A slice shares the output's characters, and === compares them as memory.
  const next = (text: string): boolean => outputText.slice(at, (at += text.length)) === text;
  for (const e of entries) {
    if (e[0] === 't') {
      if (!next(e[1])) return [...entries];
      out.push(['T', e[1].length]);
    } else if (e[0] === 'a') {
      if (!next(e[1])) return [...entries];
      out.push(['A', e[1].length, e[2]]);
    } else {
      out.push(e);
    }
  }
  return at === outputText.length ? out : [...entries];
}

/** The transcript of a stored form: lengths read back from `outputText`. */
export function readStoredTranscript(entries: readonly StoredTranscriptEntry[], outputText: string): TranscriptEntry[] {
  let at = 0;
  const take = (n: number): string => {
    if (!Number.isInteger(n) || n < 0 || at + n > outputText.length) throw new Error('stored transcript does not match its output text');
    return outputText.slice(at, (at += n));
  };
  return entries.map((e): TranscriptEntry => (e[0] === 'T' ? ['t', take(e[1])] : e[0] === 'A' ? ['a', take(e[1]), e[2]] : e));
}
