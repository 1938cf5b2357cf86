import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001_accounts_keys_responses.js';
import * as m002 from './002_billing.js';
import * as m003 from './003_reports.js';
import * as m004 from './004_web_accounts.js';
import * as m005 from './005_ledger_no_truncate.js';
import * as m006 from './006_normal_emails.js';
import * as m007 from './007_report_holds.js';
import * as m008 from './008_response_leases.js';
import * as m009 from './009_upstream_budget.js';
import * as m010 from './010_key_secret_shown.js';
import * as m011 from './011_job_holds.js';
import * as m012 from './012_response_created_index.js';
import * as m013 from './013_stored_chat_completions.js';
import * as m014 from './014_conversations.js';
import * as m015 from './015_rate_limit_last_request.js';
import * as m016 from './016_admin_account_idempotency.js';

/** Versioned migrations, applied in name order at start-up. Never edit one that has shipped: add a new one. */
export const migrations: Record<string, Migration> = {
  '001_accounts_keys_responses': m001,
  '002_billing': m002,
  '003_reports': m003,
  '004_web_accounts': m004,
  '005_ledger_no_truncate': m005,
  '006_normal_emails': m006,
  '007_report_holds': m007,
  '008_response_leases': m008,
  '009_upstream_budget': m009,
  '010_key_secret_shown': m010,
  '011_job_holds': m011,
  '012_response_created_index': m012,
  '013_stored_chat_completions': m013,
  '014_conversations': m014,
  '015_rate_limit_last_request': m015,
  '016_admin_account_idempotency': m016,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };
