import type { Kysely } from 'kysely';
import type { Answer, InputTurn } from '../agents/types.js';
import type { Database } from '../store/schema.js';
import { WriteBehind } from '../store/write-behind.js';
import type { ResponseParams } from '../wire/responses.js';
import { citationsOf, readStoredForm, referencesOf, storedForm, wholeAnswerRef, type StoredTranscriptEntry, type TranscriptEntry } from './transcript.js';

/** A stream event as sent: `type` and `sequence_number` plus the event's fields. */
export type WireEvent = { type: string; sequence_number: number } & Record<string, unknown>;

export interface ResponseRecord {
  id: string;
  accountId: string;
  model: string;
  messageId: string;
  conversation: InputTurn[];
  instructions: string | null;
  params: ResponseParams;
  createdAt: number;
}

export interface StoredResponse extends ResponseRecord {
  status: string;
  outputText: string;
  transcript: TranscriptEntry[];
  completedAt: number | null;
}

/** A response being produced by this process right now. */
export interface LiveResponse {
  /** Stream events as they are sent, for readers following along. */
  append(events: readonly WireEvent[]): void;
  /** Records how it ended; only the first call counts. */
  finish(result: { status: string; outputText: string; transcript: TranscriptEntry[]; completedAt: number }): void;
}

export type Found =
  | { live: true; record: ResponseRecord; snapshot: () => Record<string, unknown>; status: string }
  | { live: false; stored: StoredResponse };

type Row = Database['responses'];

interface Live {
  record: ResponseRecord;
  snapshot: () => Record<string, unknown>;
  events: WireEvent[];
  waiters: Set<() => void>;
  done: boolean;
  /** Stops a background response (its owner cancelled it); null for responses that cannot be. */
  cancel: (() => void) | null;
}

/** Rows per INSERT: 13 parameters each, well under SQLite's 32766 and Postgres's 65535. */
const INSERT_CHUNK = 200;
/** Ids per lease-renewing UPDATE. */
const RENEW_CHUNK = 500;

const TERMINAL = new Set(['completed', 'failed', 'incomplete', 'cancelled']);

/** How a response whose producer died ends, for everyone who reads or follows it afterwards. */
const INTERRUPTED = {
  kind: 'unavailable',
  code: 'response_interrupted',
  message: 'The server producing this response stopped before it finished, so nothing more will come; send the request again.',
  param: null,
} as const;

/** How a followed response ends when it is deleted meanwhile. */
const DELETED = { kind: 'not_found', code: 'response_deleted', message: 'This response was deleted while it was being followed.', param: null } as const;

/**
 * A transcript written by someone other than the producer, without its events: its lease lapsed
 * (interrupted), or another replica marked it cancelled. Followers may have seen more events
 * than it rebuilds, so its ending is numbered on from what they saw.
 */
const writtenWithoutProducer = (t: readonly TranscriptEntry[]) => t.length === 1 && ((t[0]![0] === 'f' && t[0]![2].code === INTERRUPTED.code) || t[0]![0] === 'x');
const TERMINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete']);

/** A conversation as stored: turns that are kept answers hold only their reference when `refer` (and their sources come with it). */
type StoredTurn = InputTurn | { role: 'assistant'; answerRef: string; itemId?: string };

function storedConversation(conversation: InputTurn[], refer: boolean): string {
  if (!refer || !conversation.some((t) => t.answerRef)) return JSON.stringify(conversation);
  return JSON.stringify(conversation.map((t): StoredTurn => (t.answerRef ? { role: 'assistant', answerRef: t.answerRef, ...(t.itemId ? { itemId: t.itemId } : {}) } : t)));
}

/**
 * A completed response's answer as an assistant turn, under its message id and with its sources;
 * a served report by reference (rows continuing it keep no copy of it).
 */
export function answerTurn(stored: StoredResponse): InputTurn {
  const answerRef = wholeAnswerRef(stored.transcript, stored.outputText);
  const cited = citationsOf(stored.transcript);
  return { role: 'assistant', content: stored.outputText, ...(answerRef ? { answerRef } : {}), itemId: stored.messageId, ...(cited.length ? { citations: cited } : {}) };
}

/** The input item id input_items shows for turn `index` of a response that has no id of its own: it was sent with that response. */
export const sentItemId = (messageId: string, index: number) => `${messageId.replace(/^msg_/, 'msg_in_')}_${index}`;

function toRow(r: ResponseRecord, status: string, outputText: string, transcript: TranscriptEntry[], completedAt: number | null, refer: boolean, leaseExpiresAt: number | null = null): Row {
  const stored = storedForm(transcript, outputText, refer);
  return {
    id: r.id,
    account_id: r.accountId,
    model: r.model,
    status,
    message_id: r.messageId,
    conversation: storedConversation(r.conversation, refer),
    instructions: r.instructions,
    output_text: stored.text,
    params: JSON.stringify(r.params),
    transcript: JSON.stringify(stored.transcript),
    created_at: r.createdAt,
    completed_at: completedAt,
    lease_expires_at: leaseExpiresAt,
  };
}

/** Finds an answer kept elsewhere (`report:<id>`) that a stored transcript refers to. */
export type AnswerLookup = (ref: string) => Promise<Answer | null>;

async function fromRow(r: Row, lookup: AnswerLookup | undefined): Promise<StoredResponse> {
  const entries = JSON.parse(r.transcript) as StoredTranscriptEntry[];
  const turns = JSON.parse(r.conversation) as StoredTurn[];
  const answers = new Map<string, Answer>();
  const refs = referencesOf(entries);
  for (const t of turns) if (!('content' in t)) refs.push(t.answerRef);
  for (const ref of refs) {
    if (answers.has(ref)) continue;
    const answer = lookup ? await lookup(ref) : null;
    if (answer) answers.set(ref, answer);
  }
  const { transcript, outputText } = readStoredForm(entries, r.output_text, answers);
  const conversation = turns.map((t): InputTurn => {
    if ('content' in t) return t;
    const answer = answers.get(t.answerRef);
    if (!answer) throw new Error(`stored conversation refers to ${t.answerRef}, which is not stored`);
    return { role: t.role, content: answer.text, answerRef: t.answerRef, citations: [...answer.citations], ...(t.itemId ? { itemId: t.itemId } : {}) };
  });
  return {
    id: r.id,
    accountId: r.account_id,
    model: r.model,
    status: r.status,
    messageId: r.message_id,
    conversation,
    instructions: r.instructions,
    outputText,
    params: JSON.parse(r.params) as ResponseParams,
    transcript,
    createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

/**
 * Stored Responses, kept for GET, replay and `previous_response_id`. Rows are written
 * behind the request in batches. While a response is being produced, this process serves
 * it from memory, so readers never wait on the disk; other replicas poll until it is done.
 * A producer renews the lease of its rows in progress; a row still in progress once its lease
 * lapsed lost its producer (the process died), and readers find it failed `response_interrupted`.
 */
export class ResponseStore {
  readonly #live = new Map<string, Live>();
  readonly #writer: WriteBehind<Row>;
  readonly #pollMs: number;
  readonly #maxFollowMs: number;
  readonly #leaseMs: number;
  readonly #answers: AnswerLookup | undefined;
  readonly #onBackgroundError: (err: unknown) => void;
  #renewing: NodeJS.Timeout | null = null;

  /**
   * `answers` resolves the kept answers (stored reports) that rows may refer to instead of
   * copying; `leaseMs` is how long a row in progress outlives its producer's last renewal.
   */
  constructor(
    private readonly db: Kysely<Database>,
    options: { onBackgroundError?: (err: unknown) => void; pollMs?: number; maxFollowMs?: number; batchMs?: number; leaseMs?: number; answers?: AnswerLookup } = {},
  ) {
    this.#answers = options.answers;
    this.#pollMs = options.pollMs ?? 500;
    this.#maxFollowMs = options.maxFollowMs ?? 15 * 60_000;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#onBackgroundError = options.onBackgroundError ?? (() => {});
    this.#writer = new WriteBehind(
      (rows) =>
        this.db.transaction().execute(async (trx) => {
          // Many rows per statement: one prepared statement and one compile per chunk, not per row.
          for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
            await trx
              .insertInto('responses')
              .values(rows.slice(i, i + INSERT_CHUNK))
              .onConflict((oc) =>
                oc.column('id').doUpdateSet((eb) => ({
                  status: eb.ref('excluded.status'),
                  output_text: eb.ref('excluded.output_text'),
                  transcript: eb.ref('excluded.transcript'),
                  completed_at: eb.ref('excluded.completed_at'),
                  lease_expires_at: eb.ref('excluded.lease_expires_at'),
                }))
                  // A response cancelled from another replica stays cancelled: its producer may
                  // still write its own cancelled version (with the text it had), nothing else.
                  .where((eb) => eb.or([eb('responses.status', '!=', 'cancelled'), eb(eb.ref('excluded.status'), '=', 'cancelled')])),
              )
              .execute();
          }
        }),
      (err) => this.#onBackgroundError(err),
      1000,
      // Each commit waits for the disk: gathering a few milliseconds of responses into one
      // transaction keeps that off the request path under load (readers see pending rows).
      options.batchMs ?? 20,
    );
  }

  /**
   * `onCancel`: how to stop this response when its owner cancels it (background responses
   * only); it must end the response (`finish`, status `cancelled`) before it returns.
   */
  begin(record: ResponseRecord, snapshot: () => Record<string, unknown>, options: { onCancel?: () => void } = {}): LiveResponse {
    const live: Live = { record, snapshot, events: [], waiters: new Set(), done: false, cancel: options.onCancel ?? null };
    this.#live.set(record.id, live);
    this.#writer.enqueue(record.id, toRow(record, 'in_progress', '', [], null, !!this.#answers, Date.now() + this.#leaseMs));
    this.#renewWhileLive();
    const wake = () => {
      for (const w of live.waiters) w();
      live.waiters.clear();
    };
    return {
      append: (events) => {
        for (const e of events) live.events.push(e);
        wake();
      },
      finish: ({ status, outputText, transcript, completedAt }) => {
        if (live.done) return;
        live.done = true;
        this.#writer.enqueue(record.id, toRow(record, status, outputText, transcript, completedAt, !!this.#answers));
        this.#live.delete(record.id);
        this.#renewWhileLive();
        wake();
      },
    };
  }

  /** Renews the leases of the rows this process is producing, every third of a lease, while there are any. */
  #renewWhileLive(): void {
    if (this.#live.size && !this.#renewing) {
      this.#renewing = setInterval(() => void this.#renew().catch((err) => this.#onBackgroundError(err)), Math.max(50, Math.floor(this.#leaseMs / 3)));
      this.#renewing.unref();
    } else if (!this.#live.size && this.#renewing) {
      clearInterval(this.#renewing);
      this.#renewing = null;
    }
  }

  /** Renews the leases, and stops the responses produced here that were cancelled on another replica. */
  async #renew(): Promise<void> {
    const ids = [...this.#live.keys()];
    const until = Date.now() + this.#leaseMs;
    for (let i = 0; i < ids.length; i += RENEW_CHUNK) {
      await this.db
        .updateTable('responses')
        .set({ lease_expires_at: until })
        .where('id', 'in', ids.slice(i, i + RENEW_CHUNK))
        .where('status', '=', 'in_progress')
        .execute();
    }
    const cancellable = ids.filter((id) => this.#live.get(id)?.cancel);
    for (let i = 0; i < cancellable.length; i += RENEW_CHUNK) {
      const cancelled = await this.db
        .selectFrom('responses')
        .select('id')
        .where('id', 'in', cancellable.slice(i, i + RENEW_CHUNK))
        .where('status', '=', 'cancelled')
        .execute();
      for (const { id } of cancelled) this.#live.get(id)?.cancel?.();
    }
  }

  /**
   * Cancels a background response in progress. One produced here stops at once, its text so far
   * kept. One produced by another replica is marked cancelled in the database at once (without
   * its text), and its producer stops at its next lease renewal, a third of a lease later at
   * most, then writes its own cancelled version; whatever it finishes meanwhile is not kept.
   * True when this call cancelled it; false when it was not running (finished meanwhile) or
   * cannot be cancelled; null when there is no such response for this account.
   */
  async cancel(id: string, accountId: string): Promise<boolean | null> {
    const live = this.#live.get(id);
    if (live) {
      if (live.record.accountId !== accountId) return null;
      if (!live.cancel) return false;
      live.cancel(); // ends it (LiveResponse.finish) before it returns
      return true;
    }
    const found = this.#writer.peek(id) ?? (await this.db.selectFrom('responses').selectAll().where('id', '=', id).executeTakeFirst());
    if (!found || found.account_id !== accountId) return null;
    const row = await this.#settled(found);
    if (row.status !== 'in_progress' || (JSON.parse(row.params) as ResponseParams).background !== true) return false;
    const at = Date.now();
    const transcript: TranscriptEntry[] = [['x', Math.floor(at / 1000)]];
    // Its producer has a lease's time to stop and write its own version; meanwhile it is not deleted.
    const res = await this.db
      .updateTable('responses')
      .set({ status: 'cancelled', output_text: '', transcript: JSON.stringify(transcript), completed_at: at, lease_expires_at: at + this.#leaseMs })
      .where('id', '=', id)
      .where('status', '=', 'in_progress')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * A row as readers should see it: one still in progress whose lease lapsed (and that this
   * process is not producing) lost its producer, and is settled as failed `response_interrupted`,
   * in the database too, unless its producer renewed it meanwhile.
   */
  async #settled(row: Row, now = Date.now()): Promise<Row> {
    if (row.status !== 'in_progress' || this.#live.has(row.id)) return row;
    const lapsesAt = row.lease_expires_at === null ? Number(row.created_at) + this.#maxFollowMs : Number(row.lease_expires_at);
    if (lapsesAt >= now) return row;
    // Transcript times are in seconds, as the wire's `completed_at`; the column keeps milliseconds.
    const transcript: TranscriptEntry[] = [['f', Math.floor(lapsesAt / 1000), INTERRUPTED]];
    const res = await this.db
      .updateTable('responses')
      .set({ status: 'failed', transcript: JSON.stringify(transcript), completed_at: lapsesAt, lease_expires_at: null })
      .where('id', '=', row.id)
      .where('status', '=', 'in_progress')
      .where('lease_expires_at', row.lease_expires_at === null ? 'is' : '=', row.lease_expires_at)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) > 0) return { ...row, status: 'failed', transcript: JSON.stringify(transcript), completed_at: lapsesAt, lease_expires_at: null };
    // Renewed or settled by someone else meanwhile: what the database says now.
    return (await this.db.selectFrom('responses').selectAll().where('id', '=', row.id).executeTakeFirst()) ?? row;
  }

  /** Records a response produced in one go (nobody followed it while it ran). */
  save(record: ResponseRecord, result: { status: string; outputText: string; transcript: TranscriptEntry[]; completedAt: number }): void {
    this.#writer.enqueue(record.id, toRow(record, result.status, result.outputText, result.transcript, result.completedAt, !!this.#answers));
  }

  async get(id: string, accountId: string): Promise<Found | null> {
    const live = this.#live.get(id);
    if (live) return live.record.accountId === accountId ? { live: true, record: live.record, snapshot: live.snapshot, status: 'in_progress' } : null;
    const row = this.#writer.peek(id) ?? (await this.db.selectFrom('responses').selectAll().where('id', '=', id).executeTakeFirst());
    if (!row || row.account_id !== accountId) return null;
    return { live: false, stored: await fromRow(await this.#settled(row), this.#answers) };
  }

  /**
   * The turn an `item_reference` names: an answer (`msg_…`, a completed response's output), or a
   * message listed by input_items (`msg_in_<response>_<n>`, the n-th turn of the response it was sent with).
   */
  async messageTurn(itemId: string, accountId: string): Promise<InputTurn | null> {
    const sent = /^msg_in_(.+)_(\d{1,6})$/.exec(itemId);
    const messageId = sent ? `msg_${sent[1]}` : itemId;
    const find = () => this.db.selectFrom('responses').selectAll().where('message_id', '=', messageId).where('account_id', '=', accountId).executeTakeFirst();
    let row = await find();
    if (row) row = this.#writer.peek(row.id) ?? row;
    else {
      // Written moments ago and not flushed yet.
      await this.#writer.flush();
      row = await find();
    }
    if (!row) return null;
    if (sent) {
      const turn = (await fromRow(row, this.#answers)).conversation[Number(sent[2])];
      return turn && (turn.itemId ?? itemId) === itemId ? { ...turn, itemId } : null;
    }
    if (row.status !== 'completed' && row.status !== 'incomplete') return null;
    return answerTurn(await fromRow(row, this.#answers));
  }

  /**
   * Deletes finished responses created before `cutoff` (ms), at most `batch` per call, so one run
   * of the sweeper never holds the database long; returns how many went. A response still being
   * produced somewhere (its lease runs) is left for a later run.
   */
  async purgeCreatedBefore(cutoff: number, batch = 1000, now = Date.now()): Promise<number> {
    const res = await this.db
      .deleteFrom('responses')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('responses')
          .select('id')
          .where('created_at', '<', cutoff)
          .where('status', '!=', 'in_progress')
          .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<', now)]))
          .limit(batch),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /**
   * Deletes a finished response. 'busy' while a producer may still write it: in progress (here or
   * elsewhere: its lease runs), or cancelled elsewhere and not yet stopped there (the lease the
   * canceller gave it), since that producer's last write would bring the row back.
   */
  async delete(id: string, accountId: string, now = Date.now()): Promise<'deleted' | 'missing' | 'busy'> {
    if (this.#live.has(id)) return 'busy';
    await this.#writer.flush();
    const res = await this.db
      .deleteFrom('responses')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('status', '!=', 'in_progress')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .executeTakeFirst();
    if (Number(res.numDeletedRows) > 0) return 'deleted';
    const left = await this.db.selectFrom('responses').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return left ? 'busy' : 'missing';
  }

  /**
   * The stream events after `startingAfter`. A response produced here is followed live to its
   * terminal event; one produced by another replica is polled until it finishes, or until
   * `stopPolling` (this server shutting down: the response goes on there, and the client can
   * resume from another replica). Finished responses are rebuilt from their transcript by `encode`.
   */
  async *replay(
    id: string,
    accountId: string,
    startingAfter: number,
    signal: AbortSignal,
    encode: (stored: StoredResponse) => WireEvent[],
    stopPolling?: AbortSignal,
  ): AsyncGenerator<WireEvent> {
    let next = startingAfter + 1;
    const started = Date.now();
    /** The row of a response running on another replica, once seen. */
    let following: Row | null = null;
    /**
     * An ending rebuilt without the producer's events (it died, or the response was deleted):
     * the follower may have seen more events than the rebuild has, so its error and
     * response.failed are numbered on from what it saw.
     */
    const ending = function* (e: WireEvent): Generator<WireEvent> {
      if (e.sequence_number >= next) {
        next = e.sequence_number + 1;
        yield e;
      } else if (e.type === 'error' || e.type === 'response.failed') yield { ...e, sequence_number: next++ };
    };
    // One listener per signal for the whole replay (not one per wait), removed when it ends.
    let wake: (() => void) | null = null;
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    stopPolling?.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal.aborted) {
        const live = this.#live.get(id);
        if (live) {
          if (live.record.accountId !== accountId) return;
          while (next < live.events.length) yield live.events[next++]!;
          // Its producer ends it with a terminal event before finishing; if not, the stored row has the rest.
          if (live.done) {
            if (next > 0 && TERMINAL_EVENTS.has(live.events[next - 1]!.type)) return;
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            live.waiters.add(resolve);
          });
          wake = null;
          continue;
        }
        const found = this.#writer.peek(id) ?? (await this.db.selectFrom('responses').selectAll().where('id', '=', id).executeTakeFirst());
        if (!found || found.account_id !== accountId) {
          if (!following) return;
          // Deleted while followed: the follower still gets an ending.
          const gone: Row = { ...following, status: 'failed', output_text: '', transcript: JSON.stringify([['f', Math.floor(Date.now() / 1000), DELETED]]) };
          for (const e of encode(await fromRow(gone, this.#answers))) yield* ending(e);
          return;
        }
        const row = await this.#settled(found);
        if (TERMINAL.has(row.status)) {
          const stored = await fromRow(row, this.#answers);
          const withoutProducer = writtenWithoutProducer(stored.transcript);
          for (const e of encode(stored)) {
            if (withoutProducer) yield* ending(e);
            else if (e.sequence_number >= next) {
              yield e;
              next = e.sequence_number + 1;
            }
          }
          return;
        }
        if (!following) {
          // Running on another replica: its opening events are known now (they depend on the
          // request alone), so the follower has them at once, not only once it has finished.
          for (const e of encode(await fromRow(row, this.#answers))) {
            if (e.sequence_number >= next) {
              yield e;
              next = e.sequence_number + 1;
            }
          }
          following = row;
        }
        if (stopPolling?.aborted || Date.now() - started > this.#maxFollowMs) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, this.#pollMs);
        });
        wake = null;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      stopPolling?.removeEventListener('abort', onAbort);
    }
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }
}
