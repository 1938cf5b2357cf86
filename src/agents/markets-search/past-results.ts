import type { KalshiClient } from '../../data/kalshi/client.js';
import type { KalshiEvent } from '../../data/kalshi/types.js';
import type { KalshiMarket } from '../../data/kalshi/types.js';
import { labelOf, settledEvents, withTeam } from '../prediction-markets/research.js';
import type { Answer } from '../types.js';
import { labelRange, monthAsked, monthName, rungSide } from './asked.js';
import { teamMentions } from './teams.js';

/** Settled events listed under the one asked about, or as the series' record. */
const LISTED = 5;

/**
 * How an open event's series resolved before, read from the exchange's settled markets, for a
 * question asked without a stored report ("what did CPI print last month?", "how often does the
 * Fed hold?"). What a report adds (prices before each close, the model) is said to be missing.
 * `asked`: the newest settled event (or the month's), or the series' record. Null when the series has none.
 */
/** A team's record of a series of games asked ("how have the chiefs done lately?", "lakers record vs boston"): not a label's base rate. */
export const TEAM_RECORD = /\b(?:record|histor\w*|form|streak|lately|recently|(?:have|has)\b[^?]{0,30}\b(?:done|fared|played)|(?:did|do|does)\s+(?:the\s+)?[a-z.' ]{2,25}?\s+(?:do|fare|play)\b|last (?:few|\d+|couple(?: of)?) (?:games|matchups|meetings)|at home|on the road|away games?|home games?)\b/i;

/**
 * A team's record in the settled games of an event's series, for a question naming a team that
 * played in them; null otherwise. Said of the exchange's settled markets, with or without a report.
 */
export async function teamResults(client: KalshiClient, event: KalshiEvent, question: string, apiUrl: string): Promise<Answer | null> {
  if (!teamMentions(question).length || !/ at /.test(event.title)) return null;
  const settled = await client.settledMarkets(event.series_ticker);
  const past = settledEvents(settled, event.event_ticker, Math.floor(client.now().getTime() / 1000)).map((e) => ({
    ticker: e.ticker,
    closed: new Date(e.closeTs * 1000).toISOString().slice(0, 10),
    won: e.markets.filter((m) => m.result === 'yes').map((m) => withTeam(labelOf(m), m.title ?? '')),
    title: e.markets[0]?.title ?? '',
  }));
  const team = teamRecord(past, question);
  return team ? { text: `${team}\n`, citations: [{ order: 1, name: `Kalshi settled markets: ${event.series_ticker} series`, url: `${apiUrl}/markets?series_ticker=${encodeURIComponent(event.series_ticker)}&status=settled` }] } : null;
}

export async function pastResults(client: KalshiClient, event: KalshiEvent, question: string, asked: 'previous' | 'history', apiUrl: string, reportCost: string): Promise<Answer | null> {
  const settled = await client.settledMarkets(event.series_ticker);
  const past = settledEvents(settled, event.event_ticker, Math.floor(client.now().getTime() / 1000)).map((e) => {
    // ("Home team" of "Bills at Chiefs on …" is said with its team: a series of games has many teams.)
    const named = (m: KalshiMarket) => withTeam(labelOf(m), m.title ?? '');
    const won = e.markets.filter((m) => m.result === 'yes').map(named);
    return { ticker: e.ticker, closed: new Date(e.closeTs * 1000).toISOString().slice(0, 10), won, labels: e.markets.map(named), title: e.markets[0]?.title ?? '' };
  });
  if (!past.length) return null;
  const citations = [{ order: 1, name: `Kalshi settled markets: ${event.series_ticker} series`, url: `${apiUrl}/markets?series_ticker=${encodeURIComponent(event.series_ticker)}&status=settled` }];
  const line = (e: (typeof past)[number]) => `- ${e.ticker} (closed ${e.closed}): ${e.won.length ? e.won.map((w) => `**${w}**`).join(', ') : 'every outcome NO'}${landed(e.won, e.labels)}`;
  const report = `No report is stored for ${event.event_ticker}, so this is the exchange's record alone: \`svc-prediction-markets-agent\` generates one (${reportCost}) with each outcome's price before close and a model that weighs the record against today's prices.`;
  // "How have the chiefs done at home lately?": that team's games of the series, won and lost.
  const team = asked === 'history' ? teamRecord(past, question) : null;
  if (team) return { text: `${team}\n\n${report}\n`, citations };
  if (asked === 'history') {
    const wins = new Map<string, number>();
    for (const e of past) for (const w of e.won) wins.set(w, (wins.get(w) ?? 0) + 1);
    const rates = [...wins.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `**${label}** ${n} of ${past.length}`);
    // "How often does the Fed hold?": that outcome's count first.
    const labels = [...new Set(past.flatMap((e) => e.labels))];
    const named = labels.filter((l) => new RegExp(`\\b${l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(question));
    const record = named.length
      ? `${named.map((l) => `**${l}** resolved YES in ${wins.get(l) ?? 0} of the ${past.length} settled events of the ${event.series_ticker} series`).join('; ')} [1].${rates.length ? ` Every outcome: ${rates.join(', ')}.` : ''}`
      : `How the ${event.series_ticker} series resolved: of its ${past.length} settled events, ${rates.length ? `${rates.join(', ')} resolved YES` : 'none had an outcome resolve YES'} [1].`;
    return {
      text: `${record}\n\nThe latest:\n\n${past.slice(0, LISTED).map(line).join('\n')}\n\n${report}\n`,
      citations,
    };
  }
  const month = monthAsked(question);
  const pick = month >= 0 ? past.find((e) => Number(e.closed.slice(5, 7)) === month + 1) : past[0];
  const named = month >= 0 ? monthName(month) : '';
  if (!pick) return { text: `No settled event of the ${event.series_ticker} series closed in ${named} [1]; the latest:\n\n${past.slice(0, 3).map(line).join('\n')}\n\n${report}\n`, citations };
  const result = pick.won.length ? `${pick.won.map((w) => `**${w}**`).join(', ')} resolved YES${landed(pick.won, pick.labels)}` : `every outcome resolved NO${landed(pick.won, pick.labels)}`;
  const before = past.filter((e) => e !== pick).slice(0, 3);
  return {
    text: `${month >= 0 ? `The ${named} event` : 'The previous event'} of the series, **${pick.ticker}** (closed ${pick.closed}): ${result} [1].${before.length ? `\n\n${month >= 0 ? 'The latest others' : 'Before it'}:\n\n${before.map(line).join('\n')}` : ''}\n\n${report}\n`,
    citations,
  };
}

/**
 * An event that has settled, asked by its address ("what happened in the october fed market?
 * <address>"): what resolved YES, from the series' settled markets. Null when the series lists no
 * settled event of that ticker (then it is not there at all).
 */
export async function settledEventResult(client: KalshiClient, eventTicker: string, apiUrl: string): Promise<Answer | null> {
  const series = eventTicker.split('-')[0]!;
  const settled = await client.settledMarkets(series).catch(() => null);
  const e = settled ? settledEvents(settled, '', Math.floor(client.now().getTime() / 1000)).find((x) => x.ticker === eventTicker) : undefined;
  if (!e) return null;
  const won = e.markets.filter((m) => m.result === 'yes').map(labelOf);
  const labels = e.markets.map(labelOf);
  const result = won.length ? `${won.map((w) => `**${w}**`).join(', ')} resolved YES${labels.length > won.length ? ', every other outcome NO' : ''}` : 'every outcome resolved NO';
  return {
    text: `**${eventTicker}** has settled (trading closed ${new Date(e.closeTs * 1000).toISOString().slice(0, 10)}): ${result}${landed(won, labels)} [1].\n\nIt trades no more, so it has no live prices and no report; ask about the series' open event for its odds, or how often an outcome wins (“how often does … resolve YES?”) for its record.\n`,
    citations: [{ order: 1, name: `Kalshi settled markets: ${series} series`, url: `${apiUrl}/markets?series_ticker=${encodeURIComponent(series)}&status=settled` }],
  };
}

/** Where a ladder's result fell: above the highest "Above" rung to resolve YES, or below every rung when none did. */
function landed(won: string[], labels: string[]): string {
  const rungs = labels.map((label) => ({ label, range: labelRange(label) })).filter((r) => r.range && rungSide(r.range) === 'above');
  if (rungs.length < 2 || rungs.length !== labels.length) return '';
  const level = (r: (typeof rungs)[number]) => r.range!.from!;
  const yes = rungs.filter((r) => won.includes(r.label));
  const said = (label: string) => label.replace(/^\s*(?:above|over)\s+/i, '');
  if (!yes.length) return `, so the result was not above any of its levels (the lowest was ${said(rungs.reduce((a, b) => (level(b) < level(a) ? b : a)).label)})`;
  return `, so the result was above ${said(yes.reduce((a, b) => (level(b) > level(a) ? b : a)).label)}`;
}

/**
 * A team's record in a series of games ("how have the chiefs done at home lately?", "lakers record
 * vs boston"): its settled games, newest first, each won or lost, at home or away as asked. Null
 * when the question names no team that played in them.
 */
function teamRecord(past: { ticker: string; closed: string; won: string[]; title: string }[], question: string): string | null {
  const game = (title: string) => /^(.+?) at (.+?)(?: on |:|\?|$)/i.exec(title);
  const names = teamMentions(question).flatMap((m) => m.teams.map((t) => t.nickname));
  const played = (name: string) => past.filter((e) => game(e.title)?.slice(1, 3).some((side) => side.trim().toLowerCase() === name.toLowerCase()));
  const name = names.find((n) => played(n).length);
  if (!name) return null;
  const where = /\b(?:at home|home games?|in (?:their|its) (?:own )?(?:building|stadium|arena))\b/i.test(question) ? 'home' : /\b(?:away|on the road|road games?)\b/i.test(question) ? 'away' : null;
  // ("Lakers record vs boston": the games against the other team named.)
  const against = names.find((n) => n !== name && played(n).length);
  const games = played(name)
    .map((e) => {
      const [, away, home] = game(e.title)!;
      const side = home!.trim().toLowerCase() === name.toLowerCase() ? 'home' : 'away';
      const opponent = (side === 'home' ? away : home)!.trim();
      const won = e.won.some((w) => w.toLowerCase().includes(`(${name.toLowerCase()})`));
      const decided = e.won.length > 0;
      return { e, side, opponent, won, decided };
    })
    .filter((g) => (where === null || g.side === where) && (!against || g.opponent.toLowerCase() === against.toLowerCase()));
  if (!games.length) return `The settled games of the series have no ${name} game${where ? ` ${where === 'home' ? 'at home' : 'away'}` : ''}${against ? ` against the ${against}` : ''} [1].`;
  const wins = games.filter((g) => g.won).length;
  const undecided = games.filter((g) => !g.decided).length;
  const scope = `${where === 'home' ? ' at home' : where === 'away' ? ' away' : ''}${against ? ` against the ${against}` : ''}`;
  const sides = (['home', 'away'] as const).map((side) => ({ side, n: games.filter((g) => g.side === side).length, won: games.filter((g) => g.side === side && g.won).length }));
  const split = where ? '' : sides.every((x) => x.n) ? ` (${sides.map((x) => `${x.won} of ${x.n} ${x.side === 'home' ? 'at home' : 'away'}`).join(', ')})` : `, all ${sides.find((x) => x.n)!.side === 'home' ? 'at home' : 'away'}`;
  const recent = games.slice(0, LISTED).map((g) => `- ${g.e.ticker} (closed ${g.e.closed}): ${g.side === 'home' ? 'home' : 'away'} against the ${g.opponent}, **${g.decided ? (g.won ? 'won' : 'lost') : 'no winner (every outcome NO)'}**`);
  const lead = `The ${name} won **${wins} of ${games.length}** settled games${scope} in this series${split}${undecided ? `, ${undecided} with no winner` : ''} [1]. The last ${Math.min(LISTED, games.length)}, newest first: ${games.slice(0, LISTED).map((g) => (g.decided ? (g.won ? 'W' : 'L') : '–')).join(' ')}.`;
  return `${lead}\n\n${recent.join('\n')}`;
}
