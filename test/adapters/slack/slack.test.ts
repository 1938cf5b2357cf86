import { afterEach, describe, expect, it } from 'vitest';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { fenceAfter } from '../../../adapters/shared/fences.js';
import { toMrkdwn } from '../../../adapters/shared/mrkdwn.js';
import { convertTables } from '../../../adapters/shared/tables.js';
import { STREAMING_MARK } from '../../../adapters/slack/texts.js';
import { CITATIONS, longReport, namedFeed, newAgentLog, paidReportAgent, researchAgents, type AgentLog } from '../helpers/agents.js';
import { FakeClock, settle } from '../helpers/fake-clock.js';
import { RequestsInFlight, runClockUntil } from '../helpers/requests-in-flight.js';
import { busiestWindow } from '../helpers/windows.js';
import { BOT_USER, TEAM } from './fake-slack.js';
import { CHANNEL, USER, shownTexts, startSlackHarness, type SlackHarness, type SlackHarnessOptions } from './harness.js';

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

/** Fence lines are what splitting adds (closing and reopening code blocks); without them the parts must equal the whole. */
const withoutFenceLines = (s: string) =>
  s
    .split('\n')
    .filter((l) => !l.startsWith('```'))
    .join('\n');

const SLACK_FOOTER = citationFooter(CITATIONS.slice(0, 1), 'slack');
/** Long answers cite both sources. */
const LONG_FOOTER = citationFooter(CITATIONS, 'slack');

describe('Slack: /svc ask', () => {
  it('acknowledges at once, posts the question, and answers in its thread with numbered source links', async () => {
    await start();
    const res = await h!.command('ask What did the Fed decide?');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      expect(root?.text).toBe(`<@${USER}> asked: What did the Fed decide?`);
      expect(shownTexts(h!.slack, root!.ts)).toEqual([`Answer to "What did the Fed decide?" [1].${SLACK_FOOTER}`]);
    });
    expect(SLACK_FOOTER).toBe(`\n\n*Sources*\n[1] <${CITATIONS[0]!.url}|${CITATIONS[0]!.name}>`);
    const request = log.requests.at(-1)!;
    expect(request.model.id).toBe('svc-agent');
    expect(request.messages).toEqual([{ role: 'user', content: 'What did the Fed decide?' }]);
    expect(request.idempotencyKey).toMatch(/^svc:slack:command:T0TEAM:trigger-\d+@\d+$/);
    // The status line was the first thing in the thread, then became the answer.
    const [root] = h!.slack.rootMessages(CHANNEL);
    const firstPost = h!.slack.callsOf('chat.postMessage').find((c) => c.args.thread_ts === root!.ts)!;
    expect(firstPost.args.text).toMatch(/^:hourglass_flowing_sand: Researching your question… \(0:00\)/);
  });

  it('acknowledges before the answer exists', async () => {
    await start();
    const res = await h!.command('ask feed: slow question');
    expect(res.status).toBe(200); // the agent has not said a word yet
    await h!.until(() => expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(1));
    log.feed.text('Eventually');
    log.feed.done();
    await h!.until(() => expect(shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[0]!.ts)).toEqual(['Eventually']));
  });

  it('rejects requests that are not signed by Slack', async () => {
    await start();
    const res = await fetch(h!.eventsUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'command=/svc&text=ask+hi' });
    expect(res.status).toBe(401);
    expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(0);
  });

  it('a question quoting Markdown links to !channel or a user comes back as text, not as an @channel or a mention', async () => {
    await start();
    await h!.command('ask is there a market on [x](!channel) or [you](@U0ANA) or [g](!subteam^S0TEAM)?');
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      expect(shownTexts(h!.slack, root!.ts)).toEqual([`Answer to "is there a market on [x](!channel) or [you](@U0ANA) or [g](!subteam^S0TEAM)?" [1].${SLACK_FOOTER}`]);
    });
    const sent = h!.slack.calls.filter((c) => c.method.startsWith('chat.')).map((c) => String(c.args.text ?? ''));
    expect(sent.filter((t) => /<[!@#]/.test(t.replace(`<@${USER}> asked`, '')))).toEqual([]);
  });

  it('rejects a correctly signed request dated more than five minutes ahead (replay guard both ways), accepts one dated now', async () => {
    await start();
    const now = Math.floor(Date.now() / 1000);
    expect((await h!.command('help', { triggerId: 'future', timestamp: now + 3600 })).status).toBe(401);
    expect((await h!.command('help', { triggerId: 'past', timestamp: now - 3600 })).status).toBe(401);
    expect((await h!.command('help', { triggerId: 'skewed', timestamp: now + 240 })).status).toBe(200);
    expect((await h!.command('help', { triggerId: 'now', timestamp: now })).status).toBe(200);
    await h!.until(() => expect(h!.slack.responses).toHaveLength(2));
    await h!.quiet();
    expect(h!.slack.http.requests.map((r) => r.path).filter((p) => p.startsWith('/response/')).sort()).toEqual(['/response/now', '/response/skewed']);
  });

  it('answers /svc help privately', async () => {
    await start();
    await h!.command('help', { triggerId: 'help-1' });
    await h!.until(() => expect(h!.slack.responses).toHaveLength(1));
    expect(h!.slack.responses[0]).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('/svc ask &lt;question&gt;') });
    expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(0);
  });
});

describe('Slack: reports', () => {
  it('/svc report streams the report, tables readable, sources numbered', async () => {
    await start();
    await h!.command('report <https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec>');
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      expect(root?.text).toBe(`<@${USER}> asked for a report on <https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec|Fed meeting (KXFEDDECISION-25DEC)>`);
      const [answer] = shownTexts(h!.slack, root!.ts);
      expect(answer).toContain('*Report for fed-meeting*');
      expect(answer).toContain('```\nOutcome | Model | Market\n--------+-------+-------\nYes     |   62% |    55%');
      expect(answer).toContain('The market underprices _Yes_ [1][2].');
      expect(answer!.endsWith(citationFooter(CITATIONS, 'slack'))).toBe(true);
    });
    const request = log.requests.at(-1)!;
    expect(request.model.id).toBe('svc-prediction-markets-agent');
    expect(request.model.variant).toBeNull();
    expect(request.messages).toEqual([{ role: 'user', content: 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec' }]);
  });

  it('a mention with a Kalshi link gets the report in the message thread', async () => {
    await start();
    const m = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> what about <https://KALSHI.com/markets/kxcpi/cpi-print/kxcpi-26jan?ref=x|this one>`);
    await h!.event({ type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, m.ts).join('')).toContain('*Report for cpi-print*'));
    expect(log.requests.at(-1)!.messages[0]!.content).toBe('https://kalshi.com/markets/kxcpi/cpi-print/kxcpi-26jan');
  });

  it('a question beside a Kalshi link is answered by the research agent, with the link in it, not replaced by a report', async () => {
    await start();
    const m = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> is <https://kalshi.com/markets/kxcpi/cpi-print/kxcpi-26jan|this one> underpriced against last month?`);
    await h!.event({ type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, m.ts).join('')).toContain('Answer to'));
    const request = log.requests.at(-1)!;
    expect(request.model.id).toBe('svc-agent');
    expect(request.messages.at(-1)!.content).toMatch(/^is .*https:\/\/kalshi\.com\/markets\/kxcpi\/cpi-print\/kxcpi-26jan.* underpriced against last month\?$/);
  });

  it('splits a 15,000-character answer over thread messages without losing a character', async () => {
    await start();
    await h!.command('ask give me the long answer');
    let texts: string[] = [];
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      texts = shownTexts(h!.slack, root!.ts);
      expect(texts.at(-1)).toContain('*Sources*');
    }, 30_000);
    const expected = toMrkdwn(longReport(15_000, 'Long answer')) + LONG_FOOTER;
    expect(texts.length).toBeGreaterThanOrEqual(5);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(3500);
    expect(withoutFenceLines(texts.join(''))).toBe(withoutFenceLines(expected));
    // Code blocks are closed at the end of a message and reopened in the next one.
    for (const t of texts) expect((t.match(/^```/gm) ?? []).length % 2).toBe(0);
  });
});

describe('Slack: thread follow-ups', () => {
  it('a reply in the thread carries the earlier turns, in order', async () => {
    await start();
    await h!.command('ask first question');
    let rootTs = '';
    await h!.until(() => {
      rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
      expect(shownTexts(h!.slack, rootTs)).toHaveLength(1);
      expect(shownTexts(h!.slack, rootTs)[0]).toContain('Sources');
    });
    const reply = h!.slack.addUserMessage(CHANNEL, USER, 'and the *second* one?', rootTs);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: reply.text, ts: reply.ts, thread_ts: rootTs, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, rootTs)).toHaveLength(2));
    const followUp = log.requests.at(-1)!;
    expect(followUp.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(followUp.messages[0]!.content).toBe('first question');
    // The answer as the service wrote it, not as Slack shows it (no mrkdwn, no sources footer).
    expect(followUp.messages[1]!.content).toBe('Answer to "first question" [1].');
    expect(followUp.messages[2]!.content).toBe('and the *second* one?');
    // The bot saw this thread from its start: its turns are recorded, Slack's history is not read.
    expect(h!.slack.callsOf('conversations.replies')).toHaveLength(0);
  });

  it('follow-ups keep every turn under the history limit of non-Marketplace apps, with the service\'s own text', async () => {
    await start();
    h!.slack.limits = { 'conversations.replies': { count: 1, perMs: 60_000 } };
    await h!.command('ask S&P 500 > 5,000 <soon>?');
    let rootTs = '';
    await h!.until(() => {
      rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
      expect(shownTexts(h!.slack, rootTs)[0]).toContain('Sources');
    });
    const asked = ['and in March?', 'and in June?', 'and next year?'];
    for (const [i, text] of asked.entries()) {
      const reply = h!.slack.addUserMessage(CHANNEL, USER, text, rootTs);
      await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: reply.text, ts: reply.ts, thread_ts: rootTs, channel: CHANNEL });
      // The next reply comes at once: it waits for this answer, so its context has it.
      await h!.until(() => expect(shownTexts(h!.slack, rootTs)).toHaveLength(i + 2));
    }
    await h!.until(() => expect(shownTexts(h!.slack, rootTs)[asked.length]).toContain('Sources'));
    const last = log.requests.at(-1)!.messages;
    expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(last[0]!.content).toBe('S&P 500 > 5,000 <soon>?');
    expect(last[1]!.content).toBe('Answer to "S&P 500 > 5,000 <soon>?" [1].');
    expect(last.filter((m) => m.role === 'user').map((m) => m.content).slice(1)).toEqual(asked);
    expect(h!.slack.callsOf('conversations.replies')).toHaveLength(0);
  });

  it('a thread it joined midway is read from Slack; when Slack refuses, the turns recorded here are used', async () => {
    await start();
    const root = h!.slack.addUserMessage(CHANNEL, USER, 'earlier chatter about the Fed');
    const mention = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> what did the Fed decide?`, root.ts);
    await h!.event({ type: 'app_mention', user: USER, text: mention.text, ts: mention.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, root.ts)[0]).toContain('Sources'));
    await h!.quiet();
    expect(log.requests.at(-1)!.messages.map((m) => m.content)).toEqual(['earlier chatter about the Fed', 'what did the Fed decide?']);
    expect(h!.slack.callsOf('conversations.replies')).toHaveLength(1);
    // A thread of people it was called into is not the bot's: a reply there without a mention is theirs.
    const chatter = h!.slack.addUserMessage(CHANNEL, USER, 'ok, see you at 12', root.ts);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: chatter.text, ts: chatter.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.quiet();
    expect(log.requests).toHaveLength(1);
    h!.slack.fail('conversations.replies', 'ratelimited');
    const reply = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> and why?`, root.ts);
    await h!.event({ type: 'app_mention', user: USER, text: reply.text, ts: reply.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, root.ts)).toHaveLength(2));
    expect(log.requests.at(-1)!.messages.map((m) => m.content)).toEqual(['what did the Fed decide?', 'Answer to "what did the Fed decide?" [1].', 'and why?']);
  });

  it('a message with two Kalshi links: a follow-up in that thread carries both reports', async () => {
    await start();
    const a = 'https://kalshi.com/markets/kxfed/fed-one/kxfed-25dec';
    const b = 'https://kalshi.com/markets/kxcpi/cpi-two/kxcpi-25dec';
    const m = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> compare <${a}> and <${b}>`);
    await h!.event({ type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(shownTexts(h!.slack, m.ts).filter((t) => t.includes('Sources'))).toHaveLength(2));
    await h!.quiet();
    const reply = h!.slack.addUserMessage(CHANNEL, USER, 'which one is more mispriced?', m.ts);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: reply.text, ts: reply.ts, thread_ts: m.ts, channel: CHANNEL });
    await h!.until(() => expect(log.requests).toHaveLength(3));
    const turns = log.requests.at(-1)!.messages;
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[0]!.content).toBe(`${a}\n${b}`);
    expect(turns[1]!.content).toContain('Report for fed-one');
    expect(turns[1]!.content).toContain('Report for cpi-two');
  });

  it('a thread joined midway with more than one page of messages (15 for non-Marketplace apps) keeps the start it could read when the next page is refused', async () => {
    await start();
    h!.slack.limits = { 'conversations.replies': { count: 1, perMs: 60_000 } };
    h!.slack.repliesPageSize = 15;
    const root = h!.slack.addUserMessage(CHANNEL, USER, 'thread about the December Fed meeting');
    for (let i = 0; i < 20; i++) h!.slack.addUserMessage(CHANNEL, USER, `chatter ${i}: the Fed will cut`, root.ts);
    const mention = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> what do you think?`, root.ts);
    await h!.event({ type: 'app_mention', user: USER, text: mention.text, ts: mention.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(log.requests).toHaveLength(1));
    expect(h!.slack.callsOf('conversations.replies').map((c) => c.status)).toEqual([200, 429]);
    const context = log.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(context).toContain('December Fed meeting');
    expect(context).toContain('chatter 13');
    expect(log.requests[0]!.messages.at(-1)!.content).toBe('what do you think?');
  });

  it("a thread joined midway gives the bot's earlier answers as it wrote them: lines kept, links as text, without the sources list or a warning note", async () => {
    await start();
    const root = h!.slack.addUserMessage(CHANNEL, USER, 'what did Apple earn?');
    h!.slack.addUserMessage(CHANNEL, BOT_USER, 'Apple earned *$94.0 billion* [1].\n| a | b |\nsee <https://example.com/10q|the 10-Q> &amp; more\n\n*Sources*\n[1] <https://example.com/10q|Apple 10-Q>', root.ts);
    h!.slack.addUserMessage(CHANNEL, BOT_USER, '[2] <https://example.com/8k|Apple 8-K>', root.ts);
    h!.slack.addUserMessage(CHANNEL, BOT_USER, 'A second answer.\n\n:warning: The answer was cut off.', root.ts);
    const mention = h!.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> and the quarter before?`, root.ts);
    await h!.event({ type: 'app_mention', user: USER, text: mention.text, ts: mention.ts, thread_ts: root.ts, channel: CHANNEL });
    await h!.until(() => expect(log.requests).toHaveLength(1));
    expect(log.requests[0]!.messages).toEqual([
      { role: 'user', content: 'what did Apple earn?' },
      { role: 'assistant', content: 'Apple earned *$94.0 billion* [1].\n| a | b |\nsee the 10-Q (https://example.com/10q) & more\n\nA second answer.' },
      { role: 'user', content: 'and the quarter before?' },
    ]);
  });

  it('ignores replies in threads it never answered in, and its own messages', async () => {
    await start();
    const other = h!.slack.addUserMessage(CHANNEL, USER, 'unrelated');
    const reply = h!.slack.addUserMessage(CHANNEL, USER, 'chatter', other.ts);
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: reply.text, ts: reply.ts, thread_ts: other.ts, channel: CHANNEL });
    await h!.event({ type: 'message', channel_type: 'channel', user: BOT_USER, bot_id: 'B0BOT', text: 'my own', ts: h!.slack.nextTs(), channel: CHANNEL });
    await h!.event({ type: 'message', channel_type: 'channel', user: USER, text: 'no mention, no thread', ts: h!.slack.nextTs(), channel: CHANNEL });
    await h!.sentinel();
    expect(log.requests.map((r) => r.messages.at(-1)!.content)).toEqual([expect.stringMatching(/^sentinel/)]);
    expect(h!.slack.messages.filter((m) => m.channel === CHANNEL && m.user === BOT_USER)).toHaveLength(0);
  });
});

describe('Slack: retries', () => {
  it('a retried event is answered once and charged once, even after a restart', async () => {
    log = newAgentLog();
    h = await startSlackHarness({ agents: (core) => [...researchAgents(log).filter((a) => a.id !== 'svc-prediction-markets-agent'), paidReportAgent(core, log)], credits: 10 });
    const m = h.slack.addUserMessage(CHANNEL, USER, `<@${BOT_USER}> https://kalshi.com/markets/kxfed/fed/kxfed-25dec`);
    const event = { type: 'app_mention', user: USER, text: m.text, ts: m.ts, channel: CHANNEL };
    await h.event(event, { eventId: 'Ev0RETRY' });
    await h.event(event, { eventId: 'Ev0RETRY', retryNum: 1 });
    await h.until(() => expect(shownTexts(h!.slack, m.ts).join('')).toContain('Sources'));
    await h.restart();
    await h.event(event, { eventId: 'Ev0RETRY', retryNum: 2 });
    await h.sentinel();
    expect(h.slack.threadReplies(CHANNEL, m.ts)).toHaveLength(1);
    expect(log.requests.filter((r) => r.model.id === 'svc-prediction-markets-agent')).toHaveLength(1);
    expect(log.requests[0]!.idempotencyKey).toMatch(new RegExp(`^svc:slack:message:${TEAM}:${CHANNEL}:${m.ts.replace('.', '\\.')}:KXFED-25DEC@\\d+$`));
    const account = (await (await fetch(`${h.service.url}/v1/account`, { headers: { authorization: `Bearer ${h.apiKey}` } })).json()) as { credits: number };
    expect(account.credits).toBe(7);
  });
});

describe('Slack: errors reach the person', () => {
  it.each([
    ['https://kalshi.com/markets/kx/free-plan/kx-1', /needs the Plus, Pro or Enterprise plan.*`\/svc link &lt;api key&gt;`/],
    ['https://kalshi.com/markets/kx/no-credits/kx-1', /not enough credits/],
    ['https://kalshi.com/markets/kx/unknown-event/kx-1', /No Kalshi event KXNOPE\./],
  ])('%s', async (url, message) => {
    await start();
    await h!.command(`report ${url}`);
    await h!.until(() => {
      const [root] = h!.slack.rootMessages(CHANNEL);
      const [shown] = shownTexts(h!.slack, root!.ts);
      expect(shown).toMatch(/^:warning: /);
      expect(shown).toMatch(message);
    });
  });

  it.each([
    ['ask What did the Fed decide?', 'not_in_channel', /^I cannot post in this channel yet: invite me with `\/invite @svc`/],
    ['ask What did the Fed decide?', 'restricted_action', /^I am not allowed to post in this channel \(only some members may post here, as in an announcement channel\).*direct message/],
    ['report https://kalshi.com/markets/kxfed/fed/kxfed-25dec', 'is_archived', /^This channel is archived, so I cannot post in it.*direct message/],
    ['ask What did the Fed decide?', 'missing_scope', /^Slack refused my message in this channel \(error `missing_scope`\), so I could not start your answer/],
  ])('/svc %s in a channel where posting fails with %s: the person is told why, privately', async (text, error, message) => {
    await start();
    h!.slack.fail('chat.postMessage', error);
    await h!.command(text, { triggerId: `refused-${error}` });
    await h!.until(() => expect(h!.slack.responses).toHaveLength(1));
    expect(h!.slack.responses[0]).toMatchObject({ response_type: 'ephemeral', text: expect.stringMatching(message) });
    await h!.quiet();
    expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(0);
    expect(log.requests).toHaveLength(0);
  });

  it('a /svc report without a Kalshi event link is answered privately', async () => {
    await start();
    await h!.command('report https://example.com/not-kalshi');
    await h!.until(() => expect(h!.slack.responses[0]?.text).toMatch(/not a Kalshi event link/));
    expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(0);
  });

  it('a broken stream keeps its text and says it was interrupted', async () => {
    await start();
    await h!.command('ask please break');
    await h!.until(() => {
      const [shown] = shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[0]!.ts);
      expect(shown).toMatch(/^The first half of the answer\n\n:warning: The answer was interrupted before it finished: /);
    });
  });

  it.each([
    // The answer's trailing space is dropped: the note follows one blank line after it.
    ['an answer cut short by a shutdown says so', 'Some text before the restart. ', 'Some text', 'Some text before the restart.'],
    ['an answer cut short inside a code block closes it before saying so', 'The query:\n```\nSELECT 1', 'SELECT 1', 'The query:\n```\nSELECT 1\n```'],
  ])('%s', async (_name, fed, seen, shown) => {
    await start();
    await h!.command('ask feed: never finishes');
    await h!.until(() => expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(2)); // root, status line
    log.feed.text(fed);
    await h!.until(() => expect(shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[0]!.ts)[0]).toContain(seen));
    await h!.bot.stop(50);
    expect(shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[0]!.ts)).toEqual([
      `${shown}\n\n:warning: The answer was interrupted before it finished: The bot was restarted before this answer was finished. Please ask again.`,
    ]);
  });

  it('says when the service cannot be reached', async () => {
    await start({ apiUrl: 'http://127.0.0.1:9' });
    await h!.command('ask anything');
    await h!.until(() => {
      const [shown] = shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[0]!.ts);
      expect(shown).toBe(':warning: The research service cannot be reached right now. Please try again in a few minutes.');
    });
  });
});

describe('Slack: native streaming', () => {
  const MD_FOOTER = citationFooter(CITATIONS.slice(0, 1), 'markdown');

  it('streams with chat.startStream, appendStream and stopStream, and removes the status message', async () => {
    await start({ nativeStreaming: true });
    await h!.command('ask feed: native pieces');
    await h!.until(() => expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(2)); // root, status line
    const rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
    log.feed.text('First part of the answer. ');
    await h!.until(() => expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1));
    expect(h!.slack.callsOf('chat.startStream')[0]!.args).toMatchObject({ channel: CHANNEL, thread_ts: rootTs, recipient_user_id: USER, recipient_team_id: TEAM, markdown_text: 'First part of the answer. ' });
    log.feed.text('Second part. ');
    await h!.until(() => expect(h!.slack.callsOf('chat.appendStream')).toHaveLength(1));
    log.feed.text('Third [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h!.until(() => expect(h!.slack.threadReplies(CHANNEL, rootTs)[0]?.streaming).toBe(false));
    await h!.quiet();
    const [streamed, ...others] = h!.slack.threadReplies(CHANNEL, rootTs);
    expect(others).toHaveLength(0);
    expect(streamed!.markdown).toBe(`First part of the answer. Second part. Third [1].${MD_FOOTER}`);
    expect(MD_FOOTER).toBe(`\n\n**Sources**\n[1] [${CITATIONS[0]!.name}](${CITATIONS[0]!.url})`);
    expect(h!.slack.callsOf('chat.delete')).toHaveLength(1); // the status line
    expect(h!.slack.callsOf('chat.update')).toHaveLength(0);
  });

  it('an answer that starts streaming before the status line got its slot never posts the status line', async () => {
    // Slack's own rates: a second post in the channel waits a second for its slot.
    await start({ nativeStreaming: true, rateBudgets: true });
    await h!.command('ask quick');
    await h!.until(() => expect(h!.slack.callsOf('chat.stopStream')).toHaveLength(1));
    // The status line's post slot comes a second after the root's: past it, nothing more is posted.
    await new Promise((r) => setTimeout(r, 1300));
    await h!.quiet();
    expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(1); // the root only
    expect(h!.slack.callsOf('chat.delete')).toHaveLength(0);
  });

  it('streamed Markdown cannot reach people: <!channel>, [x](!here) and [u](@U1) arrive as lookalikes, split anywhere', async () => {
    await start({ nativeStreaming: true });
    await h!.command('ask feed: native mentions');
    await h!.until(() => expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(2));
    const rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
    log.feed.text('Tell <');
    await h!.until(() => expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1));
    log.feed.text('!channel> and [x](');
    await h!.until(() => expect(h!.slack.callsOf('chat.appendStream')).toHaveLength(1));
    log.feed.text('!here) and [u](@U1) [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h!.until(() => expect(h!.slack.threadReplies(CHANNEL, rootTs)[0]?.streaming).toBe(false));
    await h!.quiet();
    const [streamed] = h!.slack.threadReplies(CHANNEL, rootTs);
    expect(streamed!.markdown).toBe(`Tell <！channel> and [x](！here) and [u](＠U1) [1].${MD_FOOTER}`);
    const sent = h!.slack.calls.filter((c) => c.method.endsWith('Stream')).map((c) => String(c.args.markdown_text ?? '')).join('');
    expect(sent).not.toMatch(/<[!@#]|\]\([!@#]/);
  });

  it('continues a long answer in further streamed messages under the size limit, nothing lost', async () => {
    await start({ nativeStreaming: true });
    await h!.command('ask the long answer please');
    let rootTs = '';
    await h!.until(() => {
      rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
      const streams = h!.slack.threadReplies(CHANNEL, rootTs);
      expect(streams.length).toBeGreaterThanOrEqual(2);
      expect(streams.every((m) => m.streaming === false)).toBe(true);
      expect(streams.at(-1)!.markdown).toContain('**Sources**');
    }, 30_000);
    const streams = h!.slack.threadReplies(CHANNEL, rootTs);
    for (const m of streams) expect(m.markdown!.length).toBeLessThanOrEqual(12_000);
    const expected = convertTables(longReport(15_000, 'Long answer')) + citationFooter(CITATIONS, 'markdown');
    expect(withoutFenceLines(streams.map((m) => m.markdown).join(''))).toBe(withoutFenceLines(expected));
    for (const m of streams) expect((m.markdown!.match(/^```/gm) ?? []).length % 2).toBe(0);
  });

  it('falls back to post and chat.update on feature_not_enabled, and stops trying for the process', async () => {
    await start({ nativeStreaming: true });
    h!.slack.fail('chat.startStream', 'feature_not_enabled');
    await h!.command('ask first');
    await h!.until(() => expect(shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[0]!.ts)).toEqual([`Answer to "first" [1].${SLACK_FOOTER}`]));
    await h!.command('ask second');
    await h!.until(() => expect(shownTexts(h!.slack, h!.slack.rootMessages(CHANNEL)[1]?.ts ?? '')).toEqual([`Answer to "second" [1].${SLACK_FOOTER}`]));
    expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1);
    expect(h!.slack.callsOf('chat.update').length).toBeGreaterThan(0);
  });

  /** A native stream whose appends fail with `error` after its first part: the rest is posted. Its root message's ts. */
  const streamCutBy = async (...errors: string[]): Promise<string> => {
    await start({ nativeStreaming: true });
    h!.slack.fail('chat.appendStream', ...errors);
    await h!.command(`ask feed: cut by ${errors[0]}`);
    await h!.until(() => expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(2));
    const rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
    log.feed.text('Streamed part. ');
    await h!.until(() => expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1));
    log.feed.text('Posted **part** [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h!.until(() => expect(shownTexts(h!.slack, rootTs).at(-1)).toContain('Sources'));
    await h!.quiet();
    expect(shownTexts(h!.slack, rootTs)).toEqual(['Streamed part. ', `Posted *part* [1].${SLACK_FOOTER}`]);
    return rootTs;
  };

  it('continues in posted messages when Slack stops accepting a stream, keeping every character', async () => {
    await streamCutBy('message_not_in_streaming_state');
    expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1); // this message only: not latched off
  });

  it('a stream still rate-limited after waiting three times is stopped before the rest is posted: no message is left streaming', async () => {
    const rootTs = await streamCutBy('ratelimited', 'ratelimited', 'ratelimited');
    expect(h!.slack.callsOf('chat.stopStream')).toHaveLength(1);
    expect(h!.slack.threadReplies(CHANNEL, rootTs).filter((m) => m.streaming)).toEqual([]);
  });

  it('a rate limit with a Retry-After is waited out and the stream goes on in the same message', async () => {
    await start({ nativeStreaming: true });
    h!.slack.fail('chat.appendStream', { status: 429, retryAfter: 1 });
    await h!.command('ask feed: rate-limited once');
    await h!.until(() => expect(h!.slack.callsOf('chat.postMessage')).toHaveLength(2));
    const rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
    log.feed.text('Streamed part. ');
    await h!.until(() => expect(h!.slack.callsOf('chat.startStream')).toHaveLength(1));
    log.feed.text('Still **streamed** [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await h!.until(() => expect(h!.slack.callsOf('chat.stopStream')).toHaveLength(1), 5000);
    await h!.quiet();
    expect(h!.slack.callsOf('chat.appendStream').map((c) => c.status)).toContain(429);
    expect(shownTexts(h!.slack, rootTs)).toEqual([`Streamed part. Still **streamed** [1].${MD_FOOTER}`]);
  });
});

/**
 * An answer fed in `pieces`, the fake clock moving `stepMs` after each, shown by posting and
 * editing (edits at most once a second); resolves once its message shows the whole answer.
 */
async function editedAnswer(pieces: string[], stepMs: number): Promise<{ rootTs: string; expected: string }> {
  const clock = new FakeClock(Date.now());
  await start({ clock, editIntervalMs: 1000, statusIntervalMs: 10_000 });
  // Posts and edits get their rate-budget slots from the adapter's clock: it has to move while the test waits.
  const onClock = (check: () => void) => async () => {
    await clock.advance(0);
    check();
  };
  await h!.command('ask feed: stream slowly');
  await h!.until(onClock(() => expect(h!.slack.rootMessages(CHANNEL)).toHaveLength(1)));
  const rootTs = h!.slack.rootMessages(CHANNEL)[0]!.ts;
  await h!.until(onClock(() => expect(h!.slack.threadReplies(CHANNEL, rootTs)).toHaveLength(1))); // the status line
  for (const piece of pieces) {
    log.feed.text(piece);
    await new Promise((r) => setTimeout(r, 25)); // let the delta reach the adapter
    await clock.advance(stepMs);
  }
  log.feed.done(CITATIONS.slice(0, 1));
  const expected = `${pieces.join('').trimEnd()}${SLACK_FOOTER}`;
  for (let i = 0; i < 200 && shownTexts(h!.slack, rootTs)[0] !== expected; i++) {
    await settle();
    await new Promise((r) => setTimeout(r, 10));
    await clock.advance(200);
  }
  expect(shownTexts(h!.slack, rootTs)).toEqual([expected]);
  return { rootTs, expected };
}

describe('Slack: edit rate', () => {
  it('edits a message at most once per second, with the latest text, and the final edit lands', async () => {
    const { rootTs } = await editedAnswer(Array.from({ length: 40 }, (_, i) => `piece${i} `), 150);
    const updates = h!.slack.callsOf('chat.update').filter((c) => c.args.ts === h!.slack.threadReplies(CHANNEL, rootTs)[0]!.ts);
    expect(updates.length).toBeGreaterThanOrEqual(3); // edited while streaming, not only at the end
    for (let i = 1; i < updates.length; i++) {
      expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(1000);
      expect(updates[i]!.args.text).not.toBe(updates[i - 1]!.args.text);
    }
    // Each edit showed a longer prefix of the answer than the one before.
    const shown = updates.map((u) => String(u.args.text).replace(/ :writing_hand:$/, '').replace(SLACK_FOOTER, '').trimEnd());
    for (let i = 1; i < shown.length; i++) expect(shown[i]!.startsWith(shown[i - 1]!.startsWith(':hourglass') ? '' : shown[i - 1]!)).toBe(true);
  });
});

describe('Slack: a code block still being written', () => {
  it('is shown closed in every edit, the writing mark after it, not inside', async () => {
    await editedAnswer(['Intro [1].\n\n```\n', ...Array.from({ length: 12 }, (_, i) => `line ${i} of the code\n`), '```\n\nAfter the code.'], 400);
    const updates = h!.slack.callsOf('chat.update').map((u) => String(u.args.text));
    const insideCode = updates.filter((text) => text.includes('line 0') && !text.includes('After the code'));
    expect(insideCode.length).toBeGreaterThanOrEqual(2);
    for (const text of insideCode) {
      expect(fenceAfter(`${text}\n`)).toBeNull();
      expect(text).toMatch(/\n```\n:writing_hand:$/);
    }
  });
});

describe('Slack: one rate budget for every answer', () => {
  const NAMES = ['a1', 'a2', 'a3', 'a4', 'a5'];
  const paragraph = (name: string, k: number) => `Answer ${name}, paragraph ${k}: the market moved on the news and the model followed [1].`;
  const rootOf = (name: string) => h!.slack.rootMessages(CHANNEL).find((m) => m.text.endsWith(`asked: feed ${name}: go`));
  /** What the answer's thread shows, all its messages together. */
  const shown = (name: string) => {
    const root = rootOf(name);
    return root ? shownTexts(h!.slack, root.ts).join('') : '';
  };

  /**
   * Five `/svc ask` in one channel, their answers streaming at once for 50 s of the fake clock, a
   * paragraph each per second; returns each answer's whole Markdown (before its sources).
   */
  async function streamFive(clock: FakeClock, requests: RequestsInFlight): Promise<Map<string, string>> {
    for (const name of NAMES) await h!.command(`ask feed ${name}: go`);
    const texts = new Map(NAMES.map((name) => [name, '']));
    for (let k = 0; k < 50; k++) {
      for (const name of NAMES) {
        const piece = `${k ? '\n\n' : ''}${paragraph(name, k)}`;
        texts.set(name, texts.get(name)! + piece);
        namedFeed(log, name).text(piece);
      }
      await clock.advance(1000, () => requests.drained());
    }
    for (const name of NAMES) namedFeed(log, name).done(CITATIONS.slice(0, 1));
    return texts;
  }

  it('posting and editing: five answers at once in one channel keep to 1 post/s there and 50 chat.update/min in the workspace, each arrives whole, no 429', async () => {
    const clock = new FakeClock(Date.now());
    await start({ clock, editIntervalMs: 1000, statusIntervalMs: 10_000, rateBudgets: true });
    // Slack's limits, as the adapter's defaults assume them.
    h!.slack.limits = { 'chat.postMessage': { count: 1, perMs: 1000 }, 'chat.update': { count: 50, perMs: 60_000 } };
    const requests = new RequestsInFlight(h!.slack.url);
    try {
      const texts = await streamFive(clock, requests);
      const expected = (name: string) => toMrkdwn(texts.get(name)!) + SLACK_FOOTER;
      await runClockUntil(clock, requests, () => NAMES.every((name) => shown(name) === expected(name)));

      for (const name of NAMES) {
        expect(shown(name)).toBe(expected(name));
        expect(shownTexts(h!.slack, rootOf(name)!.ts)).toHaveLength(2); // past Slack's 3,500 characters: a second message was posted
      }
      const posts = h!.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === CHANNEL);
      expect(busiestWindow(posts.map((c) => c.at), 1000)).toBe(1);
      expect(posts).toHaveLength(NAMES.length * 3); // root, status line (then the first part), second part
      const updates = h!.slack.callsOf('chat.update');
      expect(updates.length).toBeGreaterThan(50); // more than one window's worth: the budget had to spread them out
      expect(busiestWindow(updates.map((c) => c.at), 60_000)).toBeLessThanOrEqual(50);
      expect(h!.slack.calls.filter((c) => c.status === 429)).toEqual([]);
      // The answers streamed: messages were updated with text still coming, not only at the end.
      expect(updates.filter((c) => String(c.args.text).endsWith(STREAMING_MARK)).length).toBeGreaterThanOrEqual(NAMES.length);
    } finally {
      requests.close();
    }
  });

  it('native streaming: five answers at once keep to 100 chat.appendStream/min in the workspace, each arrives whole, no 429', async () => {
    const clock = new FakeClock(Date.now());
    await start({ clock, editIntervalMs: 1000, statusIntervalMs: 10_000, rateBudgets: true, nativeStreaming: true });
    const perMinute = (count: number) => ({ count, perMs: 60_000 });
    h!.slack.limits = { 'chat.postMessage': { count: 1, perMs: 1000 }, 'chat.appendStream': perMinute(100), 'chat.startStream': perMinute(20), 'chat.stopStream': perMinute(20) };
    const requests = new RequestsInFlight(h!.slack.url);
    try {
      const texts = await streamFive(clock, requests);
      const expected = (name: string) => texts.get(name)! + citationFooter(CITATIONS.slice(0, 1), 'markdown');
      const stopped = (name: string) => h!.slack.threadReplies(CHANNEL, rootOf(name)?.ts ?? '').every((m) => m.streaming === false);
      await runClockUntil(clock, requests, () => NAMES.every((name) => shown(name) === expected(name) && stopped(name)));

      for (const name of NAMES) expect(shown(name)).toBe(expected(name));
      expect(h!.slack.callsOf('chat.update')).toEqual([]); // streamed natively throughout
      const appends = h!.slack.callsOf('chat.appendStream');
      expect(appends.length).toBeGreaterThan(100); // more than one window's worth: the budget had to spread them out
      expect(busiestWindow(appends.map((c) => c.at), 60_000)).toBeLessThanOrEqual(100);
      for (const method of ['chat.startStream', 'chat.stopStream']) expect(busiestWindow(h!.slack.callsOf(method).map((c) => c.at), 60_000)).toBeLessThanOrEqual(20);
      const posts = h!.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === CHANNEL);
      expect(busiestWindow(posts.map((c) => c.at), 1000)).toBe(1);
      expect(h!.slack.calls.filter((c) => c.status === 429)).toEqual([]);
    } finally {
      requests.close();
    }
  });
});

describe('Slack: per-person billing', () => {
  it('/svc link binds a person\'s own key (stored encrypted), used for their questions; /svc unlink undoes it', async () => {
    await start();
    const own = await h!.service.account({ plan: 'plus', credits: 5, email: 'ana@example.com' });
    await h!.command(`link ${own.apiKey}`, { triggerId: 'link-1' });
    await h!.until(() => expect(h!.slack.responses[0]?.text).toMatch(/Linked: .*ana@example.com, plan \*plus\*, 5 credits/));
    expect(h!.slack.responses[0]!.response_type).toBe('ephemeral');
    const sealed = h!.store.sealedValue(`slack:${TEAM}:${USER}`)!;
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(own.apiKey);
    await h!.command('ask whose account?');
    await h!.until(() => expect(log.requests).toHaveLength(1));
    expect(log.requests[0]!.caller.accountId).toBe(own.id);
    await h!.command('unlink', { triggerId: 'unlink-1' });
    await h!.until(() => expect(h!.slack.responses[1]?.text).toMatch(/Unlinked/));
    await h!.command('ask and now?');
    await h!.until(() => expect(log.requests).toHaveLength(2));
    expect(log.requests[1]!.caller.accountId).toBe(h!.accountId);
  });

  it('refuses a key the service does not accept', async () => {
    await start();
    await h!.command('link sk-svc-not-a-key', { triggerId: 'link-bad' });
    // About the key just given: nothing is linked yet, so nothing is said of a linked key or unlinking.
    await h!.until(() => expect(h!.slack.responses[0]?.text).toBe('That key did not work, so nothing was linked. The research service does not accept that key (it may be mistyped, or revoked). Check it, or ask whoever runs svc for a key of your own.'));
    expect(h!.store.linkedKey(`slack:${TEAM}:${USER}`)).toBeNull();
  });
});
