import { settleWithin } from './retry.js';
import { turnSeq } from './store.js';

/**
 * Answers still being written, per thread: a follow-up waits (up to a limit) for the answers to
 * the messages before it, so its context has them whole, not half-written. Messages are named
 * by their platform timestamp or id, ordered as turnSeq orders them.
 */
export class AnswersInProgress {
  readonly #byThread = new Map<string, Set<{ seq: string; ended: Promise<void> }>>();

  constructor(private readonly waitMs: number) {}

  /** The answer to message `askedId` in `thread` is being written until `end` is called. */
  start(thread: string, askedId: string): { end: () => void } {
    let end!: () => void;
    const entry = { seq: turnSeq(askedId), ended: new Promise<void>((r) => (end = r)) };
    const set = this.#byThread.get(thread) ?? new Set();
    this.#byThread.set(thread, set.add(entry));
    return {
      end: () => {
        set.delete(entry);
        if (!set.size && this.#byThread.get(thread) === set) this.#byThread.delete(thread);
        end();
      },
    };
  }

  /** Waits (up to the limit) for the answers to messages before `beforeId` in `thread`. */
  async before(thread: string, beforeId: string): Promise<void> {
    const seq = turnSeq(beforeId);
    await this.#wait(thread, (a) => a.seq < seq);
  }

  /** Waits (up to the limit) for the answers to message `askedId` in `thread` and to those before it. */
  async through(thread: string, askedId: string): Promise<void> {
    const seq = turnSeq(askedId);
    await this.#wait(thread, (a) => a.seq <= seq);
  }

  async #wait(thread: string, which: (a: { seq: string }) => boolean): Promise<void> {
    const waiting = [...(this.#byThread.get(thread) ?? [])].filter(which).map((a) => a.ended);
    if (waiting.length) await settleWithin(new Set(waiting), this.waitMs);
  }
}
