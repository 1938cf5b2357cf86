import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aboutAnswer, aboutAsked, withoutAboutTurns } from '../../../src/agents/router/about.js';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (q: string) => (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: q }] })).choices[0]!.message.content!;
const FED = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';

describe('questions about svc itself, to svc-agent', () => {
  it('"is this financial advice?" is answered no, with where the data comes from (was: no company called "advice")', async () => {
    for (const q of ['is this financial advice?', 'Are you a financial advisor?', 'can I trust your numbers?']) {
      const text = await ask(q);
      expect(text, q).toMatch(/^No\. svc gives research, not investment advice/);
      expect(text, q).not.toMatch(/could not find a company/);
      expect(text, q).toContain('recorded 2026-11-19 15:00 UTC (synthetic demo data): offline, not live prices');
    }
  });

  it('how fresh the data is says what this server runs on: the demo snapshots and their dates (was: the help text, or a search for NYC weather)', async () => {
    for (const q of ['how fresh is your data?', 'are these prices live?', 'is the data real-time?', 'where does your data come from?', 'how often is the data updated?']) {
      const text = await ask(q);
      expect(text, q).toMatch(/^Not live: this server answers offline, from recorded snapshots\./);
      expect(text, q).toContain('- **Prediction markets**: prices come from a snapshot of Kalshi recorded 2026-11-19 15:00 UTC');
      expect(text, q).toContain('- **Company figures**: from a demo snapshot of SEC EDGAR recorded 2025-05-15 (illustrative figures)');
    }
  });

  it('"who made you?" says what svc-agent is, not the help text', async () => {
    for (const q of ['who made you?', 'are you chatgpt?', 'what are you?']) {
      const text = await ask(q);
      expect(text, q).toMatch(/^I am `svc-agent`, the router of svc, a self-hosted Agent Research API/);
      expect(text, q).toContain('No language model writes these answers here');
    }
  });

  it('leaves a report thread where it was: the next follow-up is of the report, not of the answer about svc (which read as a thread on filings)', async () => {
    const next = await demo.thread(FED);
    expect(await next('is this financial advice?')).toMatch(/^No\. svc gives research/);
    expect(await next('are these prices live?')).toMatch(/^Not live:/);
    const edge = await next("what's the edge on hike?");
    expect(edge).not.toMatch(/could not find a company/);
    expect(edge).toContain('**Hike 25bps**: market 51.5%');
    expect(edge).toContain('From the stored report on **Fed decision in December 2026?**');
  });
});

describe('aboutAsked and aboutAnswer', () => {
  it('reads questions of svc, and leaves questions of companies and markets to the other routes', () => {
    expect(aboutAsked('is this investment advice?')).toBe('advice');
    expect(aboutAsked('when was your data last updated?')).toBe('freshness');
    expect(aboutAsked('are the quotes real time?')).toBe('freshness');
    expect(aboutAsked('who built you?')).toBe('identity');
    for (const q of ['is the fed market live?', 'are the odds of a fed cut current?', 'should I buy Apple?', "what's Apple's revenue?", 'how fresh is the CPI print?', 'who is favoured in the Chiefs game?']) {
      expect(aboutAsked(q), q).toBeNull();
    }
  });

  it('says live sources as live, with how often the open-events list is read again', () => {
    const live = { kalshi: { mode: 'live' as const, recordedAt: null }, sec: { mode: 'live' as const, recordedAt: null, demo: false }, searchRefreshMs: 300_000, llm: true };
    const text = aboutAnswer('freshness', live).text;
    expect(text).toMatch(/^Live: this server reads its data from the sources when you ask\./);
    expect(text).toContain("prices are read live from Kalshi's public Trade API when you ask (the list of open events a search looks through is read again every 5 minutes)");
    expect(text).toContain("read from SEC EDGAR (the companies' XBRL financial data and their filings) when you ask");
    const mixed = aboutAnswer('freshness', { ...live, sec: { mode: 'snapshot', recordedAt: new Date('2025-05-15T00:00:00Z'), demo: false } }).text;
    expect(mixed).toMatch(/^Partly live/);
    expect(mixed).toContain('from a snapshot of SEC EDGAR recorded 2025-05-15: offline');
    expect(aboutAnswer('identity', live).text).toContain('A language model helps route questions and phrase answers here');
  });

  it('drops exchanges about svc from a conversation, and keeps the rest as it was', () => {
    const turns = [
      { role: 'user' as const, content: FED },
      { role: 'assistant' as const, content: '# Fed decision in December 2026?' },
      { role: 'user' as const, content: 'is this financial advice?' },
      { role: 'assistant' as const, content: 'No. svc gives research, not investment advice: …' },
      { role: 'user' as const, content: 'edge on hike?' },
    ];
    expect(withoutAboutTurns(turns)).toEqual([turns[0], turns[1], turns[4]]);
    const plain = turns.slice(0, 2);
    expect(withoutAboutTurns(plain)).toBe(plain);
  });
});
