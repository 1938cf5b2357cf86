import type { WebSession } from '../../accounts/sessions.js';
import { html, type Html } from './html.js';

export interface PageContext {
  session: WebSession | null;
  csrf: string;
  /** Path of the page, to mark the current navigation link. */
  path: string;
  asset(name: string): string;
  /** Base URL of the OpenAI-compatible API, for examples. */
  apiBase: string;
}

export interface PageOptions {
  title: string;
  body: Html;
  scripts?: string[];
}

function navLink(ctx: PageContext, href: string, label: string): Html {
  const current = ctx.path === href || (href !== '/' && ctx.path.startsWith(`${href}/`));
  return html`<li><a href="${href}" ${current ? html`aria-current="page"` : ''}>${label}</a></li>`;
}

export function page(ctx: PageContext, o: PageOptions): Html {
  const nav = ctx.session
    ? html`${navLink(ctx, '/playground', 'Playground')}${navLink(ctx, '/settings', 'Settings')}
        <li><form method="post" action="/logout"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button class="link" type="submit">Log out</button></form></li>`
    : html`${navLink(ctx, '/login', 'Log in')}${navLink(ctx, '/signup', 'Sign up')}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · svc</title>
<link rel="stylesheet" href="${ctx.asset('style.css')}">
${['forms.js', ...(o.scripts ?? [])].map((s) => html`<script type="module" src="${ctx.asset(s)}"></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><nav aria-label="Main"><a class="brand" href="/">svc</a><ul>${nav}</ul></nav></header>
<main id="main" tabindex="-1">
${o.body}
</main>
</body>
</html>`;
}

/** A form's problems: one summary announced to screen readers, and one message per field. */
export interface FormErrors {
  summary?: string;
  fields?: Record<string, string>;
}

export function errorSummary(errors: FormErrors | undefined): Html {
  if (!errors?.summary) return html``;
  return html`<div class="notice error" role="alert" id="form-error">${errors.summary}</div>`;
}

/** A labelled input with its hint and error wired up through aria-describedby. */
export function field(o: {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  value?: string;
  autocomplete: string;
  hint?: string;
  errors?: FormErrors;
  required?: boolean;
  maxlength?: number;
  autofocus?: boolean;
}): Html {
  const id = `f-${o.name}`;
  const error = o.errors?.fields?.[o.name];
  const described = [o.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${id}">${o.label}</label>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
<input id="${id}" name="${o.name}" type="${o.type}" autocomplete="${o.autocomplete}" ${o.value ? html`value="${o.value}"` : ''} ${o.required === false ? '' : html`required`} ${o.maxlength ? html`maxlength="${o.maxlength}"` : ''} ${described ? html`aria-describedby="${described}"` : ''} ${error ? html`aria-invalid="true"` : ''} ${o.autofocus ? html`autofocus` : ''}>`;
}

export const csrfInput = (ctx: PageContext) => html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;

export function formatTime(ms: number | null): Html {
  if (ms === null) return html`<span class="muted">never</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
