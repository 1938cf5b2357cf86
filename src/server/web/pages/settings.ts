import type { Account, KeyInfo } from '../../../accounts/service.js';
import { MAX_KEY_NAME_LENGTH } from '../../../accounts/service.js';
import { PLAN_NAMES, type LedgerEntry } from '../../../billing/service.js';
import { html, type Html } from '../html.js';
import { MIN_PASSWORD_LENGTH } from '../../../accounts/passwords.js';
import { csrfInput, errorSummary, field, formatTime, page, type FormErrors, type PageContext } from '../layout.js';

const SECTIONS = [
  ['/settings', 'Account'],
  ['/settings/api-keys', 'API Keys'],
  ['/settings/credits', 'Credits'],
] as const;

function settingsPage(ctx: PageContext, title: string, body: Html, scripts?: string[]): Html {
  const nav = html`<nav aria-label="Settings"><ul class="subnav">${SECTIONS.map(
    ([href, label]) => html`<li><a href="${href}" ${ctx.path === href ? html`aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
  return page(ctx, { title: `${title} · Settings`, body: html`<h1>Settings</h1>${nav}<h2>${title}</h2>${body}`, scripts });
}


export function accountSection(
  ctx: PageContext,
  o: { account: Account; requestsPerMinute: number; reportCost: number; errors?: FormErrors; passwordChanged?: boolean },
): Html {
  const a = o.account;
  const paid = a.plan !== 'free';
  return settingsPage(
    ctx,
    'Account',
    html`<dl class="facts">
  <dt>Email</dt><dd>${a.email}</dd>
  <dt>Account ID</dt><dd><code id="account-id">${a.id}</code></dd>
  <dt>Plan</dt><dd id="plan">${PLAN_NAMES[a.plan]}</dd>
  <dt>Credits</dt><dd id="credits">${a.credits}</dd>
  <dt>Rate limit</dt><dd>${o.requestsPerMinute} requests per minute per key</dd>
  <dt>Member since</dt><dd>${formatTime(a.createdAt)}</dd>
</dl>
<p>${paid
      ? html`Generating a new prediction-market report costs ${o.reportCost} credits; cached reports and every other agent are free.`
      : html`On the Free plan you can read cached reports and ask every other agent. Generating a new report (${o.reportCost} credits) needs a paid plan: Plus, Pro or Enterprise. Plans and credits are managed by the operator of this service.`}</p>
<p><a href="/settings/credits">Credit history</a> · <a href="/settings/api-keys">API keys</a></p>
<h3 id="password">Change password</h3>
${o.passwordChanged ? html`<div class="notice ok" role="status">Your password was changed. Other browsers signed in to this account were signed out.</div>` : ''}
${errorSummary(o.errors)}
<form method="post" action="/settings/password" novalidate>
${csrfInput(ctx)}
<input type="email" autocomplete="username" value="${a.email}" hidden>
${field({ name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password', errors: o.errors, autofocus: !!o.errors?.fields?.current_password, maxlength: 256 })}
${field({ name: 'new_password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password nor your email's name. A few unrelated words make a strong one.`, errors: o.errors, autofocus: !!o.errors?.fields?.new_password && !o.errors.fields.current_password, maxlength: 256 })}
<div class="actions"><button type="submit">Change password</button></div>
</form>`,
  );
}

/**
 * The API Keys page. The name field's maxlength is twice the limit: browsers count UTF-16 units
 * (an emoji is two), the server counts characters and says when a name is too long.
 */
export function apiKeysSection(
  ctx: PageContext,
  o: { keys: KeyInfo[]; created?: { key: KeyInfo; secret: string }; revoked?: KeyInfo; errors?: FormErrors; name?: string; welcome?: boolean },
): Html {
  const active = o.keys.filter((k) => k.revokedAt === null);
  const revoked = o.keys.filter((k) => k.revokedAt !== null);
  const created = o.created
    ? html`<section class="notice ok" aria-labelledby="new-key-title" id="new-key">
  <h3 id="new-key-title">Your new key${o.created.key.name ? html` “${o.created.key.name}”` : ''}</h3>
  <p>Copy it now: it is shown only this once. Use it as <code>Authorization: Bearer &lt;key&gt;</code>, or as <code>apiKey</code> in an OpenAI SDK with base URL <code>${ctx.apiBase}</code>.</p>
  <div class="secret"><code id="new-key-secret">${o.created.secret}</code><button type="button" class="secondary" data-copy="new-key-secret" aria-label="Copy the new key" autofocus>Copy</button><span role="status" class="muted" id="copy-status"></span></div>
</section>`
    : '';
  const welcome = o.welcome ? html`<div class="notice ok" role="status">Your account is ready, on the Free plan. Create an API key to call the API, or try the agents in the <a href="/playground">playground</a>.</div>` : '';
  const revokedNotice = o.revoked ? html`<div class="notice ok" role="status">Key ${keyLabel(o.revoked)} was revoked. Requests that use it are refused.</div>` : '';
  const rows = (keys: KeyInfo[], withAction: boolean) =>
    keys.map(
      (k) => html`<tr data-key-id="${k.id}">
  <td data-label="Name" class="key-name">${k.name ?? html`<span class="muted">unnamed</span>`}</td>
  <td data-label="Key"><code>${k.prefix}…${k.last4}</code></td>
  <td data-label="Created">${formatTime(k.createdAt)}</td>
  <td data-label="Last used">${formatTime(k.lastUsedAt)}</td>
  ${withAction ? html`<td><a href="/settings/api-keys/${k.id}/revoke" aria-label="Revoke key ${keyLabel(k)}">Revoke</a></td>` : html`<td data-label="Revoked">${formatTime(k.revokedAt)}</td>`}
</tr>`,
    );
  return settingsPage(
    ctx,
    'API Keys',
    html`${welcome}${created}${revokedNotice}${errorSummary(o.errors)}
<p>Keys are free. Each one authenticates requests to <code>/v1</code>; revoke one and requests that use it are refused at once.</p>
<form method="post" action="/settings/api-keys">
${csrfInput(ctx)}
<label for="f-name">Key name</label>
<p class="hint" id="f-name-hint">To tell your keys apart, e.g. “laptop” or “research bot”. Optional.</p>
${o.errors?.fields?.name ? html`<p class="field-error" id="f-name-error">${o.errors.fields.name}</p>` : ''}
<input id="f-name" name="name" type="text" autocomplete="off" maxlength="${2 * MAX_KEY_NAME_LENGTH}" value="${o.name ?? ''}" aria-describedby="f-name-hint${o.errors?.fields?.name ? ' f-name-error' : ''}" ${o.errors?.fields?.name ? html`aria-invalid="true" autofocus` : ''}>
<div class="actions"><button type="submit">Create new key</button></div>
</form>
<h3>Active keys</h3>
${active.length
      ? html`<div class="table-wrap"><table id="keys" class="stack">
<caption class="visually-hidden">Active API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows(active, true)}</tbody></table></div>`
      : html`<p class="muted" id="no-keys">No active keys yet.</p>`}
${revoked.length
      ? html`<h3>Revoked keys</h3><div class="table-wrap"><table id="revoked-keys" class="stack">
<caption class="visually-hidden">Revoked API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th></tr></thead>
<tbody>${rows(revoked, false)}</tbody></table></div>`
      : ''}`,
    ['settings.js'],
  );
}

const keyLabel = (k: KeyInfo) => `${k.name ? `“${k.name}” ` : ''}${k.prefix}…${k.last4}`;

export function revokeConfirmSection(ctx: PageContext, key: KeyInfo): Html {
  return settingsPage(
    ctx,
    'Revoke API key',
    html`<p>Revoke key <strong>${keyLabel(key)}</strong>? Every request that uses it will be refused from now on. This cannot be undone.</p>
<form method="post" action="/settings/api-keys/${key.id}/revoke">
${csrfInput(ctx)}
<div class="actions"><button type="submit" class="danger">Revoke key</button><a class="button secondary" href="/settings/api-keys">Cancel</a></div>
</form>`,
  );
}

const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  grant: 'Granted',
  hold: 'Held for a report',
  // The credits were taken when held: charging the hold leaves the balance as it was.
  capture: 'Charged: the credits held are spent',
  release: 'Hold returned',
  adjustment: 'Adjusted',
};

export function creditsSection(ctx: PageContext, o: { account: Account; entries: LedgerEntry[]; hasMore: boolean; after?: string }): Html {
  const next = o.hasMore && o.entries.length ? `/settings/credits?after=${encodeURIComponent(o.entries.at(-1)!.id)}` : null;
  return settingsPage(
    ctx,
    'Credits',
    html`<p>Balance: <strong id="balance">${o.account.credits}</strong> credits on the ${PLAN_NAMES[o.account.plan]} plan.</p>
<p class="hint">Every change to your balance, newest first. A report's credits are held while it is generated, then charged, or returned if it fails.</p>
${o.entries.length
      ? html`<div class="table-wrap"><table id="ledger" class="stack">
<caption class="visually-hidden">Credit history</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Details</th><th scope="col" class="num">Change</th><th scope="col" class="num">Balance</th></tr></thead>
<tbody>${o.entries.map(
          (e) =>
            html`<tr><td data-label="When">${formatTime(e.createdAt)}</td><td data-label="What">${KIND_LABELS[e.kind]}</td><td data-label="Details">${e.reason ?? ''}${e.requestId ? html` <span class="muted">(${e.requestId})</span>` : ''}</td><td class="num" data-label="Change">${e.amount > 0 ? `+${e.amount}` : e.amount === 0 ? '±0' : `−${-e.amount}`}</td><td class="num" data-label="Balance">${e.balanceAfter}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p class="muted">No credit activity yet.</p>`}
<p>${o.after ? html`<a href="/settings/credits">Newest</a>` : ''} ${next ? html`<a href="${next}">Older</a>` : ''}</p>`,
  );
}
