import type { Report } from '../../reports/store.js';
import type { Answer } from '../types.js';
import type { ReportRead } from './event-questions.js';
import { cited, dollars, money, outcomeOf, readReport } from './report-rows.js';
import { rankedTrades, tradeSaid } from './trading-answers.js';

// Answers drawn from what a stored report says beyond its table: what would make its model wrong,
// what it says about timing, what changed since it, and one outcome's spread against its mid.

const titled = (r: ReportRead) => `**${r.title.replace(/[*_]/g, '')}**${r.eventTicker ? ` (${r.eventTicker})` : ''}`;
const asOf = (r: ReportRead) => `${r.asOf.slice(0, 16).replace('T', ' ')} UTC`;

/** The foot of an answer drawn from one report or live quotes, as the router's other answers end: a later turn reads its event from it. */
export const footOf = (r: ReportRead) =>
  r.unreported
    ? `\n_From Kalshi's live quotes for ${titled(r)}, as of ${asOf(r)}; no report is stored for it, so there is no model probability (${r.unreported})._\n`
    : `\n_From the stored report on ${titled(r)}, as of ${asOf(r)}; ask for the event's address again for the whole report._\n`;

/** The report's bullet lines of a section that start with a bold label ("- **Could flip the outcome:** …"). */
function bullets(report: ReportRead, section: string, label: RegExp): string[] {
  const body = [...readReport(report.text).sections.entries()].find(([h]) => h.startsWith(section))?.[1] ?? '';
  return body.split('\n').filter((l) => /^- \*\*/.test(l) && label.test(l));
}

/** The paragraph of a section that starts with a bold label ("**Base rates** (…): …"). */
function paragraph(report: ReportRead, section: string, label: string): string | null {
  const body = [...readReport(report.text).sections.entries()].find(([h]) => h.startsWith(section))?.[1] ?? '';
  return body.split(/\n{2,}/).find((p) => p.startsWith(`**${label}`)) ?? null;
}

/** The model's fit as the method says it: "It gives a = 0.00, b = 0.62 (…), and c = 0.12: …". */
function fitSaid(report: ReportRead): { fit: string | null; markets: string | null; baseWeight: number | null; baseSaid: string | null } {
  const method = bullets(report, 'method', /\*\*Model probability\.\*\*/)[0] ?? '';
  const fit = /\bIt gives a = .*?\.(?= [A-Z`]|$)/.exec(method)?.[0] ?? null;
  const markets = /\bOn (\d+) settled markets\b/.exec(method)?.[1] ?? null;
  const c = /\bc = (−?-?\d+(?:\.\d+)?)/.exec(fit ?? '')?.[1];
  return { fit, markets, baseWeight: c === undefined ? null : Number(c.replace('−', '-')), baseSaid: c ?? null };
}

const TAKEAWAY_END = /\n/;

/** What would have to be true for the model's view in a report to be wrong, from the report alone. */
export function wrongText(report: ReportRead, brief = false): Answer {
  const takeaway = (readReport(report.text).sections.get('key takeaway') ?? '').split(TAKEAWAY_END)[0]!.trim();
  const { fit, markets, baseWeight, baseSaid } = fitSaid(report);
  const { rows, contracts } = readReport(report.text);
  const best = rankedTrades(rows, contracts)[0];
  const spread = best ? contracts.get(outcomeOf(best.r.outcome).refs)?.spread : undefined;
  const lines: string[] = [];
  if (takeaway) lines.push(`- **The view at stake:** ${takeaway}`);
  if (fit || markets) {
    const thin = markets && Number(markets) < 30 ? ` ${markets} markets is a short record: a few surprises would change the fit.` : '';
    const base =
      baseWeight === null
        ? ''
        : baseWeight === 0
          ? ' With c = 0 the series\' base rate adds nothing: the model is the price reshaped, so it is wrong wherever the market is.'
          : Math.abs(baseWeight) < 0.05
            ? ` With c = ${baseSaid}, near 0, the series' base rate barely moves it: the model is close to the price reshaped, so it is wrong wherever the market is.`
            : ` With c = ${baseSaid} it leans on the series' base rate where that differs from the price: if this event is unlike the past ones (new rules, a new regime), that lean is wrong.`;
    lines.push(`- **The model's limits:** it was fitted on ${markets ?? 'the'} settled markets of the series, each priced 24 hours before close${fit ? `. ${fit}` : '.'}${base}${thin} It reads prices and past outcomes only, no news, data releases or statements since: anything the market knows beyond the record is outside it.`);
  }
  const record = paragraph(report, 'resolution history', 'Base rates');
  if (record) lines.push(`- **The record it weighs against the price:** ${record.replace(/^\*\*Base rates\*\* \(([^)]*)\):/, '$1:')}`);
  const accuracy = paragraph(report, 'resolution history', 'Market accuracy');
  if (accuracy) lines.push(`- **How the market itself has done:** ${accuracy.replace(/^\*\*Market accuracy:\*\* /, '')}`);
  for (const rule of bullets(report, 'key claims', /\*\*(?:How it resolves|Resolution source|Could flip the outcome)/)) lines.push(rule);
  if (best && spread) lines.push(`- **Costs:** the edge is measured at the quotes: ${tradeSaid(best)}, on a ${spread} spread, before fees; a wider spread or a fee takes a cent-sized edge away.`);
  // In brief (one of several events): the view, the model's limits and what could flip the outcome.
  if (brief) return cited(`${lines.filter((l) => /^- \*\*(?:The view at stake|The model's limits|Could flip the outcome)/.test(l)).join('\n')}\n`, report.citations);
  const text = `What would have to be true for the model's view on ${titled(report)} to be wrong, from its report (as of ${asOf(report)}):\n\n${lines.join('\n')}\n\nThe report holds no forecast of the event beyond this: the model is wrong where the record or the price misleads it, and the rules above decide what counts.\n${footOf(report)}`;
  return cited(text, report.citations);
}

/** The report's timing facts for "when should I enter?": no advice, its dates, moves, spreads and surges. */
export function timingText(report: ReportRead): Answer {
  const facts = bullets(report, 'key claims', /\*\*(?:Trading closes|Price move|Prices 24 hours|Volume surge)/);
  const { rows, contracts } = readReport(report.text);
  const spreads = rows.flatMap((r) => {
    const c = contracts.get(outcomeOf(r.outcome).refs);
    return c ? [`${outcomeOf(r.outcome).name} ${c.spread}`] : [];
  });
  const source = bullets(report, 'key claims', /\*\*Resolution source/)[0]?.replace(/^- \*\*Resolution source:\*\*\s*/, '').replace(/\.?\s*(?:\[\d+\]\s*)*\.?$/, '');
  const text = `When to enter is yours to decide: I do not give trading advice, and nothing I read says where prices go next. What the report on ${titled(report)} says about timing (as of ${asOf(report)}):\n\n${facts.join('\n')}${spreads.length ? `\n- **Spreads now:** ${spreads.join('; ')}: what crossing the spread costs, entering now or later.` : ''}\n- **Catalysts before close:** the report lists none but the resolution itself${source ? ` (${source})` : ''}; it reads no news or economic calendar.\n\nWaiting trades the current price for a later one, which can be better or worse; the moves above are the past week's, not a forecast.\n${footOf(report)}`;
  return cited(text, report.citations);
}

/**
 * What changed since a report: the live quotes beside the report's, when newer ones can be read;
 * otherwise that there is no data newer than its snapshot (the moves it lists are before it).
 */
export function changedText(report: Report, live: ReportRead | null): Answer {
  const before = readReport(report.text).contracts;
  const newer = live && Date.parse(live.asOf) > Date.parse(report.asOf);
  if (!newer) {
    const moves = bullets(report, 'key claims', /\*\*Price move/);
    const snapshot = report.source === 'snapshot' ? 'is from a recorded snapshot (offline data), and the quotes I can read now are that same snapshot' : 'is the newest data I can read';
    const text = `Nothing newer than the report can be compared: the report on ${titled(report)} was built from data as of ${asOf(report)}, which ${snapshot}, so I have no prices after it.${moves.length ? `\n\nThe moves the report lists are before that time, over the 24 hours and 7 days up to it, not since:\n\n${moves.join('\n')}` : ''}\n\n\`svc-prediction-markets-agent:refresh\` regenerates the report when live prices are available.\n${footOf(report)}`;
    return cited(text, report.citations);
  }
  const now = readReport(live.text).contracts;
  const lines: string[] = [];
  for (const [refs, was] of before) {
    const is = [...now.values()].find((c) => c.ticker === was.ticker);
    if (!is) continue;
    const [b0, a0, b1, a1] = [dollars(was.bid), dollars(was.ask), dollars(is.bid), dollars(is.ask)];
    const same = b0 === b1 && a0 === a1;
    lines.push(`- **${was.ticker}** ${refs}: bid/ask ${was.bid}/${was.ask} in the report, ${is.bid}/${is.ask} now${same ? ' (unchanged)' : ''}.`);
  }
  const text = `Since the report on ${titled(report)} (as of ${asOf(report)}), against Kalshi's quotes as of ${asOf(live)}:\n\n${lines.join('\n') || '- no contract of the report could be matched with the live quotes'}\n\nThe model's probabilities are the report's; \`svc-prediction-markets-agent:refresh\` regenerates them on the new prices.\n${footOf(report)}`;
  return cited(text, report.citations);
}

/** An outcome's spread in cents and as a share of its mid ("4¢, 40% of the 10¢ mid"). */
export function spreadShareText(report: ReportRead, named: readonly ReturnType<typeof readReport>['rows'][number][]): Answer | null {
  const { contracts } = readReport(report.text);
  const lines = named.flatMap((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    const [bid, ask] = [dollars(c?.bid), dollars(c?.ask)];
    if (bid === null || ask === null) return [];
    const spread = Math.round((ask - bid) * 100);
    const mid = Math.round(((ask + bid) / 2) * 1000) / 10;
    return [`- **${name}**: bid ${c!.bid}, ask ${c!.ask}: a spread of **${spread}¢**, **${((100 * spread) / mid).toFixed(1).replace(/\.0$/, '')}% of the ${money(mid)}¢ mid** ${refs}.`];
  });
  if (!lines.length) return null;
  return cited(`${lines.join('\n')}\n\nThe spread is what buying at the ask and selling at the bid costs at once; as a share of the mid it is large on cheap contracts.\n${footOf(report)}`, report.citations);
}
