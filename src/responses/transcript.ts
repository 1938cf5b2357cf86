import type { AgentEvent, Answer, Citation, Usage } from '../agents/types.js';
import { SvcError, type ErrorKind } from '../errors.js';

/**
 * The compact record of a run: its agent events with the times that matter. Stored instead
 * of the wire events (which repeat the full text in every `*.done` event); replaying a
 * transcript through the deterministic encoder reproduces the original stream exactly.
 */
export type TranscriptEntry =
  | ['t', string]
  | ['c', Citation]
  | ['a', string, Citation[], string?]
  | ['u', Usage]
  /** Done at this time (seconds); a third element when the answer was cut (`max_output_tokens`). */
  | ['d', number, 'max_output_tokens'?]
  | ['f', number, { kind: ErrorKind; code: string; message: string; param: string | null }]
  /** Cancelled by its owner at this time (seconds), not an agent event: see ResponsesEncoder.cancel. */
  | ['x', number];

export function transcriptEntry(event: AgentEvent, now: number): TranscriptEntry | null {
  switch (event.type) {
    case 'text':
      return ['t', event.delta];
    case 'citation':
      return ['c', event.citation];
    case 'answer':
      return event.answer.textRef ? ['a', event.answer.text, [...event.answer.citations], event.answer.textRef] : ['a', event.answer.text, [...event.answer.citations]];
    case 'usage':
      return ['u', event.usage];
    case 'done':
      return event.incomplete ? ['d', now, event.incomplete] : ['d', now];
    case 'failed':
      return ['f', now, { kind: event.error.kind, code: event.error.code, message: event.error.message, param: event.error.param }];
    default:
      return null;
  }
}

/** Every source a transcript's answer cites, in the order given. */
export function citationsOf(entries: readonly TranscriptEntry[]): Citation[] {
  const out: Citation[] = [];
  for (const e of entries) {
    if (e[0] === 'c') out.push(e[1]);
    else if (e[0] === 'a') out.push(...e[2]);
  }
  return out;
}

/** The agent events of a transcript, each with the time the encoder saw it; a cancellation as `event: null`. */
export function* transcriptEvents(entries: readonly TranscriptEntry[]): Generator<{ event: AgentEvent | null; at: number }> {
  for (const e of entries) {
    switch (e[0]) {
      case 't':
        yield { event: { type: 'text', delta: e[1] }, at: 0 };
        break;
      case 'c':
        yield { event: { type: 'citation', citation: e[1] }, at: 0 };
        break;
      case 'a':
        yield { event: { type: 'answer', answer: e[3] ? { text: e[1], citations: e[2], textRef: e[3] } : { text: e[1], citations: e[2] } }, at: 0 };
        break;
      case 'u':
        yield { event: { type: 'usage', usage: e[1] }, at: 0 };
        break;
      case 'd':
        yield { event: e[2] ? { type: 'done', incomplete: e[2] } : { type: 'done' }, at: e[1] };
        break;
      case 'f':
        yield { event: { type: 'failed', error: new SvcError(e[2].kind, e[2]) }, at: e[1] };
        break;
      case 'x':
        yield { event: null, at: e[1] };
        break;
    }
  }
}

/**
 * A transcript as stored beside its output text: text entries become lengths (`['T', n]`,
 * `['A', n, citations]`: the next n characters of the stored text), so a row does not hold its
 * answer twice. An answer kept elsewhere for good (a stored report) becomes `['R', ref]` and is
 * left out of the stored text: the many responses that serve one report share its one copy.
 * Rows written before these forms hold `['t', text]`, which still read as they are.
 */
export type StoredTranscriptEntry = TranscriptEntry | ['T', number] | ['A', number, Citation[]] | ['R', string];

export interface StoredForm {
  transcript: StoredTranscriptEntry[];
  /** The output text less the answers stored as references. */
  text: string;
}

/**
 * The stored form, when the texts make up exactly `outputText` in order; otherwise the
 * transcript and text unchanged. `refer` says whether answers may be stored as references
 * (only when the reader can resolve them).
 */
export function storedForm(entries: readonly TranscriptEntry[], outputText: string, refer: boolean): StoredForm {
  const whole = (): StoredForm => ({ transcript: [...entries], text: outputText });
  const out: StoredTranscriptEntry[] = [];
  const kept: string[] = [];
  let referred = false;
  let at = 0;
  // A slice shares the output's characters, and === compares them as memory.
  const next = (text: string): boolean => outputText.slice(at, (at += text.length)) === text;
  for (const e of entries) {
    if (e[0] === 't') {
      if (!next(e[1])) return whole();
      out.push(['T', e[1].length]);
      kept.push(e[1]);
    } else if (e[0] === 'a') {
      if (!next(e[1])) return whole();
      if (refer && e[3]) {
        out.push(['R', e[3]]);
        referred = true;
      } else {
        out.push(['A', e[1].length, e[2]]);
        kept.push(e[1]);
      }
    } else {
      out.push(e);
    }
  }
  if (at !== outputText.length) return whole();
  return { transcript: out, text: referred ? kept.join('') : outputText };
}

/** The reference of an output that is exactly one kept answer (a served report, nothing added), else null. */
export function wholeAnswerRef(transcript: readonly TranscriptEntry[], outputText: string): string | null {
  let ref: string | null = null;
  for (const e of transcript) {
    if (e[0] === 't' || (e[0] === 'a' && (ref !== null || !e[3] || e[1] !== outputText))) return null;
    if (e[0] === 'a') ref = e[3]!;
  }
  return ref;
}

/** The references (`['R', ref]`) a stored transcript needs resolved before it can be read. */
export function referencesOf(entries: readonly StoredTranscriptEntry[]): string[] {
  return entries.flatMap((e) => (e[0] === 'R' ? [e[1]] : []));
}

/** The transcript and whole output text of a stored form, references resolved by `answers`. */
export function readStoredForm(entries: readonly StoredTranscriptEntry[], storedText: string, answers: ReadonlyMap<string, Answer>): { transcript: TranscriptEntry[]; outputText: string } {
  let at = 0;
  const pieces: string[] = [];
  const take = (n: number): string => {
    if (!Number.isInteger(n) || n < 0 || at + n > storedText.length) throw new Error('stored transcript does not match its output text');
    const text = storedText.slice(at, (at += n));
    pieces.push(text);
    return text;
  };
  let referred = false;
  const transcript = entries.map((e): TranscriptEntry => {
    switch (e[0]) {
      case 'T':
        return ['t', take(e[1])];
      case 'A':
        return ['a', take(e[1]), e[2]];
      case 'R': {
        const answer = answers.get(e[1]);
        if (!answer) throw new Error(`stored transcript refers to ${e[1]}, which is not stored`);
        referred = true;
        pieces.push(answer.text);
        return ['a', answer.text, [...answer.citations], e[1]];
      }
      default:
        return e;
    }
  });
  if (referred && at !== storedText.length) throw new Error('stored transcript does not match its output text');
  return { transcript, outputText: referred ? pieces.join('') : storedText };
}
