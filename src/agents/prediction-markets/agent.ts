import type { Logger } from 'pino';
import { mayPay, planRequired, type Billing } from '../../billing/service.js';
import { KalshiClient } from '../../data/kalshi/client.js';
import { EXPECTED_FORM, confirmEventAddress, parseEventUrl, type EventAddress } from '../../data/kalshi/url.js';
import { SvcError, isSvcError, notFound, withMessage, withMeta } from '../../errors.js';
import { FlightAbandoned, type Flight, type ReportFlights } from '../../reports/flights.js';
import type { Report, ReportStore } from '../../reports/store.js';
import type { Agent, AgentEvent, AgentRequest, Caller } from '../types.js';
import { countPromptTokens, countTextTokens } from '../usage.js';
import { writeReport } from './report.js';
import { eventNotFound, noMarkets, research } from './research.js';

export const AGENT_ID = 'svc-prediction-markets-agent';
const WHAT = 'Generating a prediction-market report';

export interface PredictionMarketsOptions {
  kalshi: KalshiClient;
  reports: ReportStore;
  flights: ReportFlights;
  billing: Billing;
  costCredits: number;
  /** Kalshi API base URL, for data citations. */
  apiUrl: string;
  log: Logger;
  /**
   * Answers a turn without an address that continues a conversation about an event ("tl;dr?",
   * "where's the edge?" after its report): svc-agent, which answers from the stored report and
   * never generates one. Without it, such a turn is refused as no address.
   */
  followUps?: Agent;
}

/** The question of a conversation: its last user turn. */
function lastUserText(req: AgentRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) if (req.messages[i]!.role === 'user') return req.messages[i]!.content;
  return '';
}

const FOLLOW_UP = Symbol('a follow-up about the event of an earlier turn');

/**
 * The address a turn asks a report of: the turn itself, or the one Kalshi address in a sentence
 * ("a report on <address> pls"); FOLLOW_UP for a turn with none after one that had one.
 */
function askedAddress(req: AgentRequest): string | typeof FOLLOW_UP {
  const text = lastUserText(req);
  try {
    parseEventUrl(text);
    return text;
  } catch (err) {
    const words = text.trim().split(/\s+/);
    const addresses = words.filter((w) => /kalshi\.com\//i.test(w));
    if (words.length > 1 && addresses.length === 1) return addresses[0]!;
    const earlier = req.messages.slice(0, -1).some((m) => m.role === 'user' && /kalshi\.com\/markets\/|^\s*kx[a-z0-9]*-\S+\s*$/i.test(m.content));
    if (!addresses.length && earlier) return FOLLOW_UP;
    throw err;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

// A stored report is served again and again: its generation time is written once.
const generatedAtIso = new WeakMap<Report, string>();
function generatedAt(report: Report): string {
  let at = generatedAtIso.get(report);
  if (at === undefined) generatedAtIso.set(report, (at = iso(report.generatedAt)));
  return at;
}

/** A report as the answer: one whole-answer event (the encoders stream it in chunks), its usage, done. */
function* streamReport(report: Report, req: AgentRequest): Generator<AgentEvent> {
  yield { type: 'answer', answer: report };
  yield { type: 'usage', usage: { inputTokens: countPromptTokens(req.messages, req.instructions), outputTokens: report.outputTokens } };
  yield { type: 'done' };
}

/** Waits for a flight, passing its progress on; stops waiting (the work goes on) if the caller leaves. */
async function* awaitFlight(flight: Flight, signal: AbortSignal): AsyncGenerator<AgentEvent, Report> {
  let seen = 0;
  let wake: (() => void) | null = null;
  const stop = flight.listen(() => wake?.());
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    for (;;) {
      while (seen < flight.progress.length) yield { type: 'progress', message: flight.progress[seen++]! };
      if (flight.settled) return await flight.done;
      if (signal.aborted) throw new SvcError('invalid_request', { code: 'client_disconnected', message: 'The client left; the report is still being generated and will be stored.' });
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  } finally {
    stop();
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * svc-prediction-markets-agent: a research report for a Kalshi event. The default variant
 * serves a stored report (free) or generates one; `:cache` only serves; `:refresh` always
 * generates. Generating is single-flight per event (joiners wait and pay nothing), paid with
 * a hold that is captured once the report is stored and released if generation fails.
 */
export function predictionMarketsAgent(o: PredictionMarketsOptions): Agent {
  const cost = o.costCredits;
  /** The server is shutting down past its grace period: the generation gives up (and its credits back). */
  const untilStopped = <T>(work: Promise<T>, stop: AbortSignal): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onStop = () => reject(new SvcError('unavailable', { code: 'shutting_down', message: 'The server shut down before the report was ready; nothing was charged. Try again shortly.', retryAfterSeconds: 5 }));
      if (stop.aborted) return onStop();
      stop.addEventListener('abort', onStop, { once: true });
      work.then(resolve, reject).finally(() => stop.removeEventListener('abort', onStop));
    });
  const credits = async (caller: Caller, charged: number) => ({ charged, remaining: await o.billing.balance(caller.accountId) });

  /** `payer.holdId` null: a generation nobody pays for (a joiner that took over, see run). */
  async function generate(address: EventAddress, payer: { caller: Caller; requestId: string; holdId: string | null }, progress: (m: string) => void, stop: AbortSignal): Promise<Report> {
    const started = Date.now();
    try {
      progress(`Fetching ${address.eventTicker} from Kalshi: markets, order books, candlesticks and the series' settled history.`);
      const r = await untilStopped(research(o.kalshi, address.eventTicker), stop);
      progress(`Fitting the model on ${r.observations.length} settled markets and writing the report.`);
      const snap = o.kalshi.source.recordedAt;
      const source = snap ? ({ mode: 'snapshot', recordedAt: snap, note: o.kalshi.source.note } as const) : ({ mode: 'live' } as const);
      const body = writeReport(r, { apiUrl: o.apiUrl, source });
      // The sweeper gives back a hold whose lease lapsed (renewals stalled: a database outage, a
      // blocked process). A report stored after that would be served unpaid, so the hold must
      // still be there, for another whole lease, before the report is stored.
      if (payer.holdId && !(await o.billing.renew(payer.holdId))) {
        // This process stalled past its claim and another replica took the generation over on this
        // hold, stored the report and captured the hold: that report is this request's, paid once.
        const paid = (await o.billing.getHold(payer.holdId))?.state === 'captured' ? await o.reports.paidWith(payer.holdId) : null;
        if (paid) {
          o.log.warn({ event: address.eventTicker, hold: payer.holdId, version: paid.version }, 'generation taken over while this process stalled; answering with the report stored on its hold');
          return paid;
        }
        throw new SvcError('unavailable', {
          code: 'generation_unpaid',
          message: 'The report took so long that its credit hold lapsed and was given back, so the report was not kept and nothing was charged. Send the request again.',
          retryAfterSeconds: 1,
        });
      }
      const report = await o.reports.save({
        eventTicker: address.eventTicker,
        seriesTicker: body.seriesTicker,
        title: body.title,
        text: body.text,
        citations: body.citations,
        outputTokens: countTextTokens(body.text),
        asOf: body.asOf,
        source: source.mode,
        generatedAt: Date.now(),
        accountId: payer.caller.accountId,
        holdId: payer.holdId,
      });
      const captured =
        payer.holdId &&
        (await o.billing.capture(payer.holdId, payer.requestId).catch((err) => {
          o.log.warn({ err, hold: payer.holdId }, 'report stored but its hold could not be captured');
          return null;
        }));
      o.log.info({ event: address.eventTicker, version: report.version, ms: Date.now() - started, captured }, 'report generated');
      return report;
    } catch (err) {
      if (payer.holdId) await o.billing.release(payer.holdId, 'report generation failed', payer.requestId).catch((e) => o.log.error({ err: e, hold: payer.holdId }, 'could not release a hold'));
      if (isSvcError(err)) throw err;
      o.log.error({ err, event: address.eventTicker }, 'report generation failed');
      throw new SvcError('internal', { code: 'generation_failed', message: 'The report generation failed unexpectedly; nothing was charged.' });
    }
  }

  return {
    id: AGENT_ID,
    description: `Research report for a Kalshi event (input: the event page address): model vs market probability per outcome, catalysts, resolution history, contract snapshot. Serves the stored report free when there is one; otherwise generates one (${cost} credits; Plus, Pro or Enterprise plan).`,
    emptyInput: { code: 'invalid_event_url', hint: `Send the address of a Kalshi event page: ${EXPECTED_FORM}.` },
    variants: [
      { name: 'cache', description: 'The latest stored report for the event, free on every plan and fastest; 404 report_not_cached when none is stored.' },
      { name: 'refresh', description: `Always generates a new report from current data (${cost} credits; Plus, Pro or Enterprise plan).` },
    ],
    async *run(req) {
      const asked = askedAddress(req);
      if (asked === FOLLOW_UP && o.followUps) return yield* o.followUps.run(req);
      const address = parseEventUrl(asked === FOLLOW_UP ? lastUserText(req) : asked);
      const ticker = address.eventTicker;
      const variant = req.model.variant;
      // A market's address is refused (naming its event) before anything else; only the exchange can tell.
      if (address.marketLike && !(await o.reports.latest(ticker))) await confirmEventAddress(address, o.kalshi);

      if (variant !== 'refresh') {
        const stored = await o.reports.latest(ticker);
        if (stored) {
          yield { type: 'meta', meta: { reportCache: 'hit', reportGeneratedAt: generatedAt(stored), credits: variant === null ? await credits(req.caller, 0) : undefined } };
          yield* streamReport(stored, req);
          return;
        }
        if (variant === 'cache') {
          // An event the exchange does not know is said so: generating would fail too. When the
          // exchange cannot be reached, the answer is still that nothing is stored.
          const event = await o.kalshi.event(ticker).catch(() => undefined);
          if (event === null) throw eventNotFound(o.kalshi, ticker);
          throw notFound('report_not_cached', `No report is stored for ${ticker} yet. The model '${AGENT_ID}' generates one (${cost} credits, Plus plan or above); '${AGENT_ID}:cache' then serves it free.`, 'model');
        }
      }

      // Generating needs a paid plan, whether this request would lead the generation or join one.
      // An event the exchange does not know is said so first (no plan would help); when the exchange
      // cannot be reached, the plan is what the caller can act on.
      if (!mayPay(req.caller.plan)) {
        if ((await o.kalshi.event(ticker).catch(() => undefined)) === null) throw eventNotFound(o.kalshi, ticker);
        throw planRequired(req.caller.plan, WHAT, await o.billing.balance(req.caller.accountId));
      }

      // The event must exist before anything is charged; a refusal here says so in its headers,
      // like every other answer of the paid path.
      try {
        const event = await o.kalshi.event(ticker);
        if (!event) throw eventNotFound(o.kalshi, ticker);
        if (!event.markets?.length) throw noMarkets(ticker);
      } catch (err) {
        if (!isSvcError(err) || err.meta?.credits) throw err;
        const balance = await credits(req.caller, 0).catch(() => null);
        throw balance ? withMeta(err, { credits: balance }) : err;
      }

      // Told it joined a generation (charged 0): if that generation's server stops and this
      // request ends up leading the next one, that one is free too, as the spec promises joiners.
      let joined = false;
      // The hold of a generation this request had joined whose server then died: its payer asked
      // for this report, so the request that takes it over generates on that hold.
      let orphanHold: string | null = null;
      for (;;) {
        const entry = await o.flights.enter(ticker);
        if (entry.role === 'join') {
          try {
            await entry.flight.started;
          } catch (err) {
            if (err instanceof FlightAbandoned) continue;
            throw err;
          }
          if (!joined) yield { type: 'meta', meta: { reportCache: 'joined', credits: await credits(req.caller, 0) } };
          joined = true;
          let report: Report;
          try {
            report = yield* awaitFlight(entry.flight, req.signal);
          } catch (err) {
            // The replica leading it died or shut down mid-generation: start over (perhaps leading).
            if (err instanceof FlightAbandoned) {
              orphanHold = err.holdId ?? orphanHold;
              continue;
            }
            throw err;
          }
          yield { type: 'meta', meta: { reportGeneratedAt: generatedAt(report) } };
          yield* streamReport(report, req);
          return;
        }
        const { lead } = entry;
        if (variant === null) {
          // Stored while this request looked the event up, or by the flight it had joined before
          // that one's leader stopped: served free, not generated (and charged) a second time.
          const stored = await o.reports.latest(ticker, { fresh: true }).catch(async (err) => {
            await lead.abandon();
            throw err;
          });
          if (stored) {
            await lead.abandon();
            yield { type: 'meta', meta: { reportCache: 'hit', reportGeneratedAt: generatedAt(stored), credits: await credits(req.caller, 0) } };
            yield* streamReport(stored, req);
            return;
          }
        }
        // A joiner that took over generates free (see `joined`); any other leader pays first.
        let holdId: string | null = null;
        let adoptedFrom: string | null = null;
        let remaining = 0;
        // Stopped before anything was paid for (a background response cancelled, a client gone while
        // the event was looked up): nothing is charged or generated.
        if (req.signal.aborted) {
          await lead.abandon();
          throw new SvcError('invalid_request', { code: 'client_disconnected', message: 'The request was stopped before the report was paid for; nothing was charged or generated.' });
        }
        if (!joined) {
          let held: Awaited<ReturnType<Billing['hold']>>;
          try {
            // One hold per generation. A retry under the same Idempotency-Key maps to the same job,
            // so it is never debited twice; a job whose hold was released (it failed) may pay again.
            const job = req.idempotencyKey ? `report:${req.caller.accountId}:${req.idempotencyKey}` : `report:${lead.flight.jobId}`;
            // Named with its event: the account's credit history says what each charge was for.
            const hold = (jobId: string) => o.billing.hold({ accountId: req.caller.accountId, amount: cost, jobId, what: `${WHAT} for ${ticker}`, requestId: req.requestId });
            held = await hold(job);
            if (!held.created && held.hold.state === 'released') held = await hold(`${job}:${lead.flight.jobId}`);
          } catch (err) {
            await lead.abandon();
            throw err;
          }
          if (!held.created) {
            // Already paid under this key: that generation ran (captured) or is running elsewhere.
            await lead.abandon();
            const paid = held.hold.state === 'captured' ? await o.reports.latest(ticker, { fresh: true }) : null;
            if (!paid) {
              throw new SvcError('conflict', { code: 'idempotency_key_in_progress', message: 'A request with this Idempotency-Key is still generating the report; retry shortly to receive it.', retryAfterSeconds: 2 });
            }
            yield { type: 'meta', meta: { reportCache: 'hit', reportGeneratedAt: generatedAt(paid), credits: await credits(req.caller, 0) } };
            yield* streamReport(paid, req);
            return;
          }
          holdId = held.hold.id;
          remaining = held.remaining;
        } else {
          // Taking over a generation whose server died: it goes on on the hold that paid for it
          // (captured once the report is stored), so the report is paid once, not given away
          // while the sweeper returns that hold. That is the dead generation's own hold, or, for
          // the retry of the request that led it (its Idempotency-Key), the one that request took.
          const own = req.idempotencyKey ? await o.billing.findHold(`report:${req.caller.accountId}:${req.idempotencyKey}`).catch(() => null) : null;
          for (const id of [orphanHold, own?.id]) {
            const hold = id ? await o.billing.getHold(id).catch(() => null) : null;
            if (hold?.state === 'held' && (await o.billing.renew(hold.id).catch(() => false))) {
              holdId = hold.id;
              adoptedFrom = hold.accountId;
              break;
            }
          }
        }
        const payer = { caller: req.caller, requestId: req.requestId, holdId };
        // Started before anything is yielded: a consumer that stops reading at the next yield closes
        // this generator there, and the paid generation (and the flight others join) must go on.
        void lead.run(
          (progress, stop) => {
            const work = () => generate(address, payer, progress, stop);
            if (!payer.holdId) return work();
            const hold = payer.holdId;
            return o.billing.whileHeld(hold, work, (err) => o.log.warn({ err, hold }, 'could not renew the lease of a hold'));
          },
          {
            holdId,
            notStarted: async () => {
              if (payer.holdId) await o.billing.release(payer.holdId, 'report generation could not start', payer.requestId);
            },
          },
        );
        if (holdId && !joined) yield { type: 'meta', meta: { reportCache: 'miss', credits: { charged: cost, remaining } } };
        // Taken over on this account's own earlier hold (its retry): what this request is charged
        // (a stream's headers already went out as joined, and its first attempt's said it).
        else if (holdId && adoptedFrom === req.caller.accountId) yield { type: 'meta', meta: { credits: await credits(req.caller, cost) } };
        let report: Report;
        try {
          report = yield* awaitFlight(lead.flight, req.signal);
        } catch (err) {
          // The generation failed and its hold was released: the answer says so, not the "charged 3"
          // said before (a stream's headers went out with that, so its error says it too).
          if (!isSvcError(err) || req.signal.aborted) throw err;
          const given = holdId && !/nothing was charged/i.test(err.message) ? withMessage(err, `${err.message} Nothing was charged: the ${cost} credits held for this report were given back.`) : err;
          throw withMeta(given, { credits: await credits(req.caller, 0) });
        }
        yield { type: 'meta', meta: { reportGeneratedAt: generatedAt(report) } };
        yield* streamReport(report, req);
        return;
      }
    },
  };
}
