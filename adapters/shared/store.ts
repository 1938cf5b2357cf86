import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SecretBox } from './secret-box.js';

const DAY = 86_400_000;
/** Conversations idle longer than this are forgotten; a later reply rebuilds them from the platform. */
const TURNS_KEPT_DAYS = 30;

/**
 * A sortable position for a turn: a platform timestamp ("seconds.micros" for Slack, a snowflake for
 * Discord) padded to fixed width, then 0 for the message itself and 1 for the bot's answer to it.
 */
export function turnSeq(ts: string, answer = false): string {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return `${seconds.padStart(20, '0')}.${fraction.padEnd(6, '0')}:${answer ? 1 : 0}`;
}

/**
 * The adapters' own small database (SQLite in SVC_ADAPTER_DATA_DIR): ids of delivered events
 * (so a redelivery is never answered twice, even after a restart), threads the bot answered in,
 * and linked API keys, encrypted. Slack and Discord adapters may share it.
 */
export class AdapterStore {
  readonly #db: Database.Database;
  readonly #box: SecretBox;
  #lastPurge = 0;

  private constructor(db: Database.Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  static open(dataDir: string, secret: string | undefined): AdapterStore {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const box = SecretBox.resolve(dataDir, secret);
    const db = new Database(path.join(dataDir, 'adapters.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.exec(`
      create table if not exists delivered (key text primary key, at integer not null);
      create table if not exists threads (key text primary key, at integer not null);
      create table if not exists linked_keys (owner text primary key, sealed text not null, linked_at integer not null);
      create table if not exists thread_turns (thread text not null, seq text not null, role text not null, content text not null, at integer not null, primary key (thread, seq));
      create table if not exists recorded_threads (key text primary key, at integer not null);
      create table if not exists answer_messages (question text primary key, conversation text not null, channel text not null, ids text not null, at integer not null);
    `);
    return new AdapterStore(db, box);
  }

  /** True the first time `key` is seen (within a week): the caller handles the event; false means a redelivery. */
  claim(key: string, now = Date.now()): boolean {
    if (now - this.#lastPurge > 3_600_000) {
      this.#lastPurge = now;
      this.#db.prepare('delete from delivered where at < ?').run(now - 7 * DAY);
      this.#db.prepare('delete from thread_turns where thread in (select thread from thread_turns group by thread having max(at) < ?)').run(now - TURNS_KEPT_DAYS * DAY);
      this.#db.prepare('delete from recorded_threads where at < ?').run(now - TURNS_KEPT_DAYS * DAY);
      this.#db.prepare('delete from answer_messages where at < ?').run(now - TURNS_KEPT_DAYS * DAY);
    }
    return this.#db.prepare('insert or ignore into delivered (key, at) values (?, ?)').run(key, now).changes === 1;
  }

  /** Gives up a claim: a redelivery of the event is handled again. */
  release(key: string): void {
    this.#db.prepare('delete from delivered where key = ?').run(key);
  }

  rememberThread(key: string): void {
    this.#db.prepare('insert or replace into threads (key, at) values (?, ?)').run(key, Date.now());
  }

  isKnownThread(key: string): boolean {
    return this.#db.prepare('select 1 from threads where key = ?').get(key) !== undefined;
  }

  /**
   * Marks a thread whose every turn the bot has seen from its first message (it started the thread,
   * or the thread grew from a message addressed to it), so its conversation can be rebuilt from
   * the recorded turns without reading the platform's history.
   */
  recordFromStart(thread: string, now = Date.now()): void {
    this.#db.prepare('insert or ignore into recorded_threads (key, at) values (?, ?)').run(thread, now);
  }

  isRecordedFromStart(thread: string): boolean {
    return this.#db.prepare('select 1 from recorded_threads where key = ?').get(thread) !== undefined;
  }

  /** One turn of a thread's conversation; `seq` orders the turns (see turnSeq). */
  recordTurn(thread: string, seq: string, role: 'user' | 'assistant', content: string, now = Date.now()): void {
    if (!content.trim()) return;
    this.#db.prepare('insert or replace into thread_turns (thread, seq, role, content, at) values (?, ?, ?, ?, ?)').run(thread, seq, role, content, now);
    this.#db.prepare('update recorded_threads set at = ? where key = ?').run(now, thread);
  }

  /** Forgets one turn of a thread (an answer replaced by one that did not finish). */
  forgetTurn(thread: string, seq: string): void {
    this.#db.prepare('delete from thread_turns where thread = ? and seq = ?').run(thread, seq);
  }

  /** Copies the recorded turns of `from` into `to` (where they start its conversation), keeping their order. */
  copyTurns(from: string, to: string, now = Date.now()): void {
    this.#db.prepare('insert or ignore into thread_turns (thread, seq, role, content, at) select ?, seq, role, content, ? from thread_turns where thread = ?').run(to, now, from);
  }

  /** The recorded turns of a thread before `beforeSeq`, oldest first. */
  turns(thread: string, beforeSeq: string): { role: 'user' | 'assistant'; content: string }[] {
    return this.#db.prepare('select role, content from thread_turns where thread = ? and seq < ? order by seq').all(thread, beforeSeq) as { role: 'user' | 'assistant'; content: string }[];
  }

  /** The recorded turn of a thread at `seq`, if any. */
  turnAt(thread: string, seq: string): { role: 'user' | 'assistant'; content: string } | null {
    return (this.#db.prepare('select role, content from thread_turns where thread = ? and seq = ?').get(thread, seq) as { role: 'user' | 'assistant'; content: string } | undefined) ?? null;
  }

  /** Whether a thread has a recorded turn after `seq`. */
  hasTurnsAfter(thread: string, seq: string): boolean {
    return this.#db.prepare('select 1 from thread_turns where thread = ? and seq > ? limit 1').get(thread, seq) !== undefined;
  }

  /**
   * The messages (`ids`, in `channel`) showing the answer to the person's message `question`
   * (`discord:<id>`, `slack:<team>:<channel>:<ts>`), in conversation `conversation`: so an edit of
   * the question can re-answer in them.
   */
  recordAnswerMessages(question: string, conversation: string, channel: string, ids: string[], now = Date.now()): void {
    this.#db.prepare('insert or replace into answer_messages (question, conversation, channel, ids, at) values (?, ?, ?, ?, ?)').run(question, conversation, channel, JSON.stringify(ids), now);
  }

  answerMessages(question: string): { conversation: string; channel: string; ids: string[] } | null {
    const row = this.#db.prepare('select conversation, channel, ids from answer_messages where question = ?').get(question) as { conversation: string; channel: string; ids: string } | undefined;
    return row ? { conversation: row.conversation, channel: row.channel, ids: JSON.parse(row.ids) as string[] } : null;
  }

  /** `owner` names the person on a platform (`slack:T1:U1`); the key is sealed to it. */
  link(owner: string, apiKey: string): void {
    this.#db.prepare('insert or replace into linked_keys (owner, sealed, linked_at) values (?, ?, ?)').run(owner, this.#box.seal(apiKey, owner), Date.now());
  }

  /** The person's key, or null; a value that cannot be opened (other secret, tampering) counts as none. */
  linkedKey(owner: string): string | null {
    const row = this.#db.prepare('select sealed from linked_keys where owner = ?').get(owner) as { sealed: string } | undefined;
    if (!row) return null;
    try {
      return this.#box.open(row.sealed, owner);
    } catch {
      return null;
    }
  }

  unlink(owner: string): boolean {
    return this.#db.prepare('delete from linked_keys where owner = ?').run(owner).changes === 1;
  }

  /** The raw stored value, for tests that check keys are not stored in the clear. */
  sealedValue(owner: string): string | null {
    return (this.#db.prepare('select sealed from linked_keys where owner = ?').get(owner) as { sealed: string } | undefined)?.sealed ?? null;
  }

  close(): void {
    this.#db.close();
  }
}
