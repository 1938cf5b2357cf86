import type { Kysely } from 'kysely';
import type { Turn } from '../agents/types.js';
import type { Database } from '../store/schema.js';
import { WriteBehind } from '../store/write-behind.js';

/** A stored stream event: `type` and `sequence_number` plus the event's fields. */
export type StoredEvent = { type: string; sequence_number: number } & Record<string, unknown>;

export interface StoredResponse {
  id: string;
  accountId: string;
  model: string;
  status: string;
  messageId: string;
  conversation: Turn[];
  instructions: string | null;
  outputText: string;
  body: Record<string, unknown>;
  createdAt: number;
  completedAt: number | null;
}

type Row = Database['responses'];

interface Live {
  row: Omit<Row, 'events' | 'body'>;
  body: Record<string, unknown>;
  events: StoredEvent[];
  waiters: Set<() => void>;
  done: boolean;
}

const TERMINAL = new Set(['completed', 'failed', 'incomplete', 'cancelled']);

/** One response being produced right now: events appended as they are sent, then finished once. */
export interface LiveResponse {
  append(events: readonly StoredEvent[]): void;
  finish(status: string, body: Record<string, unknown>, outputText: string, completedAt: number): void;
}

function fromRow(r: Omit<Row, 'events'>): StoredResponse {
  return {
    id: r.id,
    accountId: r.account_id,
    model: r.model,
    status: r.status,
    messageId: r.message_id,
    conversation: JSON.parse(r.conversation) as Turn[],
    instructions: r.instructions,
    outputText: r.output_text,
    body: JSON.parse(r.body) as Record<string, unknown>,
    createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

/**
 * Stored Responses: the Response object and its stream events, kept for GET, replay and
 * `previous_response_id`. Rows are written behind the request (batched); while a response
 * is being produced, this process serves it from memory, so a reader never waits on the disk.
 */
export class ResponseStore {
  readonly #live = new Map<string, Live>();
  readonly #writer: WriteBehind<Row>;

  constructor(
    private readonly db: Kysely<Database>,
    options: { onBackgroundError?: (err: unknown) => void; pollMs?: number; maxFollowMs?: number } = {},
  ) {
    this.#pollMs = options.pollMs ?? 500;
    this.#maxFollowMs = options.maxFollowMs ?? 15 * 60_000;
    this.#writer = new WriteBehind(
      (rows) =>
        this.db.transaction().execute(async (trx) => {
          for (const row of rows) {
            await trx
              .insertInto('responses')
              .values(row)
              .onConflict((oc) =>
                oc.column('id').doUpdateSet({ status: row.status, output_text: row.output_text, body: row.body, events: row.events, completed_at: row.completed_at }),
              )
              .execute();
          }
        }),
      (err) => options.onBackgroundError?.(err),
    );
  }

  readonly #pollMs: number;
  readonly #maxFollowMs: number;

  begin(init: {
    id: string;
    accountId: string;
    model: string;
    messageId: string;
    conversation: Turn[];
    instructions: string | null;
    createdAt: number;
    body: Record<string, unknown>;
  }): LiveResponse {
    const live: Live = {
      row: {
        id: init.id,
        account_id: init.accountId,
        model: init.model,
        status: 'in_progress',
        message_id: init.messageId,
        conversation: JSON.stringify(init.conversation),
        instructions: init.instructions,
        output_text: '',
        created_at: init.createdAt,
        completed_at: null,
      },
      body: init.body,
      events: [],
      waiters: new Set(),
      done: false,
    };
    this.#live.set(init.id, live);
    this.#writer.enqueue(init.id, { ...live.row, body: JSON.stringify(init.body), events: '[]' });
    const wake = () => {
      for (const w of live.waiters) w();
      live.waiters.clear();
    };
    return {
      append: (events) => {
        for (const e of events) live.events.push(e);
        wake();
      },
      finish: (status, body, outputText, completedAt) => {
        live.done = true;
        live.row = { ...live.row, status, output_text: outputText, completed_at: completedAt };
        live.body = body;
        this.#writer.enqueue(init.id, { ...live.row, body: JSON.stringify(body), events: JSON.stringify(live.events) });
        this.#live.delete(init.id);
        wake();
      },
    };
  }

  /** Records a response that was produced in one go (not streamed to anyone while running). */
  save(rec: {
    id: string;
    accountId: string;
    model: string;
    status: string;
    messageId: string;
    conversation: Turn[];
    instructions: string | null;
    outputText: string;
    body: Record<string, unknown>;
    events: readonly StoredEvent[];
    createdAt: number;
    completedAt: number | null;
  }): void {
    this.#writer.enqueue(rec.id, {
      id: rec.id,
      account_id: rec.accountId,
      model: rec.model,
      status: rec.status,
      message_id: rec.messageId,
      conversation: JSON.stringify(rec.conversation),
      instructions: rec.instructions,
      output_text: rec.outputText,
      body: JSON.stringify(rec.body),
      events: JSON.stringify(rec.events),
      created_at: rec.createdAt,
      completed_at: rec.completedAt,
    });
  }

  async get(id: string, accountId: string): Promise<StoredResponse | null> {
    const live = this.#live.get(id);
    if (live) return live.row.account_id === accountId ? fromRow({ ...live.row, body: JSON.stringify(live.body) }) : null;
    const pending = this.#writer.peek(id);
    if (pending) return pending.account_id === accountId ? fromRow(pending) : null;
    const row = await this.db
      .selectFrom('responses')
      .select(['id', 'account_id', 'model', 'status', 'message_id', 'conversation', 'instructions', 'output_text', 'body', 'created_at', 'completed_at'])
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The assistant text of a stored output message (`item_reference` input items). */
  async messageText(messageId: string, accountId: string): Promise<string | null> {
    for (const live of this.#live.values()) {
      if (live.row.message_id === messageId && live.row.account_id === accountId) return live.done ? live.row.output_text : null;
    }
    const row = await this.db
      .selectFrom('responses')
      .select(['output_text', 'status'])
      .where('message_id', '=', messageId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row && row.status === 'completed' ? row.output_text : null;
  }

  async delete(id: string, accountId: string): Promise<boolean> {
    if (this.#live.has(id)) return false;
    await this.#writer.flush();
    const res = await this.db.deleteFrom('responses').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * The stored events after `startingAfter`, then, while the response is still being
   * produced, the live ones until its terminal event. A response produced by another
   * replica is followed by polling until it finishes.
   */
  async *replay(id: string, accountId: string, startingAfter: number, signal: AbortSignal): AsyncGenerator<StoredEvent> {
    let next = startingAfter + 1;
    const live = this.#live.get(id);
    if (live && live.row.account_id === accountId) {
      while (true) {
        while (next < live.events.length) yield live.events[next++]!;
        if (live.done || signal.aborted) return;
        await new Promise<void>((resolve) => {
          live.waiters.add(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    }
    const started = Date.now();
    while (!signal.aborted) {
      const pending = this.#writer.peek(id);
      const row = pending ?? (await this.db.selectFrom('responses').select(['status', 'events', 'account_id']).where('id', '=', id).executeTakeFirst());
      if (!row || row.account_id !== accountId) return;
      if (TERMINAL.has(row.status)) {
        const events = JSON.parse(row.events) as StoredEvent[];
        for (const e of events) if (e.sequence_number >= next) yield e;
        return;
      }
      const nowLive = this.#live.get(id);
      if (nowLive) {
        yield* this.replay(id, accountId, next - 1, signal);
        return;
      }
      if (Date.now() - started > this.#maxFollowMs) return;
      await new Promise((r) => setTimeout(r, this.#pollMs));
    }
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }
}
