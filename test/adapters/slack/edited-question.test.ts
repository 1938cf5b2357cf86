import { afterEach, describe, expect, it } from 'vitest';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { CITATIONS, newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { BOT_ID, BOT_USER } from './fake-slack.js';
import { CHANNEL, USER, shownTexts, startSlackHarness, type SlackHarness } from './harness.js';

/**
 * A person edits the question svc answered (Slack's `message_changed` with `edited`): svc answered
 * the old text and ignored the edit. It now answers the latest question again, editing its answer,
 * and the thread goes on from the edited question. Link previews (`message_changed` without
 * `edited`), the bot's own edits, edits of a question later turns built on, and a redelivered
 * edit are left alone.
 */

let h: SlackHarness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DM = 'D0ANA';
const FOOTER = citationFooter(CITATIONS.slice(0, 1), 'slack');
const answerOf = (q: string) => `Answer to "${q}" [1].${FOOTER}`;
let edits = 0;

/** Slack's message_changed event for a person's message `ts` now reading `text` (`edited`: a person's edit, not a preview). */
function changed(channel: string, ts: string, text: string, previous: string, opts: { threadTs?: string; edited?: boolean; im?: boolean } = {}): Record<string, unknown> {
  const eventTs = `${1_800_000_000 + ++edits}.000100`;
  const thread = opts.threadTs ? { thread_ts: opts.threadTs } : {};
  return {
    type: 'message',
    subtype: 'message_changed',
    hidden: true,
    channel,
    channel_type: opts.im ? 'im' : 'channel',
    ts: eventTs,
    message: {
      type: 'message',
      user: USER,
      text,
      ts,
      ...thread,
      ...(opts.edited === false ? { attachments: [{ from_url: 'https://example.com/fed', title: 'Fed' }] } : { edited: { user: USER, ts: eventTs } }),
    },
    previous_message: { type: 'message', user: USER, text: previous, ts, ...thread },
  };
}

async function start(nativeStreaming = false): Promise<SlackHarness> {
  log = newAgentLog();
  h = await startSlackHarness({ agents: researchAgents(log), nativeStreaming });
  return h;
}

async function dmQuestion(text: string): Promise<string> {
  const m = h!.slack.addUserMessage(DM, USER, text);
  await h!.event({ type: 'message', channel_type: 'im', user: USER, text, ts: m.ts, channel: DM });
  await h!.until(() => expect(h!.slack.threadReplies(DM, m.ts).at(-1)?.text ?? '').toContain('Sources'));
  await h!.quiet();
  return m.ts;
}

describe('Slack: an edited question', () => {
  for (const native of [false, true]) {
    it(`in a DM (${native ? 'natively streamed' : 'posted and edited'}): answered again in the same message`, async () => {
      await start(native);
      const ts = await dmQuestion('odds of a Fed ct?');
      const [answer] = h!.slack.threadReplies(DM, ts);
      await h!.event(changed(DM, ts, 'odds of a Fed cut?', 'odds of a Fed ct?', { im: true }));
      await h!.until(() => expect(log.requests).toHaveLength(2));
      await h!.until(() => expect(h!.slack.threadReplies(DM, ts).map((m) => m.markdown ?? m.text)).toEqual([answerOf('odds of a Fed cut?')]));
      await h!.quiet();
      expect(h!.slack.threadReplies(DM, ts).map((m) => m.ts)).toEqual([answer!.ts]);
      expect(log.requests.at(-1)!.messages).toEqual([{ role: 'user', content: 'odds of a Fed cut?' }]);
      expect(h!.slack.callsOf('chat.startStream')).toHaveLength(native ? 1 : 0);
    });
  }

  it('a link preview, the bot\'s own edit and a redelivered edit ask nothing again', async () => {
    await start();
    const ts = await dmQuestion('is https://example.com/fed right?');
    await h!.event(changed(DM, ts, 'is https://example.com/fed right?', 'is https://example.com/fed right?', { im: true, edited: false }));
    const edit = changed(DM, ts, 'is https://example.com/fed wrong?', 'is https://example.com/fed right?', { im: true });
    await h!.event(edit);
    await h!.until(() => expect(h!.slack.threadReplies(DM, ts).map((m) => m.text)).toEqual([answerOf('is https://example.com/fed wrong?')]));
    await h!.quiet();
    await h!.event(edit); // Slack retries the delivery (another event id)
    const answer = h!.slack.threadReplies(DM, ts)[0]!;
    await h!.event({ type: 'message', subtype: 'message_changed', hidden: true, channel: DM, channel_type: 'im', ts: '1900000000.000001', message: { type: 'message', user: BOT_USER, bot_id: BOT_ID, text: answer.text, ts: answer.ts, thread_ts: ts, edited: { user: BOT_USER, ts: '1900000000.000001' } } });
    await h!.sentinel();
    expect(log.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['is https://example.com/fed right?', 'is https://example.com/fed wrong?', expect.stringMatching(/^sentinel/)]);
  });

  it('in svc\'s thread: the latest question is answered again with the turns before it; an earlier one is left alone', async () => {
    await start();
    const root = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> odds of a cut?`);
    await h!.event({ type: 'app_mention', user: USER, text: root.text, ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, root.ts).at(-1) ?? '').toContain('Sources'));
    await h!.quiet();
    const reply = h!.slack.addUserMessage(CHANNEL, USER, 'and of a hikke?', root.ts);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: reply.text, ts: reply.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, root.ts)).toHaveLength(2));
    await h!.until(() => expect(shownTexts(h!.slack, root.ts).at(-1)).toContain('Sources'));
    await h!.quiet();
    // The first question has a later turn: its edit is left alone.
    await h!.event(changed(CHANNEL, root.ts, `<@${BOT_USER}> odds of a cut in March?`, root.text, { threadTs: root.ts }));
    await h!.event(changed(CHANNEL, reply.ts, 'and of a hike?', reply.text, { threadTs: root.ts }));
    await h!.until(() => expect(shownTexts(h!.slack, root.ts)).toEqual([answerOf('odds of a cut?'), answerOf('and of a hike?')]));
    await h!.sentinel();
    expect(log.requests).toHaveLength(4);
    expect(log.requests[2]!.messages).toEqual([
      { role: 'user', content: 'odds of a cut?' },
      { role: 'assistant', content: 'Answer to "odds of a cut?" [1].' },
      { role: 'user', content: 'and of a hike?' },
    ]);
    // The thread goes on from the edited question.
    const next = h!.slack.addUserMessage(CHANNEL, USER, 'and a hold?', root.ts);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: next.text, ts: next.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(log.requests).toHaveLength(5));
    await h!.quiet();
    expect(log.requests.at(-1)!.messages.slice(2)).toEqual([
      { role: 'user', content: 'and of a hike?' },
      { role: 'assistant', content: 'Answer to "and of a hike?" [1].' },
      { role: 'user', content: 'and a hold?' },
    ]);
  });

  it('answered again with a failure: a reply after it carries the edited question without the first answer', async () => {
    await start();
    const root = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> odds of a cut?`);
    await h!.event({ type: 'app_mention', user: USER, text: root.text, ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, root.ts).at(-1) ?? '').toContain('Sources'));
    await h!.quiet();
    await h!.event(changed(CHANNEL, root.ts, `<@${BOT_USER}> odds of a cut? break`, root.text));
    await h!.until(() => expect(shownTexts(h!.slack, root.ts).at(-1) ?? '').toContain(':warning:'));
    await h!.quiet();
    const reply = h!.slack.addUserMessage(CHANNEL, USER, 'and of a hike?', root.ts);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: reply.text, ts: reply.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(log.requests).toHaveLength(3));
    await h!.quiet();
    expect(log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'odds of a cut? break' },
      { role: 'user', content: 'and of a hike?' },
    ]);
  });

  it('an edit adding the forgotten @svc to a message just sent gets it answered in its thread, once (Slack sends no app_mention for it)', async () => {
    await start();
    const ts = `${Math.floor(Date.now() / 1000)}.000321`;
    const text = 'what are the odds of a Fed cut?';
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text, ts, channel: CHANNEL });
    const edit = changed(CHANNEL, ts, `<@${BOT_USER}> ${text}`, text);
    await h!.event(edit);
    await h!.until(() => expect(shownTexts(h!.slack, ts).at(-1) ?? '').toContain('Sources'));
    await h!.quiet();
    await h!.event(edit);
    await h!.sentinel();
    expect(log.requests.map((r) => r.messages.at(-1)!.content)).toEqual([text, expect.stringMatching(/^sentinel/)]);
    expect(shownTexts(h!.slack, ts)).toEqual([answerOf(text)]);
  });
});
