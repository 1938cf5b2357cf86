import { describe, expect, it } from 'vitest';
import { routedText } from '../../../src/agents/router/classify.js';

// The chat spellings the router's rules are read through, and the words that only look like them.
describe('routedText', () => {
  it('reads chat misspellings of the words the rules look for', () => {
    expect(routedText('how confidnet are u')).toBe('how confident are you');
    expect(routedText('whats ur confindence')).toContain('confidence');
    expect(routedText('what wuld make u wrong?')).toBe('what would make you wrong?');
  });

  it('leaves a "U" that is no pronoun, and words that only start like "confident"', () => {
    for (const text of ['U-3 unemployment above 4.5%?', 'Class U shares', 'the U.S. cpi print', 'U of Michigan sentiment', 'a u-turn by the fed']) expect(routedText(text)).toBe(text);
    expect(routedText('confinement and configuration')).toBe('confinement and configuration');
  });
});
