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
  ])('%s → %s', (query, series) => {
    expect(top(query)).toBe(series);
  });

  it.each(['will there be a recession next year', 'odds of a volcanic eruption in iceland', 'what happens this week'])(
    'time and movement words alone match nothing: %s',
    (query) => {
      expect(index.search(query)).toEqual([]);
    },
  );
});
