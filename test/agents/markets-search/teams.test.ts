import { describe, expect, it } from 'vitest';
import { asksAboutGame, teamMentions, withTeamNames } from '../../../src/agents/markets-search/teams.js';

const named = (text: string) => teamMentions(text).map((m) => `${m.said}=${m.teams.map((t) => t.nickname).join('/')}`);

describe('teams named by place, abbreviation or nickname', () => {
  it('reads places and nicknames in any case, abbreviations in capitals (some in lower case too)', () => {
    expect(named('odds KC beats Buffalo')).toEqual(['KC=Chiefs', 'Buffalo=Bills']);
    expect(named('kansas city vs the niners')).toEqual(['kansas city=Chiefs', 'niners=49ers']);
    expect(named('will kc win?')).toEqual(['kc=Chiefs']);
    // "no", "min", "sea" and "la" are words: an abbreviation only in capitals.
    expect(named('no chance, min bet, sea ice, la la land')).toEqual([]);
    expect(named('NO at LA')).toEqual(['NO=Saints/Pelicans', 'LA=Rams/Chargers/Clippers/Lakers']);
    // All in capitals, words are words again.
    expect(named('NO WAY THE FED CUTS')).toEqual([]);
    expect(named('Trail Blazers at Golden State')).toEqual(['Trail Blazers=Trail Blazers', 'Golden State=Warriors']);
    // Money said in bucks is no Milwaukee.
    expect(named('how much should i size if i have 1000 bucks')).toEqual([]);
    expect(named('a few bucks on the Bucks?')).toEqual(['Bucks=Bucks']);
  });

  it('adds the name an event calls a team by (its nickname or its place), for matching titles and outcomes either way', () => {
    expect(withTeamNames('odds KC beats Buffalo')).toBe('odds KC Chiefs beats Buffalo Bills');
    // Among an event's own words, a place of several teams is the one playing.
    expect(withTeamNames('will LA beat Boston?', 'Lakers at Celtics')).toBe('will LA Lakers beat Boston Celtics?');
    expect(withTeamNames('will the Chiefs win?', 'Buffalo at Kansas City')).toBe('will the Chiefs Kansas City win?');
    expect(withTeamNames('chance the Chiefs lose to the Bills?', 'Bills at Chiefs')).toBe('chance the Chiefs lose to the Bills?');
    // Already said: not said twice.
    expect(withTeamNames('Kansas City Chiefs')).toBe('Kansas City Chiefs');
  });

  it('tells a question about a game: two teams of one league, or one with a word of play', () => {
    expect(asksAboutGame('Chiefs or Bills?')).toBe(true);
    expect(asksAboutGame('will KC cover?')).toBe(true);
    expect(asksAboutGame('how did the Lakers play?')).toBe(true);
    expect(asksAboutGame('will my bills go up?')).toBe(false);
    // Two leagues' nicknames that are also words: no game.
    expect(asksAboutGame('bulls and bears')).toBe(false);
    expect(asksAboutGame('What was Apple revenue?')).toBe(false);
  });
});
