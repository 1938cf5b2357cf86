import { afterEach, describe, expect, it } from 'vitest';
import { answerPart } from '../../adapters/slack/thread.js';
import { ROOT_QUESTION_LIMIT } from '../../adapters/slack/texts.js';
import { newAgentLog, researchAgents, type AgentLog } from './helpers/agents.js';
import { BOT_USER } from './slack/fake-slack.js';
import { CHANNEL, USER, shownTexts, startSlackHarness, type SlackHarness, type SlackHarnessOptions } from './slack/harness.js';

/** Findings of probing the Slack adapter as a workspace meets it (adapters-probe). */

let h: SlackHarness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(opts: Partial<SlackHarnessOptions> = {}): Promise<SlackHarness> {
  log = newAgentLog();
  h = await startSlackHarness({ agents: researchAgents(log), ...opts });
  return h;
}

describe('Slack probe: a long pasted question', () => {
  it('/svc ask with a 6,000-character question: the root repeats the start of it (Slack refuses longer text), the service gets all of it', async () => {
    await start();
    h!.slack.textLimit = 4000;
    const question = Array.from({ length: 600 }, (_, i) => `why ${i} & how?`).join(' ');
    expect(question.length).toBeGreaterThan(6000);
    await h!.command(`ask ${question.replace(/&/g, '&amp;')}`);
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      expect(shownTexts(h!.slack, root!.ts).at(-1)).toContain('*Sources*');
    });
    await h!.quiet();
    expect(h!.slack.responses).toEqual([]); // no private "Slack refused my message"
    const [root] = h!.slack.rootMessages(CHANNEL);
    expect(root!.text.length).toBeLessThanOrEqual(ROOT_QUESTION_LIMIT + 100);
    expect(root!.text).toMatch(new RegExp(`^<@${USER}> asked: why 0 &amp; how\\? why 1 &amp; how\\?`));
    // Cut between words, and says so.
    expect(root!.text).toMatch(/ why \d+ … _\(shortened here; svc has the whole question\)_$/);
    expect(root!.metadata?.event_payload.question).toBe(question);
    expect(log.requests.at(-1)!.messages).toEqual([{ role: 'user', content: question }]);
  });

  it('a question within the limit is repeated whole', async () => {
    await start();
    h!.slack.textLimit = 4000;
    await h!.command('ask is 3 < 4 & 5 > 4?');
    await h!.until(() => expect(h!.slack.rootMessages(CHANNEL)[0]?.text).toBe(`<@${USER}> asked: is 3 &lt; 4 &amp; 5 &gt; 4?`));
    await h!.quiet();
  });
});

describe('Slack probe: several links in one message', () => {
  it('a report refused among several names its event above the reason, since the thread holds them all', async () => {
    await start();
    const m = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> <https://kalshi.com/markets/kxfed/fed/kxfed-25dec> and <https://kalshi.com/markets/kx/no-credits/kx-1>`);
    await h!.event({ type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, m.ts)).toHaveLength(2));
    await h!.until(() => expect(shownTexts(h!.slack, m.ts)[1]).toMatch(/:warning:/));
    await h!.quiet();
    const [report, refused] = shownTexts(h!.slack, m.ts);
    expect(report).toContain('*Report for fed*');
    expect(refused).toMatch(/^\*No credits \(KX-1\)\*\n:warning: There are not enough credits left on this workspace's account to generate this report/);
  });

  it('natively streamed too: the refused report is named', async () => {
    await start({ nativeStreaming: true });
    const m = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> https://kalshi.com/markets/kx/unknown-event/kx-1 https://kalshi.com/markets/kxfed/fed/kxfed-25dec`);
    await h!.event({ type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, m.ts).at(-1)).toContain('Sources'));
    await h!.quiet();
    expect(shownTexts(h!.slack, m.ts)[0]).toBe('*Unknown event (KX-1)*\n:warning: No Kalshi event KXNOPE.');
  });

  it('a single refused report is the reason alone (the link is right above it)', async () => {
    await start();
    const m = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> https://kalshi.com/markets/kx/unknown-event/kx-1`);
    await h!.event({ type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, m.ts)).toEqual([':warning: No Kalshi event KXNOPE.']));
    await h!.quiet();
  });
});

describe('Slack probe: a named refusal read back from Slack', () => {
  it('is no part of the answer, in mrkdwn and in Markdown', () => {
    expect(answerPart('*Unknown event (KX-1)*\n:warning: No Kalshi event KXNOPE.', 'U0BOT')).toBe('');
    expect(answerPart('*Unknown event (KX-1)*\n⚠️ No Kalshi event KXNOPE.', 'U0BOT')).toBe('');
    expect(answerPart('The report.\n\n*Sources*\n[1] <https://a.example|A>', 'U0BOT')).toBe('The report.');
    expect(answerPart('*Key point*\nRates hold.', 'U0BOT')).toBe('*Key point*\nRates hold.');
  });
});

describe('Slack probe: mentions in a question', () => {
  it('a user group (<!subteam^…|@team>) and a date read as Slack shows them; @here stays text', async () => {
    await start();
    await h!.command('ask did <!subteam^S0RISK|@risk-team> see the <!date^1765000000^{date_short}|Dec 6> print, <!here|here>?');
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      expect(shownTexts(h!.slack, root!.ts).at(-1)).toContain('*Sources*');
    });
    await h!.quiet();
    expect(log.requests.at(-1)!.messages.at(-1)!.content).toBe('did @risk-team see the Dec 6 print, @here?');
    expect(h!.slack.rootMessages(CHANNEL)[0]!.text).toBe(`<@${USER}> asked: did @risk-team see the Dec 6 print, @here?`);
  });
});
