import { describe, expect, it } from 'vitest';
import { safePrefix } from '../../../adapters/slack/native-stream.js';
import { slackToPlain } from '../../../adapters/slack/texts.js';
import { answerPart } from '../../../adapters/slack/thread.js';
import { tsBefore } from '../../../adapters/slack/thread.js';

describe('safePrefix (what a native stream may append now)', () => {
  it.each([
    ['Hello wor', 'Hello '],
    ['Hello world ', 'Hello world '],
    ['See [the statement](https://fed.gov/a b', 'See '],
    ['See [the sta', 'See '],
    ['A <https://x.com|lab', 'A '],
    ['Run `npm te', 'Run '],
    ['Run `npm test` now', 'Run `npm test` '],
    ['Done [1]. And [2', 'Done [1]. And '],
    ['```ts\nconst a', '```ts\nconst '],
    ['nospace', ''],
    ['美联储维持利率', '美联储维持利率'],
    ['市場は利下げを予想', '市場は利下げを予想'],
    ['美联储[1', '美联储'],
    ['概率为 **42', '概率为 '],
    ['見る`npm te', '見る'],
    ['中文abc', '中文'],
  ])('%j → %j', (text, expected) => {
    expect(safePrefix(text)).toBe(expected);
  });

  it('sends a single enormous token rather than stall', () => {
    expect(safePrefix('x'.repeat(3000))).toHaveLength(3000);
  });
});

describe('Slack text helpers', () => {
  it('turn Slack markup into plain text for the API', () => {
    expect(slackToPlain('<@U0BOT> what about <https://kalshi.com/markets/a/b/c|this> &amp; <@U0ANA|ana> in <#C1|general>?', 'U0BOT')).toBe(
      'what about this (https://kalshi.com/markets/a/b/c) & @ana in #general?',
    );
    expect(slackToPlain('<https://example.com>  x &lt; y')).toBe('https://example.com x < y');
    // Lines stay: a pasted table or code keeps its shape.
    expect(slackToPlain('<@U0BOT> compare these:\n| a | b |\n|---|---|\n| 1 | 2 |\n```\n  line1\nline2   \n```\n\n\n\nthanks', 'U0BOT')).toBe(
      'compare these:\n| a | b |\n|---|---|\n| 1 | 2 |\n```\n  line1\nline2\n```\n\nthanks',
    );
  });

  it("read back the bot's answer without its sources and notes, as edited (mrkdwn) or natively streamed (Markdown)", () => {
    expect(answerPart('The Fed held rates [1].\n\n*Sources*\n[1] <https://fed.gov/x|Fed statement>\n\n:warning: The answer was interrupted.', 'U0BOT')).toBe('The Fed held rates [1].');
    expect(answerPart('The Fed held rates [1].\n\n**Sources**\n[1] [Fed statement](https://fed.gov/x)\n\n⚠️ The answer was interrupted.', 'U0BOT')).toBe('The Fed held rates [1].');
  });

  it('order message timestamps', () => {
    expect(tsBefore('1700000000.000100', '1700000000.000200')).toBe(true);
    expect(tsBefore('1700000000.9', '1700000001.000001')).toBe(true);
    expect(tsBefore('1700000001.000001', '1700000001.000001')).toBe(false);
  });
});
