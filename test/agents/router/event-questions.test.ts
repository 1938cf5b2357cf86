import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/agents/router/classify.js';
import { eventQuestion } from '../../../src/agents/router/event-questions.js';

const URL = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';

describe('questions about a reported event', () => {
  it.each([
    ['What is the most likely outcome, in one sentence?', 'market_favourite'],
    ['who is the favourite', 'market_favourite'],
    ['Which outcome does the model favour? One sentence.', 'model_favourite'],
    ['what does the model say?', 'model_favourite'],
    ["what's the biggest mispricing?", 'gap'],
    ['which outcome is cheap?', 'gap'],
    ['when does it close?', 'closing'],
    ['when does it resolve?', 'closing'],
    ['how is it resolved?', 'resolution'],
    ['what is the resolution source', 'resolution'],
    ['how did the odds change this week', 'moves'],
    ['past results?', 'history'],
    ['thanks!', null],
    ['what can you do?', null],
    ['why?', 'method'],
    ['why did it drop this week?', 'moves'],
    ['how come hike jumped?', 'moves'],
    ['why is it down so much today?', 'moves'],
    ['why is the market so pessimistic?', 'outcome'],
    ['give me the 2-line version for a trader', 'summary'],
    ['quick take?', 'summary'],
    ['anything weird in the pricing?', 'anomalies'],
    ['and odds it closes above 100k?', 'outcome'],
    ['and the quarter before?', 'previous'],
    ['what about the meeting before?', 'previous'],
  ])('%s → %s', (question, kind) => {
    expect(eventQuestion(question)).toBe(kind);
  });

  it('after a Kalshi address, and after other questions about it, goes to that event with what is asked', () => {
    const history = [
      { role: 'user' as const, content: URL },
      { role: 'assistant' as const, content: '(report)' },
      { role: 'user' as const, content: 'what is the most likely outcome?' },
      { role: 'assistant' as const, content: '(answer)' },
    ];
    expect(classify('Which outcome does the model favour?', history)).toMatchObject({ kind: 'kalshi_url', url: URL, aboutEvent: true });
    expect(classify('when does it close?', history)).toMatchObject({ kind: 'kalshi_url', url: URL, aboutEvent: true });
    // Not about the event: another subject, or nothing the report answers.
    expect(classify("What was Apple's revenue in Q3 2024?", history).kind).toBe('filings');
    expect(classify('thanks!', history).kind).toBe('help');
    // Without an address before it, "the model" is no event's.
    expect(classify('Which outcome does the model favour?', []).kind).toBe('help');
  });
});
