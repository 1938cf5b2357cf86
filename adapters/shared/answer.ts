import type { AnswerEvent } from './api-client.js';
import type { Citation } from './citations.js';
import type { Clock } from './clock.js';
import type { MessageStream } from './message-stream.js';
import type { Problem } from './problems.js';

/** How one answer reaches the screen, whatever the platform's mechanism. */
export interface AnswerPresenter {
  /** Nothing has arrived yet; called at once and then every status interval. */
  waiting(elapsedMs: number): void;
  /** The whole (Markdown) text so far. */
  progress(markdown: string): void;
  /** Resolves false when the final text could not be shown in full. */
  done(markdown: string, citations: Citation[]): Promise<boolean>;
  failed(markdown: string, problem: Problem, interrupted: boolean): Promise<boolean>;
}

export interface AnswerOutcome {
  status: 'done' | 'failed';
  markdown: string;
  citations: Citation[];
  problem: Problem | null;
  /** The final state reached the platform. */
  landed: boolean;
}

export interface RunAnswerOptions {
  clock: Clock;
  /** How often the status line (elapsed time) is refreshed while nothing has arrived. */
  statusIntervalMs: number;
}

/** Feeds an answer's events to a presenter: status while waiting, text as it grows, then the end. */
export async function runAnswer(events: AsyncIterable<AnswerEvent>, presenter: AnswerPresenter, options: RunAnswerOptions): Promise<AnswerOutcome> {
  const { clock } = options;
  const started = clock.now();
  let markdown = '';
  let timer: unknown = null;
  const tick = () => {
    timer = null;
    if (markdown) return;
    presenter.waiting(clock.now() - started);
    timer = clock.setTimeout(tick, options.statusIntervalMs);
  };
  tick();
  try {
    for await (const event of events) {
      if (event.type === 'text') {
        markdown += event.delta;
        if (markdown.trim()) presenter.progress(markdown);
        continue;
      }
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      if (event.type === 'done') {
        const landed = await presenter.done(markdown, event.citations);
        return { status: 'done', markdown, citations: event.citations, problem: null, landed };
      }
      const landed = await presenter.failed(markdown, event.problem, event.interrupted);
      return { status: 'failed', markdown, citations: [], problem: event.problem, landed };
    }
  } finally {
    if (timer !== null) clock.clearTimeout(timer);
  }
  const problem: Problem = { kind: 'server_error', message: 'The answer ended unexpectedly. Please ask again.' };
  const landed = await presenter.failed(markdown, problem, markdown.length > 0);
  return { status: 'failed', markdown, citations: [], problem, landed };
}

/** What an edited-message answer looks like on a platform. */
export interface AnswerView {
  status(elapsedMs: number): string;
  interim(markdown: string): string;
  final(markdown: string, citations: Citation[]): string;
  failed(markdown: string, problem: Problem, interrupted: boolean): string;
}

/** The presenter for platforms that stream by editing messages (Discord; Slack's fallback). */
export function editingPresenter<H>(stream: MessageStream<H>, view: AnswerView): AnswerPresenter {
  return {
    waiting: (elapsed) => stream.show(view.status(elapsed)),
    progress: (markdown) => stream.show(() => view.interim(markdown)),
    done: (markdown, citations) => stream.finish(view.final(markdown, citations)),
    failed: (markdown, problem, interrupted) => stream.finish(view.failed(markdown, problem, interrupted)),
  };
}
