import { MIN_PASSWORD_LENGTH } from '../../../accounts/passwords.js';
import { html, type Html } from '../html.js';
import { csrfInput, errorSummary, field, page, type FormErrors, type PageContext } from '../layout.js';

export function homePage(ctx: PageContext): Html {
  const body = ctx.session
    ? html`<h1>Welcome back</h1>
<p>Signed in as <strong class="email">${ctx.session.account.email}</strong>.</p>
<ul>
  <li><a href="/playground">Try the agents in the playground</a></li>
  <li><a href="/settings/api-keys">Create an API key</a> for the OpenAI-compatible API at <code>/v1</code></li>
</ul>`
    : html`<h1>svc: financial research agents behind an OpenAI-compatible API</h1>
<p>Ask about SEC filings or a Kalshi prediction market and get an answer with numbered citations, from <code>/v1/responses</code> or <code>/v1/chat/completions</code> with any OpenAI SDK.</p>
<div class="actions"><a class="button" href="/signup">Sign up</a><a class="button secondary" href="/login">Log in</a></div>
<p class="hint">Keys are free. Cached reports are free; generating a new report takes a paid plan.</p>`;
  return page(ctx, { title: 'Home', body });
}

export function signUpPage(ctx: PageContext, o: { email?: string; errors?: FormErrors } = {}): Html {
  const body = html`<h1>Create your account</h1>
${errorSummary(o.errors)}
<form method="post" action="/signup" novalidate>
${csrfInput(ctx)}
${field({ name: 'email', label: 'Email', type: 'email', value: o.email, autocomplete: 'email', errors: o.errors, autofocus: !o.errors || !!o.errors.fields?.email, maxlength: 254 })}
${field({
  name: 'password',
  label: 'Password',
  type: 'password',
  autocomplete: 'new-password',
  hint: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password nor your email's name. A few unrelated words make a strong one.`,
  errors: o.errors,
  autofocus: !!o.errors?.fields?.password && !o.errors.fields.email,
  maxlength: 256,
})}
<div class="actions"><button type="submit">Sign up</button></div>
</form>
<p>Already have an account? <a href="/login">Log in</a>.</p>
<p class="hint">New accounts start on the Free plan.</p>`;
  return page(ctx, { title: 'Sign up', body });
}

export function logInPage(ctx: PageContext, o: { email?: string; next?: string; errors?: FormErrors; notice?: string } = {}): Html {
  // The email is filled in again after a refusal: what is left to type is the password.
  const passwordNext = !!o.email && !o.errors?.fields?.email;
  const body = html`<h1>Log in</h1>
${o.notice ? html`<div class="notice ok" role="status">${o.notice}</div>` : ''}
${errorSummary(o.errors)}
<form method="post" action="/login" novalidate>
${csrfInput(ctx)}
${o.next ? html`<input type="hidden" name="next" value="${o.next}">` : ''}
${field({ name: 'email', label: 'Email', type: 'email', value: o.email, autocomplete: 'username', errors: o.errors, autofocus: !passwordNext, maxlength: 254 })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', errors: o.errors, autofocus: passwordNext, maxlength: 256 })}
<div class="actions"><button type="submit">Log in</button></div>
</form>
<p>No account yet? <a href="/signup">Sign up</a>.</p>`;
  return page(ctx, { title: 'Log in', body });
}

/** GET /logout: the log-out button, since logging out is a form post. */
export function logOutPage(ctx: PageContext): Html {
  const body = html`<h1>Log out</h1>
<p>Signed in as <strong class="email">${ctx.session!.account.email}</strong>.</p>
<form method="post" action="/logout">${csrfInput(ctx)}<div class="actions"><button type="submit">Log out</button> <a href="/playground">Back to the playground</a></div></form>`;
  return page(ctx, { title: 'Log out', body });
}

export function messagePage(ctx: PageContext, o: { title: string; message: string; link?: { href: string; label: string } }): Html {
  const body = html`<h1>${o.title}</h1>
<div class="notice error" role="alert">${o.message}</div>
${o.link ? html`<p><a href="${o.link.href}">${o.link.label}</a></p>` : ''}`;
  return page(ctx, { title: o.title, body });
}
