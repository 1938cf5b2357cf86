import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countBounded, countPromptTokens } from '../../src/agents/usage.js';

describe('token counts', () => {
  it('are exact for ordinary text', () => {
    for (const text of ['What was Apple revenue in Q3 2024?', 'hello world '.repeat(2000), `| a | b |\n|---|---|\n${'| 0.42 | +3.1 pts [2] |\n'.repeat(300)}`, '中文 问题 '.repeat(500), '🙂 '.repeat(500)]) {
      expect(countBounded(text)).toBe(countTokens(text));
    }
  });

  it('count a long run without a word boundary in pieces: close to exact, whole characters only', () => {
    for (const run of ['abcdefghij'.repeat(100), ' '.repeat(1000), '\n'.repeat(1000), '!@#$%^&*()'.repeat(100), '中文字符测试'.repeat(170), '🙂'.repeat(500)]) {
      const text = `Before the run. ${run} After the run.`;
      const exact = countTokens(text);
      const bounded = countBounded(text);
      // At most one token more per piece of 128 characters (and never a split surrogate, which would count as extra tokens).
      expect(Math.abs(bounded - exact)).toBeLessThanOrEqual(Math.ceil(run.length / 128) + 2);
    }
  });

  it('a prompt of one 300,000-letter word is counted (quadratic before: about 50 s of blocked event loop)', () => {
    const word = 'qwertyuiopasdfghjklzxcvbnm'.repeat(11_539);
    const tokens = countPromptTokens([{ role: 'user', content: `Apple revenue ${word}` }], null);
    expect(tokens).toBeGreaterThan(word.length / 10);
    expect(tokens).toBeLessThan(word.length);
  });
});
