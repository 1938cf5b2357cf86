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
