import { afterEach, describe, expect, it } from 'vitest';
import { asksBesideLinks } from '../../../adapters/shared/kalshi-links.js';
import { slackToPlain } from '../../../adapters/slack/texts.js';
import { newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { BOT_USER } from './fake-slack.js';
import { CHANNEL, USER, shownTexts, startSlackHarness, type SlackHarness } from './harness.js';

/** Slack markup and unspaced scripts in what people write (adapters6 probe). */

let h: SlackHarness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FED = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-26dec';

describe('Slack probe6: channel links without a label', () => {
  it('become #<id> rather than staying as raw markup', () => {
    expect(slackToPlain('compare <#C0FED> with <#C0CPI|> and <#C0GEN|general>')).toBe('compare #C0FED with #C0CPI and #general');
  });
});

describe('Slack probe6: a short question without its question mark beside a link', () => {
  it('is a question when it opens with a question word', () => {
    for (const q of [`why is ${FED} up`, `is ${FED} mispriced`, `<@U0BOT> will <${FED}|this> resolve`, `${FED} how come so high`]) expect(asksBesideLinks(q), q).toBe(true);
    for (const q of [`${FED} why`, `why ${FED}`, `compare ${FED} and ${FED}`, `${FED} report please`]) expect(asksBesideLinks(q), q).toBe(false);
  });
});

describe('Slack probe6: a question in an unspaced script beside a link', () => {
  it('counts as a question, however it is written', () => {
    for (const q of ['这个市场定价合理吗？', '为什么这个市场涨了这么多', 'この市場は割高ですか', 'ตลาดนี้ราคาสูงเกินไปหรือไม่', '이 시장은 과대평가되었나요?']) expect(asksBesideLinks(`${FED} ${q}`), q).toBe(true);
    for (const q of ['报告', '分析一下', 'thoughts?', '🎉']) expect(asksBesideLinks(`${FED} ${q}`), q).toBe(false);
  });

  it('a mention with a link and a Chinese question is answered by the research agent, not turned into a report', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log) });
    const text = `<@${BOT_USER}> <${FED}> 这个市场定价合理吗？`;
    const m = h.slack.addUserMessage(CHANNEL, USER, text);
    await h.event({ type: 'app_mention', user: USER, text, ts: m.ts, channel: CHANNEL });
    await h.until(() => expect(shownTexts(h!.slack, m.ts).at(-1)).toContain('*Sources*'));
    await h.quiet();
    expect(log.requests.map((r) => r.messages.at(-1)!.content)).toEqual([`${FED} 这个市场定价合理吗？`]);
    expect(shownTexts(h.slack, m.ts).join('\n')).not.toContain('Report for');
  });
});
