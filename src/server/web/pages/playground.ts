import { html, type Html } from '../html.js';
import { csrfInput, page, type PageContext } from '../layout.js';
import { PLAN_NAMES, mayPay } from '../../../billing/service.js';
import type { Plan } from '../../../agents/types.js';

export function playgroundPage(ctx: PageContext, o: { models: { id: string; description: string }[]; credits: number; plan: Plan }): Html {
  const preferred = o.models.find((m) => m.id === 'svc-agent')?.id ?? o.models[0]?.id;
  const body = html`<h1>Playground</h1>
<p>Ask a financial research question or paste a Kalshi market link. Answers stream in with numbered citations. Follow-up questions continue the conversation.</p>
<noscript><div class="notice error">The playground needs JavaScript to stream answers: turn it on for this site, or call the API with a key from <a href="/settings/api-keys">API Keys</a>.</div></noscript>
<form id="playground" method="post" action="/playground" data-csrf="${ctx.csrf}" data-account="${ctx.session!.account.id}">
${csrfInput(ctx)}
<label for="model">Agent</label>
<select id="model" name="model" aria-describedby="model-hint">
${o.models.map((m) => html`<option value="${m.id}" ${m.id === preferred ? html`selected` : ''}>${m.id}</option>`)}
</select>
<p class="hint" id="model-hint">${o.models.map((m) => html`<span data-model-hint="${m.id}" ${m.id === preferred ? '' : html`hidden`}>${m.description}${m.id.endsWith(':refresh') && !mayPay(o.plan) ? ` It needs the Plus, Pro or Enterprise plan; this account is on ${PLAN_NAMES[o.plan]}, so use :cache for a stored report.` : ''}</span>`)}</p>
<label for="question">Question or Kalshi link</label>
<textarea id="question" name="question" required maxlength="8000" aria-describedby="question-hint" aria-keyshortcuts="Control+Enter Meta+Enter" placeholder="e.g. What was Apple's revenue in its latest 10-K? or https://kalshi.com/markets/…"></textarea>
<p class="hint" id="question-hint">Ctrl+Enter (⌘+Enter on a Mac) asks.</p>
<div class="actions">
  <button type="submit" id="run">Ask</button>
  <button type="button" class="secondary" id="stop" hidden>Stop</button>
  <button type="button" class="secondary" id="reset" hidden>New conversation</button>
</div>
</form>
<p class="status" id="status" role="status" aria-live="polite"></p>
<p class="status error" id="error" role="alert"></p>
<section aria-labelledby="history-title" id="history" hidden>
<h2 id="history-title">Earlier in this conversation</h2>
<div id="turns"></div>
</section>
<section aria-labelledby="answer-title" id="result" hidden>
<h2 id="answer-title">Answer</h2>
<p class="asked" id="asked" hidden></p>
<div class="answer" id="answer" aria-live="off"></div>
<p id="charge" class="muted"></p>
<div class="actions" id="copy-row" hidden><button type="button" class="secondary" id="copy-answer">Copy answer</button><span role="status" class="muted" id="copy-status"></span></div>
<h3 id="sources-title" hidden>Sources</h3>
<ol class="sources" id="sources" aria-labelledby="sources-title"></ol>
</section>
<p class="hint">Runs as <strong class="email">${ctx.session!.account.email}</strong> on the ${PLAN_NAMES[o.plan]} plan, <span id="credit-balance">${o.credits}</span> credits. ${mayPay(o.plan) ? 'Generating a new prediction-market report charges credits as the API does; cached reports are free.' : 'Cached prediction-market reports are free; generating a new one needs the Plus, Pro or Enterprise plan.'}</p>`;
  return page(ctx, { title: 'Playground', body, scripts: ['playground.js'] });
}
