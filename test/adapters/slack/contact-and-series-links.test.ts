import { afterEach, describe, expect, it } from 'vitest';
import { slackToPlain } from '../../../adapters/slack/texts.js';
import { newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { BOT_USER } from './fake-slack.js';
import { CHANNEL, USER, shownTexts, startSlackHarness, type SlackHarness } from './harness.js';

/** Slack's tel: and mailto: links in what people write, and Kalshi series links (adapters8). */

let h: SlackHarness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Slack: phone and e-mail links in a question', () => {
  it('read as the label and the number or address, without the scheme or markup', () => {
    expect(slackToPlain('<tel:+1555|call us> or <mailto:a@b.c|mail>')).toBe('call us (+1555) or mail (a@b.c)');
    // As Slack writes what people typed: the label is the address itself.
    expect(slackToPlain('write to <mailto:ir@example.com|ir@example.com> or ring <tel:+15550100|+1 555 0100>')).toBe('write to ir@example.com or ring +1 555 0100');
    expect(slackToPlain('<mailto:ana@example.com> <tel:+44%2020%207946%200000>')).toBe('ana@example.com +44 20 7946 0000');
    // Web links are as before.
    expect(slackToPlain('<https://example.com/a|docs> and <https://example.com|example.com>')).toBe('docs (https://example.com/a) and https://example.com');
  });

  it('a mention holding them reaches the agent readable', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log) });
    const text = `<@${BOT_USER}> is <tel:+18005550100|our desk> or <mailto:desk@example.com|the desk inbox> better for Fed questions?`;
    const m = h.slack.addUserMessage(CHANNEL, USER, text);
    await h.event({ type: 'app_mention', user: USER, text, ts: m.ts, channel: CHANNEL });
    await h.until(() => expect(shownTexts(h!.slack, m.ts).at(-1)).toContain('*Sources*'));
    await h.quiet();
    expect(log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['is our desk (+18005550100) or the desk inbox (desk@example.com) better for Fed questions?']);
  });
});

describe('Slack: a Kalshi series link', () => {
  it('in a mention is asked about as the series it names (the service refuses a series page)', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log) });
    const text = `<@${BOT_USER}> what's open in <https://kalshi.com/markets/kxfeddecision>?`;
    const m = h.slack.addUserMessage(CHANNEL, USER, text);
    await h.event({ type: 'app_mention', user: USER, text, ts: m.ts, channel: CHANNEL });
    await h.until(() => expect(shownTexts(h!.slack, m.ts).at(-1)).toContain('*Sources*'));
    await h.quiet();
    expect(log.requests.map((r) => r.messages)).toEqual([[{ role: 'user', content: "what's open in Kalshi series KXFEDDECISION?" }]]);
  });

  it('given to /svc report is named as a series page, privately, asking nothing', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log) });
    await h.command('report https://kalshi.com/markets/kxcpiyoy/cpi-yoy');
    await h.until(() => expect(h!.slack.responses).toHaveLength(1));
    expect(h.slack.responses[0]!.text).toMatch(/^That is the page of a Kalshi series \(KXCPIYOY\), not of one event, so there is no report on it\. Ask about it with `\/svc ask`/);
    expect(h.slack.rootMessages(CHANNEL)).toHaveLength(0);
    expect(log.requests).toEqual([]);
  });
});
