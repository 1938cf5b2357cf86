import type { Report } from '../../reports/store.js';
import { routedText } from './classify.js';
import { outcomeOf, percent, readReport, refsOf, sumOf, type Row } from './report-rows.js';

// "By how much?" right after "will it happen?" was answered ("**Yes**: **Shutdown** is at 58.0%,
// more likely than not"): how far the market and the model put it from even, from the report.

/** "By how much?", "how much more likely?", "what's the margin?": the size of a verdict just given. */
export const MARGIN_ASKED = /^\W*(?:(?:and|ok|okay|so|but|right)\W+)*(?:(?:by\s+)?how (?:much|far)(?:\s+(?:more|less)(?:\s+(?:likely|probable))?)?(?:\s+(?:then|exactly|over|above|below|under|is it|more than even|over even|over 50\s*%?))?|(?:what(?:'s| is)\s+)?(?:the\s+)?margin|by what margin)\W*$/i;

/** A likelihood verdict from a report: "**Yes**: **Shutdown** is at 58.0% (mid), more likely than not on the market's price; …". */
const VERDICT = /^\*\*(?:Yes|No|About even)\*\*: ([^\n]*?)(?:,| is| are)[^\n]*\b(?:more likely than not|less likely than not|close to even) on the market's price/;

/** The outcome an answer from a report gave alone, as its line ("- **Hold**: market 16.0% …"), in bold; null when it gave none so. */
function outcomeLines(answer: string): string | null {
  if (!/_From the stored report on /.test(answer)) return null;
  const head = answer.trimStart().split(/\n\s*\n/)[0]!;
  const lines = head.split('\n');
  const one = lines.length === 1 ? /^- (\*\*[^*\n]+\*\*): market \d/.exec(lines[0]!) : null;
  return one ? one[1]! : null;
}

/**
 * How far the outcomes the verdict named are from 50% on the market (its price normalised, as the
 * verdict read it) and on the model, or null when the answer before was no such verdict.
 */
export function marginText(question: string, lastAnswer: string, r: Report): string | null {
  if (!MARGIN_ASKED.test(routedText(question).trim())) return null;
  // (After an outcome's line, "- **56°F or above**: market 43.0% …, model 37.0%", the outcomes it gave, one a line.)
  const said = VERDICT.exec(lastAnswer.trimStart())?.[1] ?? outcomeLines(lastAnswer);
  if (!said) return null;
  const { rows } = readReport(r.text);
  const named = rows.filter((x) => said.includes(`**${outcomeOf(x.outcome).name}**`));
  if (!named.length) return null;
  const market = sumOf(named, (x) => x.marketNormalised);
  const model = sumOf(named, (x) => x.modelValue);
  const from = (p: number) => (Math.abs(p - 50) < 0.05 ? 'exactly even (50%)' : `**${Math.abs(p - 50).toFixed(1)} pts ${p > 50 ? 'above' : 'below'}** even (50%)`);
  const what = named.length === 1 ? `**${outcomeOf(named[0]!.outcome).name}**` : `${named.map((x) => `**${outcomeOf(x.outcome).name}**`).join(' and ')} together`;
  const normalised = named.some((x: Row) => x.marketNormalised !== x.marketValue) ? ' (normalised: the prices shared out to 100%)' : '';
  const modelSaid = Number.isFinite(model) ? `; the model, at ${percent(model)}, puts it ${from(model)}` : '';
  const gap = Number.isFinite(model) ? ` The model is ${Math.abs(model - market).toFixed(1)} pts ${model >= market ? 'above' : 'below'} the market.` : '';
  return `${what} is ${from(market)} on the market, at ${percent(market)}${normalised}${modelSaid} ${refsOf(named)}.${gap}`;
}
