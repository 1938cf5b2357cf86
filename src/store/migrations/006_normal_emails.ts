import { sql, type Kysely } from 'kysely';

/**
 * Emails are stored trimmed and in lower case since this version. Earlier rows with capitals are
 * brought to that form, except where that would collide with another account's address (two
 * accounts an operator made for one person): those keep theirs, for an operator to merge.
 * (Unicode NFC is applied to new addresses only; SQL has no portable normalisation.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update accounts set email = lower(trim(email))
    where email <> lower(trim(email))
      and not exists (select 1 from accounts other where other.email = lower(trim(accounts.email)) and other.id <> accounts.id)
      and (select count(*) from accounts same where lower(trim(same.email)) = lower(trim(accounts.email))) = 1`.execute(db);
}

export async function down(): Promise<void> {}
