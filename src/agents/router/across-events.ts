import { tickerAddress } from '../../data/kalshi/url.js';
import type { Report } from '../../reports/store.js';
import type { Answer, Citation } from '../types.js';
import { credits } from '../markets-search/agent.js';
import { gapOf, isLadder, outcomeOf, readReport, type Row } from './report-rows.js';
import { rankedTrades, tradeSaid } from './trading-answers.js';
import { pastPrices } from './report-answers.js';

// A question about several events a search listed, answered from their stored reports
// ("which of these has the biggest mispricing per your model?", "best bet among those?").

/**
 * Each listed event's largest gap between model and market (or, asked for a trade, its best trade
 * on the model), from its stored report, largest first; the events without a report are named,
 * with how to generate one. The asker's events are the search's, in its order.
 */
export async function acrossEvents(tickers: readonly string[], latest: (ticker: string) => Promise<Report | null>, trade: boolean, reportCost: number, favourite = false, group = 'events listed'): Promise<Answer> {
  const stored = await Promise.all(tickers.map(async (ticker) => ({ ticker, report: await latest(ticker) })));
  if (favourite) return favouritesOfModel(tickers, stored, reportCost);
  const citations: Citation[] = [];
  const found = stored.flatMap(({ ticker, report }) => {
    if (!report) return [];
    const { rows, contracts } = readReport(report.text);
    if (trade) {
      const best = rankedTrades(rows, contracts)[0];
      return best ? [{ ticker, report, score: best.ev, line: tradeSaid(best).replace(/\s*(?:\[\d+\])+$/, ''), head: '', best, bestSaid: undefined }] : [];
    }
    const widest = rows.filter((r) => Number.isFinite(gapOf(r))).sort((a, b) => Math.abs(gapOf(b)) - Math.abs(gapOf(a)))[0];
    if (!widest) return [];
    // A gap against the normalised share can point the other way from the price itself: then it
    // is no trade, and the trade the quotes do offer is said beside it.
    const g = gapOf(widest);
    const relativeOnly = widest.marketNormalised !== widest.marketValue && (g > 0 ? widest.modelValue <= widest.marketValue : widest.modelValue >= widest.marketValue);
    const best = rankedTrades(rows, contracts)[0];
    const bestSaid = best ? tradeSaid(best).replace(/\s*(?:\[\d+\])+$/, '') : undefined;
    const note = relativeOnly ? `; against its price of ${widest.market.replace(/ \(.*$/, '')} that is no buy, and ${best && best.ev > 0 ? `the best buy at the quotes is ${bestSaid}` : 'no contract has a positive expected value at the quotes'}` : '';
    return [{ ticker, report, score: Math.abs(g), line: `${gapLine(widest)}${note}`, head: `${gapLine(widest)} [1]${relativeOnly ? ', though against its price that is no buy' : ''}`, best, bestSaid }];
  });
  found.sort((a, b) => b.score - a.score);
  const lines = found.map(({ ticker, report, line }, i) => {
    // The report's own link to the event page (named from its series' title), as it cites it.
    const page = report.citations.find((c) => /^https:\/\/kalshi\.com\/markets\//.test(c.url))?.url.split('#')[0];
    citations.push({ order: i + 1, name: `Kalshi: ${report.title}`, url: page ?? tickerAddress(ticker) ?? `https://kalshi.com/markets/${ticker.toLowerCase()}` });
    return `${i + 1}. **${report.title.replace(/[*_]/g, '')}** (${ticker}) [${i + 1}]: ${line}`;
  });
  const missing = stored.filter(({ report }) => !report).map(({ ticker }) => ticker);
  const none = missing.length ? `No report is stored for ${missing.join(', ')}, so there is no model to compare there: \`svc-prediction-markets-agent\` generates one (${credits(reportCost)}).` : '';
  if (!found.length) return { text: `None of the ${tickers.length} events listed has a stored report, so there is no model probability to compare with the market. ${none}\n`, citations: [] };
  const top = found[0]!;
  // (The reports the user asked for in the conversation are each stored: that is not said again of them.)
  const of = group === 'events listed' || found.length < tickers.length ? `Of the ${tickers.length} ${group}, ${found.length} ha${found.length === 1 ? 's' : 've'} a stored report; the ${trade ? 'best trade on the model' : 'largest gap between model and market'} among them` : `Of the ${tickers.length} ${group}, the ${trade ? 'best trade on the model' : 'largest gap between model and market'}`;
  const head = trade ? `${of} is in **${top.report.title.replace(/[*_]/g, '')}**: ${top.line} [1], before fees.` : `${of} is in **${top.report.title.replace(/[*_]/g, '')}**: ${top.head}.`;
  // The largest gap is not always the best trade: then the event with the best one is named.
  const bestAt = trade ? undefined : found.filter((f) => f.best && f.best.ev > 0).sort((a, b) => b.best!.ev - a.best!.ev)[0];
  const ev = bestAt && bestAt !== top ? ` By expected value at the quoted prices, the best trade is in **${bestAt.report.title.replace(/[*_]/g, '')}** [${found.indexOf(bestAt) + 1}]: ${bestAt.bestSaid}, before fees.` : '';
  const body = `${head}${ev}\n\n${trade ? 'Best trade in each' : 'Largest gap in each'}, largest first:\n\n${lines.join('\n')}${none ? `\n\n${none}` : ''}`;
  const caveat = trade ? "\n\nYES is bought at the ask, NO at 1 minus the bid; this is the model's arithmetic on each report's prices (as of its time), not investment advice." : '';
  return { text: `${body}${caveat}\n`, citations };
}

/**
 * "The model's favourite in each of them": per event, the outcome the model gives the highest
 * probability (outcomes tied at it all named), with the market's price beside it, in the order listed.
 */
function favouritesOfModel(tickers: readonly string[], stored: { ticker: string; report: Report | null }[], reportCost: number): Answer {
  const citations: Citation[] = [];
  const lines = stored.flatMap(({ ticker, report }) => {
    if (!report) return [];
    const { rows } = readReport(report.text);
    const modelled = rows.filter((r) => Number.isFinite(r.modelValue));
    if (!modelled.length) return [];
    const top = Math.max(...modelled.map((r) => r.modelValue));
    const picks = modelled.filter((r) => Math.abs(r.modelValue - top) < 0.05);
    const order = citations.length + 1;
    const page = report.citations.find((c) => /^https:\/\/kalshi\.com\/markets\//.test(c.url))?.url.split('#')[0];
    citations.push({ order, name: `Kalshi: ${report.title}`, url: page ?? tickerAddress(ticker) ?? `https://kalshi.com/markets/${ticker.toLowerCase()}` });
    const said = picks.map((r) => `**${outcomeOf(r.outcome).name}**: model ${r.model}; market ${r.market}`);
    // A ladder's rungs are each a yes/no of their own: its likeliest rung is no single likeliest result.
    const ladder = isLadder(rows) ? '; each rung is its own yes/no, so this is the likeliest rung, not the likeliest result' : '';
    return [`${order}. **${report.title.replace(/[*_]/g, '')}** (${ticker}) [${order}]: ${said.join(', and ')}${picks.length > 1 ? ' (tied on the model)' : ''}${ladder}`];
  });
  const missing = stored.filter(({ report }) => !report).map(({ ticker }) => ticker);
  const none = missing.length ? `\n\nNo report is stored for ${missing.join(', ')}, so there is no model there: \`svc-prediction-markets-agent\` generates one (${credits(reportCost)}).` : '';
  if (!lines.length) return { text: `None of the ${tickers.length} events listed has a stored report, so there is no model probability to give.${none}\n`, citations: [] };
  return { text: `The model's favourite in each event, the outcome it gives the highest probability (the market's price beside it):\n\n${lines.join('\n')}${none}\n\nThe model's probabilities are each report's, as of its time; this is research, not investment advice.\n`, citations };
}

const gapLine = (r: Row) => `**${outcomeOf(r.outcome).name}**: model ${r.model}, market ${r.market}, gap ${r.gap}`;

/**
 * "Which of those two moved more this week?" of events discussed: each one's largest move over the
 * week (the day, asked of it) from its stored report, then which moved more. Null when an event
 * has no report or no past prices in it (the live quotes' 24-hour moves answer then).
 */
export async function movesAcrossReports(tickers: readonly string[], latest: (ticker: string) => Promise<Report | null>, day: boolean, discussed: ReadonlyMap<string, string> = new Map()): Promise<Answer | null> {
  const over = day ? 'day' : 'week';
  const span = day ? '24 hours' : '7 days';
  const read = await Promise.all(
    tickers.map(async (ticker) => {
      const report = await latest(ticker);
      const claims = report ? [...readReport(report.text).sections.entries()].find(([h]) => h.startsWith('key claims'))?.[1] : undefined;
      const moves = (pastPrices(claims)?.all ?? []).filter((o) => o[over] !== null).map((o) => ({ label: o.label, then: o[over]!, now: o.now, move: o.now - o[over]! }));
      // The outcome the thread discussed of it, when it did ("price of hike?", then "above 96k?"); else its largest move.
      const top = moves.find((m) => m.label === discussed.get(ticker)) ?? moves.sort((a, b) => Math.abs(b.move) - Math.abs(a.move))[0];
      return report && top ? { ticker, report, top } : null;
    }),
  );
  if (read.some((r) => r === null)) return null;
  const found = read as { ticker: string; report: Report; top: { label: string; then: number; now: number; move: number } }[];
  const citations: Citation[] = [];
  const title = (r: Report) => r.title.replace(/[*_]/g, '');
  const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)} pts`;
  const lines = found.map(({ ticker, report, top }, i) => {
    const page = report.citations.find((c) => /^https:\/\/kalshi\.com\/markets\//.test(c.url))?.url.split('#')[0];
    citations.push({ order: i + 1, name: `Kalshi: ${report.title}`, url: page ?? tickerAddress(ticker) ?? `https://kalshi.com/markets/${ticker.toLowerCase()}` });
    const prices = `${top.then.toFixed(1)}% then, ${top.now.toFixed(1)}% now`;
    return discussed.get(ticker) === top.label
      ? `- **${title(report)}** (${ticker}) [${i + 1}]: **${top.label}** moved ${pts(top.move)} over the last ${span}, ${prices}.`
      : `- **${title(report)}** (${ticker}) [${i + 1}]: its largest move over the last ${span} is **${top.label}**, ${prices} (${pts(top.move)}).`;
  });
  const ranked = [...found].sort((a, b) => Math.abs(b.top.move) - Math.abs(a.top.move));
  const [first, second] = [ranked[0]!, ranked[1]!];
  const verdict =
    Math.abs(first.top.move) - Math.abs(second.top.move) < 0.05
      ? `They moved about as much as each other over the last ${span}.`
      : found.every((f) => discussed.get(f.ticker) === f.top.label)
        ? `**${first.top.label}** (${first.ticker}) moved more over the last ${span}: ${Math.abs(first.top.move).toFixed(1)} pts against ${Math.abs(second.top.move).toFixed(1)} for **${second.top.label}** (${second.ticker}).`
        : `**${title(first.report)}** moved more over the last ${span}: ${Math.abs(first.top.move).toFixed(1)} pts on its largest mover against ${Math.abs(second.top.move).toFixed(1)} for **${title(second.report)}**.`;
  return { text: `${lines.join('\n')}\n\n${verdict}\n\nEach move is counted back from its report's time, on the basis of the price now (the mid of the book, or the last trade).\n`, citations };
}
