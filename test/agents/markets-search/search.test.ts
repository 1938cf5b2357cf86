import { describe, expect, it } from 'vitest';
import { EventSearch } from '../../../src/agents/markets-search/search.js';
import { buildWorld } from '../../fixtures/kalshi-world.js';

const world = buildWorld();
const open = world.openEvents.map((t) => ({ ...world.events.get(t)!, markets: undefined }));
const index = new EventSearch(open, [...world.series.values()]);
const top = (query: string) => index.search(query)[0]?.entry.event.series_ticker ?? null;

describe('searching the open events', () => {
  it.each([
    ['what are the odds of a Fed cut in December?', 'KXFEDDECISION'],
    ['Is the government going to shut down?', 'KXSHUTDOWN'],
    ['is bitcoin going to crash this week', 'KXBTCD'],
    ['will ethereum drop below 3000 today', 'KXETHD'],
    ['nyc high temperature tomorrow', 'KXHIGHNY'],
    ['how many spacex launches this week', 'KXSPACEX'],
    ['inflation next month', 'KXCPIYOY'],
    ['will it be warm in NYC on Nov 20?', 'KXHIGHNY'],
    ['wat r the odds of a fed cut in decmber', 'KXFEDDECISION'],
    ['What do traders on Kalshi think about the Fed meeting next month?', 'KXFEDDECISION'],
    ['will it rain in NYC tomorrow', 'KXHIGHNY'],
    // How a figure comes in and what a trader thinks of a price are not topics.
    ['What happens if CPI comes in hot?', 'KXCPIYOY'],
    ['is the market underpricing CPI above 3.2?', 'KXCPIYOY'],
    // Teams by their place or abbreviation, where titles write nicknames ("Bills at Chiefs")
    ['odds KC beats Buffalo', 'KXNFLGAME'],
    ['Kansas City vs Buffalo', 'KXNFLGAME'],
    ["will Boston win tonight's game against LA?", 'KXNBAGAME'],
    ['New York temperature tomorrow', 'KXHIGHNY'],
  ])('%s → %s', (query, series) => {
    expect(top(query)).toBe(series);
  });

  it.each(['will there be a recession next year', 'odds of a volcanic eruption in iceland', 'what happens this week', 'who will win the 2028 election?', 'odds the S&P 500 closes higher'])(
    'time and movement words alone match nothing: %s',
    (query) => {
      expect(index.search(query)).toEqual([]);
    },
  );
});

describe('a follow-up, and words no event matches', () => {
  it('searches a follow-up for its own topic, the question it continues only ranking', () => {
    const fed = 'what are the odds of a Fed cut in December?';
    expect(index.search('what about bitcoin?', 5, fed).map((h) => h.entry.event.series_ticker)).toEqual(['KXBTCD']);
    expect(index.search('how about the CPI?', 5, 'will there be a government shutdown?').map((h) => h.entry.event.series_ticker)).toEqual(['KXCPIYOY']);
    // The earlier question ranks what the follow-up's own words find.
    expect(index.search('and the one in December?')[0]!.entry.event.series_ticker).toBe('KXFEDDECISION');
    expect(index.search('and the one in December?', 5, 'will there be a government shutdown?')[0]!.entry.event.series_ticker).toBe('KXSHUTDOWN');
    // Nothing of its own: nothing found here (the caller then searches both together).
    expect(index.search('and of that one?', 5, fed)).toEqual([]);
    // A hold is the Fed's, said alone ("how often does the Fed hold?" names it too).
    expect(index.search('and of a hold?', 5, 'will there be a government shutdown?')[0]!.entry.event.series_ticker).toBe('KXFEDDECISION');
  });

  it('names the words of the query an event does not match, as written', () => {
    const [hit] = index.search('temperature in Paris tomorrow');
    expect(hit!.entry.event.series_ticker).toBe('KXHIGHNY');
    expect(hit!.missing).toEqual(['paris']);
    expect(index.search('Bills at Chiefs')[0]!.missing).toEqual([]);
    expect(index.search('odds KC beats Buffalo')[0]!.missing).toEqual([]);
    expect(index.search('New York temperature tomorrow')[0]!.missing).toEqual([]);
    // Words of how a question is put ("can you", "underdog", "cover") are no topics.
    expect(index.search('is buffalo the underdog?')[0]!.missing).toEqual([]);
    expect(index.search('will KC cover the spread')[0]!.missing).toEqual(['spread']);
    expect(index.search('is the market underpricing CPI above 3.2?')[0]!.missing).toEqual([]);
  });

  it('finds the events on the words some event has, when words none has would leave less than half the topic matched', () => {
    // "summary", "readers", "paragraph" are in no event: the topic is the rest ("plain english" names nothing at all).
    const [cpi] = index.search('Can you give me a plain-English summary of what the market expects for the December CPI print?');
    expect(cpi!.entry.event.series_ticker).toBe('KXCPIYOY');
    expect(cpi!.missing).toEqual(['summary']);
    expect(index.search('Explain the December Fed market in one paragraph for readers')[0]!.entry.event.series_ticker).toBe('KXFEDDECISION');
    expect(index.search("I want to hedge a long Chiefs position. What's the price on the Bills?")[0]!.entry.event.series_ticker).toBe('KXNFLGAME');
    // Words no event has, and nothing else: nothing.
    expect(index.search('plain english paragraph for readers')).toEqual([]);
  });
});

describe("words that are also Object's own names", () => {
  it('are words like any other: no synonyms, no crash', () => {
    expect(EventSearch.terms('constructor toString hasOwnProperty').map((t) => t.alternatives)).toEqual([['constructor'], ['tostring'], ['hasownproperty']]);
    expect(index.search('constructor')).toEqual([]);
  });
});

describe('the cost of a long question is bounded', () => {
  it('uses at most 12 distinct terms, from the start of the question', () => {
    const huge = `what are the odds of a fed cut in december ${'lorem ipsum dolor sit amet consectetur '.repeat(3000)}`;
    expect(huge.length).toBeGreaterThan(100_000);
    const terms = EventSearch.terms(huge);
    expect(terms.length).toBeLessThanOrEqual(12);
    expect(new Set(terms.map((t) => t.alternatives.join(' '))).size).toBe(terms.length);
    expect(EventSearch.terms('fed fed fed cut cut')).toHaveLength(2);
  });
});
