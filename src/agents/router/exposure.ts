import { labelRange, type SideCover } from '../markets-search/asked.js';
import { listed } from '../citations.js';
import { byLevel, dollars, levelOfRow, outcomeOf, refsOf, rungSide, type Contract, type Row } from './report-rows.js';

const names = (rs: Row[]) => listed(rs.map((r) => outcomeOf(r.outcome).name));
const either = (rs: Row[]) => rs.map((r) => outcomeOf(r.outcome).name).join(' or ');

// "Cheapest way to get exposure above 52?" of a ladder or of exclusive buckets: which contracts pay
// if the result lands on that side, what each costs at the report's quotes, and which is cheapest
// per dollar of payout. Arithmetic on the quotes, no advice.

/** Exposure to one side of a level asked ("cheapest way to get exposure above 52?", "which contracts pay if it's over 3.0?"). */
export const EXPOSURE_ASKED = /\bexposure\b|\b(?:cheapest|cheaper|least expensive|most efficient|best) (?:way|route|contracts?|bet|play|position|trade)\b[^?]*\b(?:above|over|below|under|at least|at most|more than|less than|higher than|lower than)\b|\b(?:which|what) contracts? (?:pay|win|pays|cover)\b|\bhow (?:do|can|could|would) (?:i|we|you) (?:get paid|bet|play|position|be long|be short)\b[^?]*\b(?:above|over|below|under|more than|less than)\b/i;

const cents = (x: number) => `$${x.toFixed(2)}`;
const ask = (r: Row, contracts: Map<string, Contract>) => dollars(contracts.get(outcomeOf(r.outcome).refs)?.ask);
const bid = (r: Row, contracts: Map<string, Contract>) => dollars(contracts.get(outcomeOf(r.outcome).refs)?.bid);

interface Route {
  /** What to buy. */
  what: string;
  /** When it pays $1 (of the result asked about). */
  pays: string;
  /** Cost of $1 paid on the side asked: the stake, less what it pays whatever happens. */
  perDollar: number;
  detail: string;
  rows: Row[];
  /** Pays in every case of the side asked (not only part of it). */
  whole: boolean;
}

/** Of exclusive buckets: YES on those wholly on the side (with the one the level splits), or NO on every one on the other side. */
function bucketRoutes(rows: Row[], contracts: Map<string, Contract>, side: 'above' | 'below', said: string, cover: SideCover<Row>): Route[] | string {
  const routes: Route[] = [];
  const yesOn = (rs: Row[], pays: string, whole: boolean) => {
    const asks = rs.map((r) => ask(r, contracts));
    if (!rs.length || asks.some((a) => a === null)) return;
    const cost = asks.reduce((s, a) => s! + a!, 0)!;
    const each = rs.map((r, i) => `${outcomeOf(r.outcome).name} ${cents(asks[i]!)}`).join(' + ');
    routes.push({ what: `YES on ${names(rs)}`, pays: `$1 ${pays}`, perDollar: cost, detail: `${rs.length > 1 ? `${each} = ` : ''}${cents(cost)} for a set that pays $1 (the buckets exclude each other, so one of them pays)`, rows: rs, whole });
  };
  const splitName = cover.split ? outcomeOf(cover.split.outcome).name : null;
  yesOn(cover.whole, cover.split ? `only if it lands in ${either(cover.whole)}, not in the part of ${splitName} ${side} ${said}` : `if it is ${side} ${said}`, !cover.split);
  if (cover.split) yesOn([cover.split, ...cover.whole], `if it lands in ${either([cover.split, ...cover.whole])}: every case ${side} ${said}, and the rest of ${splitName} too`, true);
  // NO on each bucket on the other side: all pay on the side asked, all but one otherwise.
  const other = rows.filter((r) => !cover.whole.includes(r) && r !== cover.split);
  const noCosts = other.map((r) => bid(r, contracts));
  if (other.length && noCosts.every((b) => b !== null && b > 0)) {
    const cost = noCosts.reduce((s, b) => s! + (1 - b!), 0)!;
    const k = other.length;
    const each = other.map((r, i) => `${outcomeOf(r.outcome).name} ${cents(1 - noCosts[i]!)}`).join(' + ');
    const floor = k - 1;
    routes.push({
      what: `NO on ${names(other)}`,
      pays: `$${k} if it lands outside them (${cover.split ? `every case ${side} ${said}, and the rest of ${splitName} too` : `${side} ${said}`})${floor ? `, $${floor} whatever happens` : ''}`,
      perDollar: cost - floor,
      detail: `${k > 1 ? `${each} = ` : ''}${cents(cost)} (each NO at 1 minus its YES bid)${floor ? `; $${floor} of that comes back whatever happens, so the $1 that depends on the result costs ${cents(cost - floor)}` : ''}`,
      rows: other,
      whole: true,
    });
  } else if (other.length) {
    routes.push({ what: `NO on ${names(other)}`, pays: `$${other.length} if it lands outside them`, perDollar: Infinity, detail: 'not priced: not every one of them has a YES bid in the report, so its NO has no price', rows: other, whole: false });
  }
  return routes.length ? routes : 'the report has no quotes to buy these at';
}

/** Of a ladder of "Above" (or "Below") rungs: YES on the rung at the level, or on those beyond it (narrower) or short of it (wider). */
function ladderRoutes(rows: Row[], contracts: Map<string, Contract>, side: 'above' | 'below', level: number, said: string): Route[] {
  const routes: Route[] = [];
  for (const r of byLevel(rows)) {
    const at = levelOfRow(r)!;
    const rung = rungSide(labelRange(outcomeOf(r.outcome).name)) ?? 'above';
    // YES on a rung of the side asked pays beyond its level; NO on a rung of the other side, short of it.
    const [price, bought] = rung === side ? [ask(r, contracts), 'YES'] : [bid(r, contracts) === null ? null : 1 - bid(r, contracts)!, 'NO'];
    if (price === null || price <= 0) continue;
    // Of the side asked: a rung at the level pays exactly there; one short of it pays in more cases (all of those asked); one beyond, in fewer.
    const wider = side === 'above' ? at < level : at > level;
    const exact = at === level;
    // (NO on an "Above 3.0" rung pays at 3.0 itself too: "not above 3.0".)
    const label = outcomeOf(r.outcome).name.replace(/^(?:above|below)\s+/i, '');
    const beyond = bought === 'YES' ? `${side} ${label}` : `not ${rung} ${label}`;
    const pays = `$1 ${exact ? `if it is ${beyond}` : wider ? `if it is ${beyond}: every case ${side} ${said} and more` : `only if it is ${beyond}, not in every case ${side} ${said}`}`;
    routes.push({ what: `${bought} on ${outcomeOf(r.outcome).name}`, pays, perDollar: price, detail: `${cents(price)} for $1 (${bought === 'YES' ? 'at the ask' : '1 minus its YES bid'})`, rows: [r], whole: exact || wider });
  }
  return routes;
}

/** The answer: each route, its cost per $1 of payout, the cheapest of those that pay in every case asked. */
export function exposureText(rows: Row[], contracts: Map<string, Contract>, side: 'above' | 'below', level: number, said: string, ladder: boolean, cover: SideCover<Row> | null): string | null {
  const routes = ladder ? ladderRoutes(rows, contracts, side, level, said) : cover ? bucketRoutes(rows, contracts, side, said, cover) : null;
  if (!routes || typeof routes === 'string' || !routes.length) return null;
  const lines = routes.map((r) => `- **${r.what}** pays ${r.pays}: ${r.detail} ${refsOf(r.rows)}.`);
  const full = routes.filter((r) => r.whole).sort((a, b) => a.perDollar - b.perDollar);
  const cheapest = full[0];
  const verdict = cheapest
    ? `Cheapest per dollar of payout of those that pay in every case ${side} ${said}: **${cheapest.what}**, ${cents(cheapest.perDollar)} for each $1 it pays on that side (before fees).`
    : `None of these pays in every case ${side} ${said}.`;
  return `Contracts that pay if the result is ${side} ${said}, at the report's quotes:\n\n${lines.join('\n')}\n\n${verdict} This is arithmetic on the report's prices, not investment advice: prices move, a cheaper route may pay in fewer cases, and fees are not counted.`;
}
