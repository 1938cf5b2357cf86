import { afterEach, describe, expect, it } from 'vitest';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { GONE_NOTE, STREAMING_MARK } from '../../../adapters/slack/texts.js';
import { CITATIONS, newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { CHANNEL, shownTexts, startSlackHarness, type SlackHarness } from './harness.js';

// Someone deletes the bot's answer message while the answer streams into it (chat.update then
// answers message_not_found): the adapter stops editing it and posts the answer again in the
// thread, under a note saying why, and carries on answering.

let h: SlackHarness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FOOTER = citationFooter(CITATIONS.slice(0, 1), 'slack');

describe('Slack: the answer message deleted while it streams', () => {
  it('the answer comes again as a new message in the thread, whole, under a note; nothing crashes and the next question is answered', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log) });
    await h.command('ask feed: slow question');
    await h.until(() => expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(1));
    const root = h.slack.rootMessages(CHANNEL)[0]!.ts;
    log.feed.text('First words');
    await h.until(() => expect(shownTexts(h!.slack, root)).toEqual([`First words${STREAMING_MARK}`]));
    // The user deletes it.
    const answer = h.slack.threadReplies(CHANNEL, root)[0]!;
    answer.deleted = true;
    log.feed.text(' and more');
    await h.until(() => expect(h!.slack.callsOf('chat.update').some((c) => c.args.ts === answer.ts && c.args.text === `First words and more${STREAMING_MARK}`)).toBe(true));
    log.feed.text(' and the end [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h.quiet();
    expect(shownTexts(h.slack, root)).toEqual([`${GONE_NOTE}\n\nFirst words and more and the end [1].${FOOTER}`]);
    // The deleted message was tried once, never again.
    expect(h.slack.callsOf('chat.update').filter((c) => c.args.ts === answer.ts)).toHaveLength(2);
    // The adapter still answers.
    await h.command('ask What did the Fed decide?');
    await h.until(() => expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(2));
    const next = h.slack.rootMessages(CHANNEL)[1]!.ts;
    await h.until(() => expect(shownTexts(h!.slack, next)).toEqual([`Answer to "What did the Fed decide?" [1].${FOOTER}`]));
  });

  it('the status line deleted before any text: the answer is posted in the thread under the note', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log) });
    await h.command('ask feed: slow question');
    await h.until(() => expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(1));
    const root = h.slack.rootMessages(CHANNEL)[0]!.ts;
    await h.until(() => expect(h!.slack.threadReplies(CHANNEL, root)).toHaveLength(1));
    h.slack.threadReplies(CHANNEL, root)[0]!.deleted = true;
    log.feed.text('The whole answer [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h.quiet();
    expect(shownTexts(h.slack, root)).toEqual([`${GONE_NOTE}\n\nThe whole answer [1].${FOOTER}`]);
  });

  it('natively streamed: the deleted message\'s text and the rest are posted in the thread under the note', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: researchAgents(log), nativeStreaming: true });
    await h.command('ask feed: native pieces');
    await h.until(() => expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(2)); // root, status line
    const root = h.slack.rootMessages(CHANNEL)[0]!.ts;
    log.feed.text('First part of the answer. ');
    await h.until(() => expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1));
    h.slack.threadReplies(CHANNEL, root).find((m) => m.streaming)!.deleted = true;
    log.feed.text('Second part. ');
    log.feed.text('Third [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h.quiet();
    expect(shownTexts(h.slack, root)).toEqual([`${GONE_NOTE}\n\nFirst part of the answer. Second part. Third [1].${FOOTER}`]);
    expect(h.slack.callsOf('chat.appendStream').length).toBeLessThanOrEqual(1);
  });
});
