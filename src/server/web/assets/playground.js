// Playground: streams /v1/responses (through the session-authenticated /playground/v1 mount)
// and shows the answer as it arrives, then links its [n] markers to the numbered sources.
import { renderMarkdown } from './markdown.js';

const form = document.getElementById('playground');
const csrf = form.dataset.csrf;
const $ = (id) => document.getElementById(id);
const model = $('model');
const question = $('question');
const run = $('run');
const stop = $('stop');
const reset = $('reset');
const status = $('status');
const error = $('error');
const result = $('result');
const answer = $('answer');
const sources = $('sources');
const sourcesTitle = $('sources-title');
const charge = $('charge');
const copyRow = $('copy-row');
const copyButton = $('copy-answer');
const copyStatus = $('copy-status');
const asked = $('asked');
const history = $('history');
const turnsList = $('turns');
/** The earlier turns of the conversation shown above the answer, oldest first: { question, text, annotations }. */
let earlier = [];
/** The current answer's turn once it has finished: it joins `earlier` when the next question is asked. */
let current = null;
/** Turns shown (and kept) above the answer; older ones are still part of the conversation. */
const MAX_SHOWN_TURNS = 20;
/** The last finished answer as Markdown, its sources listed under it: what Copy answer copies. */
let finishedMarkdown = '';

let previousResponseId = null;
// A stopped run goes on to its end on the server; the next question continues from it once it is over.
let stoppedRun = null;
let controller = null;
/** Counts runs, so that what an earlier (stopped) run learns late does not overwrite the current one. */
let runs = 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress goes to the polite status line; a failure to the alert, which screen readers say at once. */
function setStatus(text, isError = false) {
  status.textContent = isError ? '' : text;
  error.textContent = isError ? text : '';
}

/** The chosen agent's description: on a change, and when the browser restores the page with a choice it kept (Back). */
function showModelHint() {
  for (const hint of document.querySelectorAll('[data-model-hint]')) hint.hidden = hint.dataset.modelHint !== model.value;
}
model.addEventListener('change', showModelHint);
window.addEventListener('pageshow', showModelHint);
showModelHint();

/**
 * The last finished answer of this tab's conversation, kept for the account signed in: Settings
 * and Back, or a reload, show it again, and the next question continues from it. sessionStorage
 * lives as long as the tab; logging out clears it (forms.js).
 */
const keptKey = `svc.playground.${form.dataset.account}`;

function keepAnswer(state) {
  try {
    sessionStorage.setItem(keptKey, JSON.stringify(state));
  } catch {
    // Storage full or refused: the answer is still on the page, only not kept for a return.
  }
}

function forgetAnswer() {
  try {
    sessionStorage.removeItem(keptKey);
  } catch {}
}

function restoreAnswer() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(keptKey) ?? 'null');
  } catch {}
  if (!kept?.responseId || typeof kept.text !== 'string') return;
  if ([...model.options].some((o) => o.value === kept.model)) model.value = kept.model;
  showModelHint();
  previousResponseId = kept.responseId;
  earlier = Array.isArray(kept.earlier) ? kept.earlier : [];
  renderHistory();
  current = { question: kept.question ?? '', text: kept.text, annotations: kept.annotations ?? [] };
  showAsked(current.question);
  result.hidden = false;
  renderFinal(kept.text, kept.annotations ?? []);
  finishedMarkdown = answerMarkdown(kept.text, kept.annotations ?? []);
  copyRow.hidden = false;
  charge.textContent = kept.charge ?? '';
  reset.hidden = false;
  const expired = linksExpired(kept.annotations ?? []);
  setStatus(
    `Your last answer, kept while this tab is open: a follow-up question continues from it.${expired ? ' Its document links have expired: ask again for fresh ones.' : ''}`,
  );
}

/** Whether a signed document link among the sources has passed its `expires` time (they last about an hour). */
function linksExpired(annotations) {
  return annotations.some((a) => {
    try {
      const expires = Number(new URL(a.url).searchParams.get('expires'));
      return expires > 0 && expires * 1000 < Date.now();
    } catch {
      return false;
    }
  });
}

function showAsked(text) {
  asked.textContent = text ? `You asked: ${text}` : '';
  asked.hidden = !text;
}

/** An earlier turn: its question as the summary, its answer (markers plain, sources listed) inside. */
function turnElement(turn) {
  const details = document.createElement('details');
  details.className = 'turn';
  const summary = document.createElement('summary');
  summary.textContent = turn.question;
  const body = document.createElement('div');
  body.className = 'answer';
  renderMarkdown(body, turn.text);
  details.append(summary, body);
  const byOrder = new Map();
  for (const a of turn.annotations ?? []) if (!byOrder.has(a.order)) byOrder.set(a.order, a);
  if (byOrder.size) {
    const list = document.createElement('ol');
    list.className = 'sources';
    list.setAttribute('aria-label', 'Sources');
    for (const s of [...byOrder.values()].sort((a, b) => a.order - b.order)) {
      const li = document.createElement('li');
      li.value = s.order;
      if (isWebUrl(s.url)) {
        const a = document.createElement('a');
        Object.assign(a, { href: s.url, target: '_blank', rel: 'noopener noreferrer', textContent: s.name ?? s.title ?? s.url });
        li.append(a);
      } else li.append(s.name ?? s.title ?? s.url);
      list.append(li);
    }
    details.append(list);
  }
  return details;
}

function renderHistory() {
  turnsList.replaceChildren(...earlier.map(turnElement));
  history.hidden = earlier.length === 0;
}

reset.addEventListener('click', () => {
  forgetAnswer();
  previousResponseId = null;
  stoppedRun = null;
  earlier = [];
  current = null;
  renderHistory();
  // A follow-up left in the box would now be asked with no conversation behind it.
  question.value = '';
  reset.hidden = true;
  result.hidden = true;
  setStatus('New conversation.');
  question.focus();
});

stop.addEventListener('click', () => controller?.abort());

// Leaving while an answer comes loses it from this page (a report goes on and is charged): the browser asks first.
addEventListener('beforeunload', (event) => {
  if (controller) event.preventDefault();
});

// A message about the question goes once it is being edited (the browser may then say its own).
question.addEventListener('input', () => {
  if (error.textContent) error.textContent = '';
});

question.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.isComposing) return;
  event.preventDefault();
  if (!run.disabled) form.requestSubmit();
});

const isWebUrl = (url) => /^https?:\/\//i.test(url);

/** The finished answer: text with each [n] linked to source n, and the numbered source list. */
function renderFinal(text, annotations) {
  const byOrder = new Map();
  for (const a of annotations) if (!byOrder.has(a.order)) byOrder.set(a.order, a);
  renderMarkdown(answer, text, {
    cite: (n) => {
      const source = byOrder.get(n);
      if (!source) return null;
      const link = document.createElement('a');
      link.className = 'cite';
      link.href = `#source-${n}`;
      link.textContent = `[${n}]`;
      link.setAttribute('aria-label', `source ${n}: ${source.name ?? source.title}`);
      return link;
    },
  });

  sources.replaceChildren();
  for (const s of [...byOrder.values()].sort((a, b) => a.order - b.order)) {
    const li = document.createElement('li');
    li.id = `source-${s.order}`;
    li.value = s.order;
    const name = s.name ?? s.title ?? s.url;
    if (isWebUrl(s.url)) {
      const a = document.createElement('a');
      a.href = s.url;
      // A new tab: the answer lives only in this page, and a paid one cannot be fetched again for free.
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.textContent = name;
      li.append(a);
    } else {
      li.append(name);
    }
    sources.append(li);
  }
  sourcesTitle.hidden = byOrder.size === 0;
}

/** An answer's text with its numbered sources under it, as Markdown: pasted elsewhere, its [n] still lead somewhere. */
function answerMarkdown(text, annotations) {
  const byOrder = new Map();
  for (const a of annotations) if (!byOrder.has(a.order)) byOrder.set(a.order, a);
  const sourcesList = [...byOrder.values()].sort((a, b) => a.order - b.order).map((s) => `[${s.order}] ${s.name ?? s.title}${isWebUrl(s.url) ? ` <${s.url}>` : ''}`);
  return sourcesList.length ? `${text.trim()}\n\nSources:\n${sourcesList.join('\n')}\n` : `${text.trim()}\n`;
}

copyButton.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(finishedMarkdown);
    copyStatus.textContent = 'Copied, with its sources.';
  } catch {
    // No clipboard permission: select the answer for a manual copy.
    const range = document.createRange();
    range.selectNodeContents(answer);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    copyStatus.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
  }
});

/** What a refusal means on this page, where the API's wording (headers, /login) would not help, or what to do next. */
function refusal(status, error) {
  if (status === 401) return 'Your session has ended: reload the page to sign in again.';
  if (error?.code === 'invalid_csrf_token') return 'This page is out of date (you signed in again, perhaps in another tab): reload it to continue.';
  if (error?.code === 'plan_required') return `${error.message} Stored reports are free (the :cache agent serves the latest one, when there is one); the operator of this service can move your account to a paid plan.`;
  if (error?.code === 'insufficient_credits') return `${error.message} The operator of this service can add credits; Settings → Credits shows what each one was spent on.`;
  return null;
}

/** Server-sent events from a fetch body: yields each event's parsed JSON data, and `{ progress }` for a comment line (": Reading …"). */
async function* events(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // The service says what it is doing in comment lines while the answer has not started.
      const note = block.split('\n').find((line) => /^: ?\S/.test(line));
      if (note) yield { progress: note.replace(/^: ?/, '') };
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data && data !== '[DONE]') yield JSON.parse(data);
    }
  }
}

function describeCharge(res) {
  const charged = res.headers.get('x-credits-charged');
  const remaining = res.headers.get('x-credits-remaining');
  // No header: nothing was charged, or the stream opened before the agent said (a slow
  // exchange); the balance is read again once the answer is done.
  if (charged === null) return '';
  const n = Number(charged);
  const balance = document.getElementById('credit-balance');
  if (balance && remaining !== null) balance.textContent = remaining;
  if (n === 0) return 'No credits charged.';
  return `Charged ${n} credit${n === 1 ? '' : 's'}${remaining === null ? '' : `; ${remaining} left`}.`;
}

/**
 * What the run cost, from the balance before it and now (shown where the page shows it), for a
 * stream whose headers could not say; '' if the balance cannot be read.
 */
async function balanceNow(before) {
  try {
    const res = await fetch('/playground/v1/account');
    if (!res.ok) return '';
    const { credits } = await res.json();
    const balance = document.getElementById('credit-balance');
    if (balance) balance.textContent = String(credits);
    const spent = before === null ? null : before - credits;
    if (spent === 0) return 'No credits charged.';
    if (spent !== null && spent > 0) return `Charged ${spent} credit${spent === 1 ? '' : 's'}; ${credits} left.`;
    return `${credits} credit${credits === 1 ? '' : 's'} left.`;
  } catch {
    return '';
  }
}

/**
 * After Stop. The page stops reading, but the run goes on (the playground's runs are stored, so
 * they can be continued), and a report generation under way is charged (it is stored and then
 * served free). So the page shows what the run cost once it is over: it follows the response
 * when it knows its id, else watches the balance for a while (the run may not have started yet).
 */
async function costAfterStop(responseId, before, which, over, known) {
  const show = async () => {
    if (known) return;
    const cost = await balanceNow(before);
    if (which === runs && cost) charge.textContent = responseId ? `The stopped run went on to its end. ${cost}` : cost;
  };
  if (responseId) {
    const status = await over;
    // Still the page's latest run, and it finished: its whole answer is shown, with its sources (it was paid for).
    if (status === 'completed' && which === runs && !controller) await showStored(responseId);
    return show();
  }
  for (let i = 0; i < 10; i++) {
    await sleep(2000);
    await show();
  }
}

/** The stored answer of a run stopped on this page, once it completed on the server. */
async function showStored(responseId) {
  const res = await fetch(`/playground/v1/responses/${encodeURIComponent(responseId)}`).catch(() => null);
  if (!res?.ok) return;
  const content = (await res.json()).output?.[0]?.content?.[0];
  if (!content?.text) return;
  result.hidden = false;
  renderFinal(content.text, content.annotations ?? []);
  finishedMarkdown = answerMarkdown(content.text, content.annotations ?? []);
  copyRow.hidden = false;
  current = { question: asked.textContent.replace(/^You asked: /, ''), text: content.text, annotations: content.annotations ?? [] };
  keepAnswer({ model: model.value, question: current.question, responseId, text: content.text, annotations: content.annotations ?? [], charge: '', earlier });
  setStatus('The stopped run finished on the server: its whole answer is shown.');
}

/** A stopped run's status once it is no longer in progress (null if it cannot be read, or after 15 minutes). */
async function runOver(responseId) {
  for (const until = Date.now() + 15 * 60_000; Date.now() < until; await sleep(1000)) {
    const res = await fetch(`/playground/v1/responses/${encodeURIComponent(responseId)}`).catch(() => null);
    const status = res?.ok ? (await res.json()).status : null;
    if (status !== 'in_progress') return status;
  }
  return null;
}

/** The balance the page shows, or null. */
function shownBalance() {
  const n = Number(document.getElementById('credit-balance')?.textContent ?? NaN);
  return Number.isFinite(n) ? n : null;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = question.value.trim();
  if (!input) {
    setStatus('Type a question or paste a Kalshi link first.', true);
    question.focus();
    return;
  }
  controller = new AbortController();
  // Focus stays on a control that is there: Ask is disabled while the answer comes, Stop shown.
  const focusStop = document.activeElement === run || document.activeElement === document.body;
  run.disabled = true;
  stop.hidden = false;
  // No new conversation while an answer comes: it would be continued from the one under way.
  reset.hidden = true;
  if (focusStop) stop.focus();
  // The answer on the page is continued from: it moves up, above the new one.
  if (current && previousResponseId) {
    earlier = [...earlier, current].slice(-MAX_SHOWN_TURNS);
    renderHistory();
  }
  current = null;
  showAsked(input);
  result.hidden = false;
  answer.textContent = '';
  copyRow.hidden = true;
  copyStatus.textContent = '';
  sources.replaceChildren();
  sourcesTitle.hidden = true;
  charge.textContent = '';
  setStatus('Working…');
  let text = '';
  let finished = false;
  let frame = 0;
  let responseId = null;
  const thisRun = ++runs;
  const balanceBefore = shownBalance();
  const continuing = previousResponseId;
  try {
    if (stoppedRun) {
      setStatus('Waiting for the stopped answer to finish, to continue from it…');
      const aborted = new Promise((_, reject) => controller.signal.addEventListener('abort', () => reject(new DOMException('Stopped', 'AbortError'))));
      const { status: over, fallback } = await Promise.race([stoppedRun, aborted]);
      stoppedRun = null;
      // A stopped run that failed cannot be continued: the conversation goes on from the one before.
      if (over !== 'completed') previousResponseId = fallback;
      setStatus('Working…');
    }
    const body = { model: model.value, input, stream: true };
    if (previousResponseId) body.previous_response_id = previousResponseId;
    const res = await fetch('/playground/v1/responses', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!res.ok) {
      const err = await res.json().catch(() => null);
      throw new Error(refusal(res.status, err?.error) ?? err?.error?.message ?? `The request failed (HTTP ${res.status}).`);
    }
    charge.textContent = describeCharge(res);
    for await (const ev of events(res.body)) {
      if (ev.progress !== undefined) {
        if (!text && !/^keep-?alive/i.test(ev.progress)) setStatus(`Working: ${ev.progress.replace(/[.…\s]+$/, '')}…`);
        continue;
      }
      if (ev.type === 'response.created') responseId = ev.response.id;
      if (ev.type === 'response.output_text.delta') {
        text += ev.delta;
        // Re-rendered at most once a frame, however fast the deltas come.
        if (!frame) frame = requestAnimationFrame(() => {
          frame = 0;
          if (!finished) renderMarkdown(answer, text);
        });
        // Said once: a live region rewritten on every piece is read again and again.
        if (status.textContent !== 'Answering…') setStatus('Answering…');
      } else if (ev.type === 'response.completed') {
        const content = ev.response.output?.[0]?.content?.[0];
        renderFinal(content?.text ?? text, content?.annotations ?? []);
        finishedMarkdown = answerMarkdown(content?.text ?? text, content?.annotations ?? []);
        copyRow.hidden = false;
        previousResponseId = ev.response.id;
        reset.hidden = false;
        finished = true;
        const u = ev.response.usage;
        // What it cost is known before "Done" is said (without credit headers, from the balance).
        if (!charge.textContent) charge.textContent = await balanceNow(balanceBefore);
        current = { question: input, text: content?.text ?? text, annotations: content?.annotations ?? [] };
        keepAnswer({ model: model.value, question: input, responseId: ev.response.id, text: current.text, annotations: current.annotations, charge: charge.textContent, earlier });
        // Answered: the box is ready for the next question (a failure leaves it, to ask again).
        if (question.value.trim() === input) question.value = '';
        setStatus(u ? `Done: ${u.input_tokens} tokens in, ${u.output_tokens} out.` : 'Done.');
      } else if (ev.type === 'response.failed') {
        throw new Error(ev.response.error?.message ?? 'The agent failed.');
      } else if (ev.type === 'error') {
        throw new Error(ev.message ?? ev.error?.message ?? 'The agent failed.');
      }
    }
    if (!finished) throw new Error('The answer was cut off before it finished.');
  } catch (err) {
    const stopped = err.name === 'AbortError';
    // fetch's own wording ("Failed to fetch") says nothing to a person.
    const message = err instanceof TypeError ? 'The service could not be reached: check the connection, then ask again.' : err.message;
    setStatus(stopped ? 'Stopped.' : message, !stopped);
    // Credits held when the stream opened are returned when a run fails: the balance is read again, not the headers believed.
    if (!stopped && charge.textContent) charge.textContent = await balanceNow(balanceBefore);
    // Nothing came: no empty answer panel under the message.
    if (!text) result.hidden = true;
    let over = null;
    if (stopped && responseId) {
      // The run goes on and is stored: the next question continues from it.
      over = runOver(responseId);
      stoppedRun = over.then((status) => ({ status, fallback: continuing }));
      previousResponseId = responseId;
      reset.hidden = false;
    }
    // Followed to its end when its id is known (charged or not, its whole answer is shown then); else the balance is watched.
    if (stopped && (responseId || !charge.textContent)) void costAfterStop(responseId, balanceBefore, thisRun, over, Boolean(charge.textContent));
  } finally {
    const refocus = document.activeElement === stop || document.activeElement === run || document.activeElement === document.body;
    run.disabled = false;
    stop.hidden = true;
    reset.hidden = !previousResponseId;
    controller = null;
    if (refocus) question.focus();
  }
});

restoreAnswer();
