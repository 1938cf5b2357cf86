import { afterEach, describe, expect, it } from 'vitest';
import { DISCORD_MESSAGE_LIMIT } from '../../../adapters/discord/bot.js';
import { joinSplitParts } from '../../../adapters/shared/fences.js';
import { joinSources, splitMessage } from '../../../adapters/shared/split.js';
import { convertTables } from '../../../adapters/shared/tables.js';
import { SLACK_MESSAGE_LIMIT } from '../../../adapters/slack/answer.js';
import { newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { startDiscordHarness, until, type DiscordHarness } from '../helpers/discord-harness.js';
import { BOT_USER } from '../slack/fake-slack.js';
import { CHANNEL, USER, shownTexts, startSlackHarness, type SlackHarness } from '../slack/harness.js';
import { DM_CHANNEL } from '../discord/fake-discord.js';

/** A long table split across messages: every part after the first repeats its header and separator rows (adapters8). */

function table(rows: number, columns = ['Outcome', 'Model', 'Market']): string {
  const header = `| ${columns.join(' | ')} |`;
  const delimiter = `|${columns.map((_, i) => (i ? '---:' : '---')).join('|')}|`;
  const body = Array.from({ length: rows }, (_, r) => `| ${columns.map((c, i) => (i ? `${(r * (i + 3)) % 100}%` : `Outcome number ${r}`)).join(' | ')} |`);
  return [header, delimiter, ...body].join('\n');
}

const HEADER = 'Outcome            | Model | Market';
const RULE = '-------------------+-------+-------';

describe('splitting a long table', () => {
  for (const [platform, limit] of [['Discord', DISCORD_MESSAGE_LIMIT], ['Slack', SLACK_MESSAGE_LIMIT]] as const) {
    it(`shown as a code block (${platform}, ${limit}): each later part opens with the header and rule, within the limit, nothing lost`, () => {
      const text = convertTables(`Intro.\n\n${table(300)}\n\nAfter the table.`);
      const parts = splitMessage(text, limit);
      expect(parts.length).toBeGreaterThan(2);
      expect(joinSources(parts)).toBe(text);
      for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(limit);
      expect(parts[0]!.text).toContain(`\`\`\`\n${HEADER}\n${RULE}\nOutcome number 0 `);
      for (const p of parts.slice(1, -1)) expect(p.text.startsWith(`\`\`\`\n${HEADER}\n${RULE}\nOutcome number `)).toBe(true);
      // The header is said once per message, and read back once.
      for (const p of parts) expect(p.text.split(HEADER)).toHaveLength(2);
      expect(parts.map((p) => p.text).reduce((a, b) => joinSplitParts(a, b))).toBe(text);
    });
  }

  it('as Markdown rows: the header row and its delimiter row come again', () => {
    const text = `Intro.\n\n${table(120)}`;
    const parts = splitMessage(text, 2000);
    expect(parts.length).toBeGreaterThan(1);
    expect(joinSources(parts)).toBe(text);
    for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(2000);
    for (const p of parts.slice(1)) expect(p.text.startsWith('| Outcome | Model | Market |\n|---|---:|---:|\n| Outcome number ')).toBe(true);
  });

  it('a table wider than 80 columns shown in parts: the part the cut falls in repeats its own header', () => {
    const columns = ['Outcome', 'Model probability', 'Market probability', 'Spread in cents', 'Volume today', 'Open interest'];
    const text = convertTables(table(60, columns));
    const blocks = text.split('\n\n');
    expect(blocks).toHaveLength(2);
    const secondHeader = blocks[1]!.split('\n')[0]!;
    const parts = splitMessage(text, 2000);
    const inSecond = parts.slice(1).filter((p) => p.source.length && text.indexOf(p.source) > text.indexOf(secondHeader));
    expect(inSecond.length).toBeGreaterThan(0);
    for (const p of inSecond) expect(p.text.startsWith(`\`\`\`\n${secondHeader}\n`)).toBe(true);
    expect(joinSources(parts)).toBe(text);
  });

  it('code that is no table, or a cut between paragraphs, repeats nothing', () => {
    const code = ['```python', ...Array.from({ length: 200 }, (_, i) => `value_${i} = compute(${i})  # a comment`), '```'].join('\n');
    for (const p of splitMessage(code, 2000).slice(1)) expect(p.text.startsWith('```python\nvalue_')).toBe(true);
    const prose = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} says something about the market at length.`).join('\n\n');
    const text = convertTables(`${table(5)}\n\n${prose}`);
    for (const p of splitMessage(text, 500).slice(1)) expect(p.text).not.toContain('Outcome ');
  });
});

describe('a long table in an answer', () => {
  let d: DiscordHarness | undefined;
  let s: SlackHarness | undefined;
  let log: AgentLog;
  afterEach(async () => {
    await d?.close();
    await s?.close();
    d = s = undefined;
  });

  it('on Discord: the continuation message repeats the header and rule', async () => {
    d = await startDiscordHarness();
    d.discord.dmMessage('feed: the table please');
    await until(() => expect(d!.log.requests).toHaveLength(1));
    d.log.feed.text(`Here are the outcomes.\n\n${table(150)}\n\nThat is all [1].`);
    d.log.feed.done([{ order: 1, name: 'Kalshi', url: 'https://kalshi.com/markets/kx' }]);
    await until(() => expect(d!.botTexts(DM_CHANNEL).at(-1) ?? '').toContain('**Sources**'));
    await d.bot.idle();
    const texts = d.botTexts(DM_CHANNEL);
    expect(texts.length).toBeGreaterThan(2);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
    for (const t of texts.slice(1).filter((x) => x.includes('Outcome number'))) expect(t.startsWith(`\`\`\`\n${HEADER}\n${RULE}\nOutcome number `)).toBe(true);
  });

  it('on Slack, natively streamed: the next streamed message repeats the header and rule', async () => {
    log = newAgentLog();
    s = await startSlackHarness({ agents: researchAgents(log), nativeStreaming: true });
    const text = `<@${BOT_USER}> feed: the table please`;
    const m = s.slack.addUserMessage(CHANNEL, USER, text);
    await s.event({ type: 'app_mention', user: USER, text, ts: m.ts, channel: CHANNEL });
    await s.until(() => expect(log.requests).toHaveLength(1));
    log.feed.text(`Here are the outcomes.\n\n${table(400)}\n\nThat is all [1].`);
    log.feed.done([{ order: 1, name: 'Kalshi', url: 'https://kalshi.com/markets/kx' }]);
    await s.until(() => expect(shownTexts(s!.slack, m.ts).join('\n')).toContain('That is all'));
    await s.quiet();
    const texts = shownTexts(s.slack, m.ts);
    expect(s.slack.callsOf('chat.startStream').length).toBeGreaterThan(1);
    expect(texts.length).toBeGreaterThan(1);
    for (const t of texts.slice(1).filter((x) => x.includes('Outcome number'))) expect(t.startsWith(`\`\`\`\n${HEADER}\n${RULE}\nOutcome number `)).toBe(true);
  });

  it('on Slack: the continuation message repeats the header and rule', async () => {
    log = newAgentLog();
    s = await startSlackHarness({ agents: researchAgents(log) });
    const text = `<@${BOT_USER}> feed: the table please`;
    const m = s.slack.addUserMessage(CHANNEL, USER, text);
    await s.event({ type: 'app_mention', user: USER, text, ts: m.ts, channel: CHANNEL });
    await s.until(() => expect(log.requests).toHaveLength(1));
    log.feed.text(`Here are the outcomes.\n\n${table(250)}\n\nThat is all [1].`);
    log.feed.done([{ order: 1, name: 'Kalshi', url: 'https://kalshi.com/markets/kx' }]);
    await s.until(() => expect(shownTexts(s!.slack, m.ts).at(-1)).toContain('*Sources*'));
    await s.quiet();
    const texts = shownTexts(s.slack, m.ts);
    expect(texts.length).toBeGreaterThan(2);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(SLACK_MESSAGE_LIMIT);
    for (const t of texts.slice(1).filter((x) => x.includes('Outcome number'))) expect(t.startsWith(`\`\`\`\n${HEADER}\n${RULE}\nOutcome number `)).toBe(true);
  });
});
