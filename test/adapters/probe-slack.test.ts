import { afterEach, describe, expect, it } from 'vitest';
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
