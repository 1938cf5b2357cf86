import type { Agent, AgentEvent, AgentRequest, Citation, Usage } from './types.js';

type TextEvent = Extract<AgentEvent, { type: 'text' | 'answer' }>;
type DoneEvent = Extract<AgentEvent, { type: 'done' }>;
type FailedEvent = Extract<AgentEvent, { type: 'failed' }>;

/**
 * The same agent (id, description, variants, empty input), its events reshaped on their way out:
 * what withStopSequences and withOutputLimit make of an agent.
 */
export function reshapedAgent(agent: Agent, reshape: (events: AsyncIterable<AgentEvent>, request: AgentRequest) => AsyncIterable<AgentEvent>): Agent {
  return {
    id: agent.id,
    description: agent.description,
    ...(agent.variants ? { variants: agent.variants } : {}),
    ...(agent.emptyInput ? { emptyInput: agent.emptyInput } : {}),
    run: (request) => reshape(agent.run(request), request),
  };
}

/** What a wrapper that cuts an answer's text does at each step of the run (see shapeText). */
export interface TextShaper {
  /** A `text` event's delta or an `answer` event's whole text; `citations` are those held so far (an answer's are not among them). */
  text(text: string, event: TextEvent, citations: Citation[]): Iterable<AgentEvent>;
  /** The run is done: the citations held and the usage reported (if any) are the shaper's to send. */
  done(event: DoneEvent, citations: Citation[], usage: Usage | null): Iterable<AgentEvent>;
  failed(event: FailedEvent): Iterable<AgentEvent>;
}

/**
 * The walk over a run's events that a wrapper cutting its text shares: citations and the usage are
 * held until the end (whether a citation's marker is sent, and what the text sent counts, are known
 * only then), text and whole answers go to the shaper, other events pass as they are, and the run
 * ends at `done` or `failed`.
 */
export async function* shapeText(events: AsyncIterable<AgentEvent>, shaper: TextShaper): AsyncGenerator<AgentEvent> {
  const citations: Citation[] = [];
  let usage: Usage | null = null;
  for await (const event of events) {
    switch (event.type) {
      case 'citation':
        citations.push(event.citation);
        continue;
      case 'usage':
        usage = event.usage;
        continue;
      case 'text':
        yield* shaper.text(event.delta, event, citations);
        continue;
      case 'answer':
        yield* shaper.text(event.answer.text, event, citations);
        continue;
      case 'done':
        yield* shaper.done(event, citations, usage);
        return;
      case 'failed':
        yield* shaper.failed(event);
        return;
      default:
        yield event;
    }
  }
}
