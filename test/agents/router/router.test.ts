import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventUrl } from '../../fixtures/kalshi-world.js';
import { startFakeKalshi, type FakeKalshi } from '../../helpers/fake-kalshi.js';
import { pinnedMarketAgents } from '../../helpers/market-agents.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post, readSse } from '../../helpers/sse.js';

let fake: FakeKalshi;
let svc: TestService;

beforeAll(async () => {
  fake = await startFakeKalshi();
  svc = await startService({
    env: { SVC_KALSHI_API_URL: fake.apiUrl },
    agents: pinnedMarketAgents,
  });
});
afterAll(async () => {
  await svc.close();
  await fake.close();
});

const urlOf = (series: string) => eventUrl(fake.world, fake.world.openEvents.find((t) => t.startsWith(`${series}-`))!);
const textOf = (r: any) => r.output[0].content[0].text as string;

describe('svc-agent (router)', () => {
  it('answers an odds question with the matching open events, their prices and links', async () => {
    const { apiKey } = await svc.account();
    const r = await new OpenAI({ baseURL: svc.baseURL, apiKey }).responses.create({ model: 'svc-agent', input: 'what are the odds of a Fed cut in December?' });
    const text = r.output_text;
    expect(text).toMatch(/^Open Kalshi events matching “what are the odds of a Fed cut in December\?”/);
    expect(text).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [1]');
    // The outcomes the question names come first, in bold, and exclusive ones add up.
    expect(text).toMatch(/\[1\]: \*\*Cut more than 25bps (\d+\.\d)%\*\*; \*\*Cut 25bps (\d+\.\d)%\*\*; /);
    const [, more, quarter] = /\*\*Cut more than 25bps (\d+\.\d)%\*\*; \*\*Cut 25bps (\d+\.\d)%\*\*/.exec(text)!;
    // Their prices add up to more than 100% with the others (the exchange's edge): the sum is also said normalised.
    expect(text).toMatch(new RegExp(`Together, “Cut more than 25bps” and “Cut 25bps”: about ${(Number(more) + Number(quarter)).toFixed(1)}% \\(\\d+\\.\\d% normalised\\)\\.`));
    const ann = (r.output[0] as any).content[0].annotations;
    expect(ann[0].url).toBe('https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec');
  });

  it('reads slang and filler around a topic: "yo … lol", "lakers celts", "whos the dog and by how much"', async () => {
    const { apiKey } = await svc.account();
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
    expect((await client.responses.create({ model: 'svc-agent', input: 'yo whats the odds the fed cuts in dec lol' })).output_text).toMatch(/^Open Kalshi events matching “yo whats the odds the fed cuts in dec lol”, with current prices/);
    const game = await client.responses.create({ model: 'svc-agent', input: 'lakers vs celts who u got' });
    expect(game.output_text).toContain('KXNBAGAME-');
    const dog = (await client.responses.create({ model: 'svc-agent', input: 'whos the dog and by how much', previous_response_id: game.id })).output_text;
    expect(dog).toMatch(/The market's underdog is “(?:Home|Away) team \((?:Celtics|Lakers)\)” at \d+\.\d%, \d+\.\d points behind the favourite, “(?:Home|Away) team \((?:Celtics|Lakers)\)” at \d+\.\d%\./);
  });

  it('outcomes named by their labels on each side of an "or" are added up, no other outcome marked', async () => {
    const { apiKey } = await svc.account();
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
    const first = await client.responses.create({ model: 'svc-agent', input: 'presidential approval odds' });
    const text = (await client.responses.create({ model: 'svc-agent', input: 'below 41% or 41% to 42%?', previous_response_id: first.id })).output_text;
    const line = text.split('\n').find((l) => l.includes('KXAPPROVAL'))!;
    const [below, next] = [Number(/\*\*Below 41% (\d+\.\d)%\*\*/.exec(line)![1]), Number(/\*\*41% to 42% (\d+\.\d)%\*\*/.exec(line)![1])];
    expect(line).toMatch(new RegExp(`Together, “Below 41%” and “41% to 42%”: about ${(below + next).toFixed(1)}%`));
    expect(line).not.toMatch(/\*\*42% to 43%/);
  });

  it("the expected size of a rate move, from a rate decision's prices", async () => {
    const { apiKey } = await svc.account();
    const text = (await new OpenAI({ baseURL: svc.baseURL, apiKey }).responses.create({ model: 'svc-agent', input: 'whats the expected size of the fed move in december' })).output_text;
    expect(text).toMatch(/^Open Kalshi events matching/);
    expect(text).toMatch(/KXFEDDECISION-26DEC[^\n]* On these prices, normalised to add up to 100%, the expected change in the rate is about [−+]?\d+\.\d bps: a cut of any size \d+\.\d% \(about \d+ bps if there is one\), a hike of any size \d+\.\d% \(about 25 bps if there is one\)/);
  });

  it('lists a ladder of strikes in the order of its levels; "inflation" finds CPI, not every price', async () => {
    const { apiKey } = await svc.account();
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
    const btc = (await client.responses.create({ model: 'svc-agent', input: 'bitcoin price odds' })).output_text;
    const levels = [...btc.split('\n').find((l) => l.includes('KXBTCD'))!.matchAll(/Above \$([\d,]+) \d/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
    expect(levels.length).toBeGreaterThan(2);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    // A game's "Away team" and "Home team" are named by the teams of its title, and found by them.
    const bills = (await client.responses.create({ model: 'svc-agent', input: 'what are the odds the Bills win on Sunday?' })).output_text;
    expect(bills).toMatch(/\[1\]: \*\*Away team \(Bills\) \d+\.\d%\*\*; Home team \(Chiefs\) \d+\.\d%/);
    const inflation = (await client.responses.create({ model: 'svc-agent', input: 'markets on inflation' })).output_text;
    expect(inflation).toContain('KXCPIYOY');
    expect(inflation).not.toContain('KXBTCD');
  });

  it("a '[1]' the caller typed is quoted back without taking the place of the citation marker", async () => {
    const { apiKey } = await svc.account();
    const r = await new OpenAI({ baseURL: svc.baseURL, apiKey }).responses.create({ model: 'svc-agent', input: 'what are the odds of a Fed cut [1] in December?' });
    const text = r.output_text;
    expect(text).toMatch(/^Open Kalshi events matching “what are the odds of a Fed cut \[1\\\] in December\?”/);
    const ann = (r.output[0] as any).content[0].annotations;
    expect(text.slice(ann[0].start_index, ann[0].end_index)).toBe('[1]');
    expect(ann[0].start_index).toBe(text.indexOf('KXFEDDECISION-26DEC, Economics) [1]') + 'KXFEDDECISION-26DEC, Economics) '.length);
  });

  it('says plainly when no open event matches', async () => {
    const { apiKey } = await svc.account();
    const r = await new OpenAI({ baseURL: svc.baseURL, apiKey }).responses.create({ model: 'svc-markets-search-agent', input: 'odds of a volcanic eruption in iceland' });
    expect(r.output_text).toMatch(/^No open Kalshi event matches/);
    expect((r.output[0] as any).content[0].annotations).toEqual([]);
  });

  it('quotes a question back without making a link of Markdown it holds', async () => {
    const { apiKey } = await svc.account();
    const r = await new OpenAI({ baseURL: svc.baseURL, apiKey }).responses.create({ model: 'svc-markets-search-agent', input: 'odds of [click here](https://evil.example/phish) winning [2]' });
    expect(r.output_text).toContain('“odds of [click here] (https://evil.example/phish) winning [2\\]”');
    expect(r.output_text).not.toContain('](');
  });

  it('for a Kalshi address without a stored report: a free live summary naming the model that generates one', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: `please look at ${urlOf('KXSEAICE')}` });
    expect(res.status).toBe(200);
    const text = textOf(await res.json());
    expect(text).toContain('Current prices, as of 2026-11-19 15:00 UTC [2]');
    expect(text).toContain('`svc-prediction-markets-agent`');
    expect((await svc.service.deps.accounts.getAccount(id)).credits).toBe(10);
    expect(await svc.service.deps.reports.versions('KXSEAICE-26DEC')).toEqual([]);
  });

  it("with no report stored, the series' record answers what happened before: the previous event, a month's, how often an outcome won", async () => {
    const { apiKey } = await svc.account();
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
    // The fake's settled markets grouped by event, newest first: what the answers must say.
    const pastOf = (series: string) => {
      const byEvent = new Map<string, { ticker: string; closed: string; won: string[] }>();
      for (const m of fake.world.settled.get(series)!) {
        const e = byEvent.get(m.event_ticker) ?? { ticker: m.event_ticker, closed: '', won: [] };
        if (m.close_time! > e.closed) e.closed = m.close_time!;
        if (m.result === 'yes') e.won.push(m.yes_sub_title!);
        byEvent.set(m.event_ticker, e);
      }
      return [...byEvent.values()].sort((a, b) => b.closed.localeCompare(a.closed));
    };
    const cpi = pastOf('KXCPIYOY');
    const printed = await client.responses.create({ model: 'svc-agent', input: 'what did CPI print last month?' });
    expect(printed.output_text).toContain(`The previous event of the series, **${cpi[0]!.ticker}** (closed ${cpi[0]!.closed.slice(0, 10)}): `);
    expect(printed.output_text).toContain(`Before it:\n\n- ${cpi[1]!.ticker} (closed ${cpi[1]!.closed.slice(0, 10)})`);
    expect(printed.output_text).toContain('No report is stored for KXCPIYOY-26DEC');
    expect((printed.output[0] as any).content[0].annotations[0].url).toBe(`${fake.apiUrl}/markets?series_ticker=KXCPIYOY&status=settled`);

    const fed = pastOf('KXFEDDECISION');
    const holds = fed.filter((e) => e.won.includes('Hold')).length;
    const often = (await client.responses.create({ model: 'svc-agent', input: 'how often does the Fed hold?' })).output_text;
    expect(often).toMatch(new RegExp(`^\\*\\*Hold\\*\\* resolved YES in ${holds} of the ${fed.length} settled events of the KXFEDDECISION series \\[1\\]\\.`));

    // A month named, beside the event's address.
    const payrolls = pastOf('KXPAYROLLS');
    const month = new Date(payrolls[1]!.closed).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
    const then = textOf(await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: `${urlOf('KXPAYROLLS')} what happened in ${month}?` })).json());
    expect(then).toContain(`The ${month} event of the series, **${payrolls[1]!.ticker}**`);
    expect(await svc.service.deps.reports.versions('KXPAYROLLS-26DEC')).toEqual([]);
  });

  it('svc-prediction-markets-agent: the one address in a sentence is the event asked; a turn without one continues the conversation about its report, free', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
    const model = 'svc-prediction-markets-agent';
    const report = await client.responses.create({ model, input: `can you do a report on ${urlOf('KXSPACEX')} pls` });
    expect(report.output_text).toMatch(/^# .*\n\n\*\*Series:\*\*/);
    expect((await svc.service.deps.accounts.getAccount(id)).credits).toBe(7);
    const edge = await client.responses.create({ model, input: "tl;dr? where's the edge", previous_response_id: report.id });
    expect(edge.model).toBe(model);
    // (The TL;DR in one sentence, then the edge: the best buy on the model.)
    expect(edge.output_text).toMatch(/^### TL;DR\?\n\n[^\n]*; trading closes [^\n]*\n\n### Where's the edge\n\nOn the model, the best buy at current prices is /);
    expect(edge.output_text).toContain('_From the stored report on');
    const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: urlOf('KXSPACEX') }, { role: 'assistant', content: report.output_text }, { role: 'user', content: 'when does it close?' }] });
    expect(chat.choices[0]!.message.content).toMatch(/clos/i);
    // Answered from the stored report: nothing generated or charged again.
    expect((await svc.service.deps.accounts.getAccount(id)).credits).toBe(7);
    expect(await svc.service.deps.reports.versions(fake.world.openEvents.find((t) => t.startsWith('KXSPACEX-'))!)).toHaveLength(1);
    // With no address in the conversation, or two in the sentence, it is still refused.
    for (const input of ["where's the edge", `compare ${urlOf('KXSPACEX')} and ${urlOf('KXBTCD')}`]) {
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model, input });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.code).toBe('invalid_event_url');
    }
  });

  it("ranks the open events by their 24-hour price moves ('biggest movers today?') or by volume ('what's hot?'), or a topic's ('biggest movers in crypto')", async () => {
    const { apiKey } = await svc.account();
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey });
    const events = fake.world.openEvents.map((t) => fake.world.events.get(t)!);
    const volume = (e: (typeof events)[number]) => e.markets.reduce((sum, m) => sum + Number(m.volume_24h_fp ?? 0), 0);
    const busiest = [...events].sort((a, b) => volume(b) - volume(a));
    const hotResponse = await client.responses.create({ model: 'svc-agent', input: "what's hot on kalshi right now?" });
    const hot = hotResponse.output_text;
    // Each event's page named from its series' title, as Kalshi's links are.
    const urls = ((hotResponse.output[0] as any).content[0].annotations as { url: string }[]).map((a) => a.url);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((u) => /\/markets\/(kx\w+)\/\1\//.test(u))).toEqual([]);
    expect(hot).toMatch(/^The busiest open events, by contracts traded in the last 24 hours, as of 2026-11-19 15:00 UTC:/);
    const titles = [...hot.matchAll(/^\d+\. \*\*(.+?)\*\* \([A-Z0-9-]+\) \[\d+\]/gm)].map((m) => m[1]);
    expect(titles).toEqual(busiest.slice(0, 8).map((e) => e.title));
    expect(hot).toContain(`${Math.round(volume(busiest[0]!)).toLocaleString('en-US')} contracts traded in 24 hours`);
    // A ranking lists its events by ticker: "the second one?" picks that event.
    const second = await client.responses.create({ model: 'svc-agent', input: 'the second one?', previous_response_id: hotResponse.id });
    expect(second.output_text).toContain(`**${busiest[1]!.title}**`);
    const movers = (await client.responses.create({ model: 'svc-agent', input: 'biggest movers today?' })).output_text;
    expect(movers).toMatch(/^The open events whose prices moved most in the last 24 hours[^\n]*\n\n1\. \*\*[^*]+\*\* \(KX[A-Z0-9-]+\) \[1\]: “[^”]+” \d+\.\d% → \d+\.\d% \([+−]\d+\.\d pts\)/);
    // Two tickers with no report stored: each one's favourite on live prices, and that no model compares them.
    const two = (await client.responses.create({ model: 'svc-agent', input: 'compare KXCPIYOY-26DEC and KXPAYROLLS-26DEC' })).output_text;
    expect(two).toMatch(/^The market's favourite in each of the 2 events listed, on live prices/);
    expect(two).toContain('None of the 2 events listed has a stored report');
    const crypto = (await client.responses.create({ model: 'svc-agent', input: 'biggest movers in crypto' })).output_text;
    const listed = [...crypto.matchAll(/^\d+\. \*\*(.+?)\*\* \([A-Z0-9-]+\) \[\d+\]/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((t) => /Bitcoin|Ethereum/.test(t!))).toBe(true);
  });

  it('the live summary of a ladder lists its rungs by level and says when their prices cross', async () => {
    const { apiKey } = await svc.account();
    const text = textOf(await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: urlOf('KXCPIYOY') })).json());
    expect(text).toContain('- Above 2.6 92.5%\n- Above 2.8 96.0%\n- Above 3.0 86.5%\n- Above 3.2 61.0%\n\nIts prices cross: “Above 2.8” (96.0%) is priced over “Above 2.6” (92.5%), though YES on the first implies YES on the second.');
    const eth = textOf(await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: urlOf('KXETHD') })).json());
    expect(eth).not.toContain('prices cross');
    // Asked by its ticker, the event's page is named from its series' title, as Kalshi's links are.
    const byTicker = (await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: fake.world.openEvents.find((t) => t.startsWith('KXETHD-'))! })).json()) as any;
    expect(byTicker.output[0].content[0].annotations[0].url).toBe(urlOf('KXETHD'));
    expect(urlOf('KXETHD')).not.toContain('/kxethd/kxethd/');
    // Asked whether it happens, of one yes/no contract with no report: which way its price leans ("model" is the event's subject).
    const ai = textOf(await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: `${urlOf('KXAIMODEL')} is a new frontier model going to be released by then?` })).json());
    expect(ai).toMatch(/^On its live prices \(no report is stored for KXAIMODEL-[^\n]*On the market's price, “[^”]+” is (?:more|less) likely than not: [\d.]+%\.|On the market's price, “[^”]+” is about even/);
    // A game's sides, named with their teams.
    const game = textOf(await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: urlOf('KXNBAGAME') })).json());
    expect(game).toContain('- Away team (Lakers) 62.5%\n- Home team (Celtics) 38.5%');
  });

  it("the live summary shows a decided outcome as resolved, not at its last quote, and says when the whole event is decided", async () => {
    const { apiKey } = await svc.account();
    const event = fake.world.events.get(fake.world.openEvents.find((t) => t.startsWith('KXFEDDECISION-'))!)!;
    const saved = event.markets.map((m) => ({ status: m.status, result: m.result }));
    const ask = async () => textOf(await (await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: urlOf('KXFEDDECISION') })).json());
    try {
      Object.assign(event.markets[0]!, { status: 'finalized', result: 'no' });
      Object.assign(event.markets[1]!, { status: 'closed' });
      let text = await ask();
      expect(text).toContain('Current prices, as of 2026-11-19 15:00 UTC [2] (one outcome is already decided):');
      expect(text).toContain(`- ${event.markets[0]!.yes_sub_title}: resolved NO\n`);
      expect(text).toMatch(new RegExp(`- ${event.markets[1]!.yes_sub_title} \\d+\\.\\d% \\((?:last trade; )?trading closed, awaiting the result\\)`));
      // The resolved outcome is listed last, not first for its old price.
      expect(text.trim().split('\n').filter((l) => l.startsWith('- ')).at(-1)).toBe(`- ${event.markets[0]!.yes_sub_title}: resolved NO`);
      event.markets.forEach((m, i) => Object.assign(m, { status: 'finalized', result: i === 2 ? 'yes' : 'no' }));
      text = await ask();
      expect(text).toContain('This event is decided: every outcome has settled, as of 2026-11-19 15:00 UTC [2]:');
      expect(text.split('\n').filter((l) => l.startsWith('- '))[0]).toBe(`- ${event.markets[2]!.yes_sub_title}: resolved YES`);
      expect(text).not.toContain('Prices are the mid');
    } finally {
      event.markets.forEach((m, i) => Object.assign(m, saved[i]));
    }
  });

  it('for a Kalshi address with a stored report: that report, free, with its citations', async () => {
    const payer = await svc.account({ plan: 'pro', credits: 10 });
    const generated = textOf(await (await post(`${svc.baseURL}/responses`, payer.apiKey, { model: 'svc-prediction-markets-agent', input: urlOf('KXHIGHNY') })).json());
    const free = await svc.account({ plan: 'free' });
    const chat = await new OpenAI({ baseURL: svc.baseURL, apiKey: free.apiKey }).chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: `report on ${urlOf('KXHIGHNY')} pls` }] }).withResponse();
    expect(chat.data.choices[0]!.message.content).toBe(generated);
    expect(chat.response.headers.get('x-report-cache')).toBe('hit');
    expect((chat.data.choices[0] as any).citations.length).toBeGreaterThan(5);
  });

  it('an invalid address is still a clear 400', async () => {
    const { apiKey } = await svc.account();
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec-t3.0' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('invalid_event_url');
  });

  it('anything else gets what the service can do, with examples', async () => {
    const { apiKey } = await svc.account();
    const sse = await readSse(await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: 'tell me a joke', stream: true }));
    const text = sse.frames.filter((f) => f.event === 'response.output_text.delta').map((f) => JSON.parse(f.data).delta).join('');
    expect(text).toContain('What was Apple');
    expect(text).toContain('svc-prediction-markets-agent');
  });

  it('lists every agent with a description', async () => {
    const { apiKey } = await svc.account();
    const models = (await (await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as any;
    const ids = models.data.map((m: any) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['svc-agent', 'svc-markets-search-agent', 'svc-prediction-markets-agent', 'svc-prediction-markets-agent:cache', 'svc-prediction-markets-agent:refresh']));
    for (const m of models.data) expect(m.description.length).toBeGreaterThan(30);
  });
});

describe('a report cost other than 3 credits', () => {
  it('is the price the router and search answers name (SVC_REPORT_COST_CREDITS), as billing charges it', async () => {
    const priced = await startService({ env: { SVC_KALSHI_API_URL: fake.apiUrl, SVC_REPORT_COST_CREDITS: '5' }, agents: pinnedMarketAgents });
    try {
      const client = new OpenAI({ baseURL: priced.baseURL, apiKey: (await priced.account()).apiKey });
      const ask = async (model: string, input: string) => (await client.responses.create({ model, input })).output_text;
      expect(await ask('svc-agent', 'what can you do?')).toContain('generates a new one (5 credits, Plus plan or above)');
      expect(await ask('svc-agent', urlOf('KXCPIYOY'))).toContain('`svc-prediction-markets-agent` (5 credits, Plus plan or above)');
      expect(await ask('svc-markets-search-agent', 'fed decision december')).toContain('`svc-prediction-markets-agent` (5 credits)');
      for (const text of [await ask('svc-agent', 'what can you do?'), await ask('svc-markets-search-agent', 'fed decision december')]) expect(text).not.toContain('3 credits');
    } finally {
      await priced.close();
    }
  });
});
