/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser, hence the DOM types.
import OpenAI from 'openai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/app.js';
import type { AgentEvent } from '../../../src/agents/types.js';
import { SvcError } from '../../../src/errors.js';
import { accessibilityViolations, launchChromium, overflowsHorizontally, screenshot, type AxeViolation } from '../../helpers/browser.js';
import { eventUrl } from '../../fixtures/kalshi-world.js';
import { startFakeKalshi, type FakeKalshi } from '../../helpers/fake-kalshi.js';
import { pinnedMarketAgents } from '../../helpers/market-agents.js';
import { paidAgents } from '../../helpers/paid-agent.js';
import { answer, scriptedAgent, sleep } from '../../helpers/scripted-agent.js';
import { startService, type TestService } from '../../helpers/service.js';

/** Streams its first sentence, then waits for the test to let it finish: proof the page shows text as it arrives. */
let release: () => void = () => {};
const citing = scriptedAgent('svc-test-cite', async function* (): AsyncGenerator<AgentEvent> {
  const gate = new Promise<void>((r) => (release = r));
  yield { type: 'text', delta: 'Revenue rose 8% [1]' };
  await gate;
  yield { type: 'text', delta: ' while services grew 14% [2].' };
  yield { type: 'citation', citation: { order: 1, name: 'Apple 10-K 2025, page 21', url: 'https://www.sec.gov/Archives/edgar/data/320193/aapl-10k.htm#page=21' } };
  yield { type: 'citation', citation: { order: 2, name: 'Apple 10-K 2025, page 40', url: 'https://www.sec.gov/Archives/edgar/data/320193/aapl-10k.htm#page=40' } };
  yield { type: 'done' };
});

const DESKTOP = { width: 1100, height: 800 };

/** Fails after its first words, as an agent whose data source breaks mid-answer does. */
const breaking = scriptedAgent('svc-test-break', async function* (): AsyncGenerator<AgentEvent> {
  yield { type: 'text', delta: 'Revenue rose' };
  await sleep(50);
  yield { type: 'failed', error: new SvcError('upstream', { code: 'upstream_error', message: 'The filings source stopped answering.' }) };
});

/** A report generation slow to start, as a real one fetching Kalshi data is: its stream opens (keep-alives) before it holds 3 credits. */
const slowPaid = (core: Core) =>
  scriptedAgent('svc-slow-paid', async function* (req): AsyncGenerator<AgentEvent> {
    await sleep(600);
    const { hold, remaining } = await core.billing.hold({ accountId: req.caller.accountId, amount: 3, jobId: req.requestId, what: 'Generating a test report', requestId: req.requestId });
    yield { type: 'meta', meta: { credits: { charged: 3, remaining } } };
    yield* answer('Paid answer').slice(0, -1);
    await core.billing.capture(hold.id, req.requestId);
    yield { type: 'done' };
  });

/** A report charged as its stream opens, whose text then comes slowly: stopped after the charge is shown. */
const chargedSlow = (core: Core) =>
  scriptedAgent('svc-charged-slow', async function* (req): AsyncGenerator<AgentEvent> {
    const { hold, remaining } = await core.billing.hold({ accountId: req.caller.accountId, amount: 3, jobId: req.requestId, what: 'Generating a test report', requestId: req.requestId });
    yield { type: 'meta', meta: { credits: { charged: 3, remaining } } };
    yield { type: 'text', delta: 'First part' };
    await sleep(800);
    yield { type: 'text', delta: ', then the rest.' };
    await core.billing.capture(hold.id, req.requestId);
    yield { type: 'done' };
  });

describe('web pages in Chromium', () => {
  let svc: TestService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: Record<string, AxeViolation[]> = {};
  const overflow: Record<string, boolean> = {};
  const email = `e2e-${process.pid}@example.com`;

  /** Screenshot, accessibility audit and phone-width check of the page as it is now. */
  async function audit(name: string) {
    await screenshot(page, `web-${name}`);
    violations[name] = await accessibilityViolations(page);
    // The same page at phone width (not reloaded: some pages are answers to a form post).
    await page.setViewportSize({ width: 360, height: 740 });
    overflow[name] = await overflowsHorizontally(page);
    await screenshot(page, `web-${name}-phone`);
    await page.setViewportSize(DESKTOP);
  }

  beforeAll(async () => {
    svc = await startService({
      env: { SVC_KEEPALIVE_MS: '100' },
      agents: (core) => [citing, scriptedAgent('svc-test', (req) => answer(`Echo: ${req.messages.at(-1)!.content}`)), breaking, ...paidAgents(core), slowPaid(core), chargedSlow(core)],
    });
    browser = await launchChromium();
    // bypassCSP only so the test can inject axe-core; the pages' own CSP is checked over HTTP.
    context = await browser.newContext({ bypassCSP: true, viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url });
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('signs up: a weak password is explained next to the field, then the account opens on API Keys', async () => {
    await page.goto(`${svc.url}/`);
    await audit('home');
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('tooshort');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Use at least 12 characters');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await audit('signup-error');
    await page.getByLabel('Password').fill('plum orbit canyon lantern');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\/settings\/api-keys/);
    expect(await page.getByRole('status').first().textContent()).toContain('Your account is ready');
    await audit('api-keys-empty');
  });

  it('keyboard order on the log-in page: email has focus; Tab and Shift+Tab follow reading order', async () => {
    const fresh = await browser.newPage();
    await fresh.goto(`${svc.url}/login`);
    const focused = () =>
      fresh.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim()}`;
      });
    // Chromium applies `autofocus` at a rendering step after the load event: wait for it (a page without it times out here).
    await fresh.waitForFunction(() => document.activeElement?.id === 'f-email', null, { timeout: 5000 }).catch(() => {});
    expect(await focused()).toBe('#f-email');
    const walk = async (key: string, steps: number) => {
      const seen: string[] = [];
      for (let i = 0; i < steps; i++) {
        await fresh.keyboard.press(key);
        seen.push(await focused());
      }
      return seen;
    };
    expect(await walk('Tab', 3)).toEqual(['#f-password', 'button:Log in', 'a:Sign up']);
    await fresh.focus('#f-email');
    expect(await walk('Shift+Tab', 4)).toEqual(['a:Sign up', 'a:Log in', 'a:svc', 'a:Skip to content']);
    await fresh.keyboard.press('Enter');
    expect(await focused()).toBe('#main');
    await fresh.close();
  });

  let secret = '';
  it('creates a named key shown once with a copy button; the openai SDK can use it', async () => {
    await page.getByLabel('Key name').fill('e2e laptop');
    await page.getByRole('button', { name: 'Create new key' }).click();
    secret = (await page.locator('#new-key-secret').textContent())!;
    // Focus goes to the new key's Copy button (named "Copy the new key": the secret itself is not read out at once).
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.copy)).toBe('new-key-secret');
    expect(secret).toMatch(/^sk-svc-[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toMatch(/Copied|Selected/);
    if ((await page.locator('#copy-status').textContent())!.startsWith('Copied')) {
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    }
    await audit('api-key-created');
    // Post-redirect-get: reloading shows the key but not its secret again, and creates no second key.
    expect(new URL(page.url()).pathname).toBe('/settings/api-keys');
    await page.reload();
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.locator('#keys tbody tr').count()).toBe(1);

    const client = new OpenAI({ apiKey: secret, baseURL: svc.baseURL, maxRetries: 0 });
    const r = await client.responses.create({ model: 'svc-test', input: 'from the SDK' });
    expect(r.output_text).toBe('Echo: from the SDK');

    await page.goto(`${svc.url}/settings/api-keys`);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator('#keys tbody tr', { hasText: 'e2e laptop' });
    expect(await row.textContent()).toContain(`${secret.slice(0, 11)}…${secret.slice(-4)}`);
    await expect.poll(async () => {
      await page.reload();
      return page.locator('#keys tbody tr', { hasText: 'e2e laptop' }).locator('td').nth(3).textContent();
    }).not.toContain('never');
  });

  it('revokes the key after confirmation; the next SDK call is refused', async () => {
    await page.getByRole('link', { name: /Revoke key “e2e laptop”/ }).click();
    await page.waitForURL(/\/revoke$/);
    await audit('revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/api-keys');
    expect(await page.getByRole('status').first().textContent()).toContain('was revoked');
    expect(await page.locator('#revoked-keys').textContent()).toContain('e2e laptop');
    // The notice leaves the address once shown: a reload does not announce it again.
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    expect(await page.getByText('was revoked').count()).toBe(0);
    const client = new OpenAI({ apiKey: secret, baseURL: svc.baseURL, maxRetries: 0 });
    const refused = await client.responses.create({ model: 'svc-test', input: 'again' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  });

  it('a key named with one long word wraps in its cell: the page stays as wide as the window, Revoke in view', async () => {
    await page.goto(`${svc.url}/settings/api-keys`);
    const name = 'x'.repeat(60);
    await page.getByLabel('Key name').fill(name);
    await page.getByRole('button', { name: 'Create new key' }).click();
    await page.locator('#new-key-secret').waitFor();
    for (const viewport of [{ width: 1440, height: 900 }, DESKTOP]) {
      await page.setViewportSize(viewport);
      expect(await overflowsHorizontally(page), `${viewport.width} px`).toBe(false);
      const revoke = page.getByRole('link', { name: new RegExp(`Revoke key “${name}”`) });
      expect(await revoke.isVisible()).toBe(true);
      const box = (await revoke.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    await page.getByRole('link', { name: new RegExp(`Revoke key “${name}”`) }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/api-keys');
  });

  it('a form clicked twice while its post is on its way is sent once: no second API key whose secret nobody saw', async () => {
    await page.goto(`${svc.url}/settings/api-keys`);
    const keysNamed = async (name: string) => (await svc.service.deps.store.db.selectFrom('api_keys').select('id').where('name', '=', name).execute()).length;
    let posts = 0;
    await page.route('**/settings/api-keys', async (route) => {
      if (route.request().method() === 'POST') {
        posts++;
        await sleep(400);
      }
      await route.continue();
    });
    await page.getByLabel('Key name').fill('clicked twice');
    const button = page.getByRole('button', { name: 'Create new key' });
    // Clicks as a person's, not held back by the page's own state.
    // The second click a moment later, in a task of its own, as a person's double click is.
    await button.evaluate((b: HTMLButtonElement) => {
      b.click();
      setTimeout(() => b.click(), 100);
    });
    await page.locator('#new-key-secret').waitFor();
    await page.unroute('**/settings/api-keys');
    expect(posts).toBe(1);
    expect(await keysNamed('clicked twice')).toBe(1);
  });

  it('playground: the answer streams in, then its [n] markers link to the numbered sources', async () => {
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.waitForURL(/\/playground$/);
    const models = await page.locator('#model option').allTextContents();
    const listed = ((await (await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${(await svc.account()).apiKey}` } })).json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(models).toEqual(listed);
    await page.getByLabel('Agent').selectOption('svc-test-cite');
    await page.getByLabel('Question or Kalshi link').fill('How did Apple do last year?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#answer').textContent()).toBe('Revenue rose 8% [1]');
    expect(await page.locator('#sources li').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Ask' }).isDisabled()).toBe(true);
    release();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);
    expect(await page.locator('#answer').textContent()).toBe('Revenue rose 8% [1] while services grew 14% [2].');
    const cites = page.locator('#answer a.cite');
    expect(await cites.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
      ['[1]', '#source-1'],
      ['[2]', '#source-2'],
    ]);
    const sources = page.locator('#sources li a');
    // Sources open in a new tab: the answer lives only in this page.
    expect(await sources.evaluateAll((as) => as.map((a) => [a.textContent, (a as HTMLAnchorElement).href, a.getAttribute('target'), a.getAttribute('rel')]))).toEqual([
      ['Apple 10-K 2025, page 21', 'https://www.sec.gov/Archives/edgar/data/320193/aapl-10k.htm#page=21', '_blank', 'noopener noreferrer'],
      ['Apple 10-K 2025, page 40', 'https://www.sec.gov/Archives/edgar/data/320193/aapl-10k.htm#page=40', '_blank', 'noopener noreferrer'],
    ]);
    expect(await page.locator('#charge').textContent()).toBe('No credits charged.');
    // Copy answer: the text with its numbered sources under it, so that pasted elsewhere its [n] still lead somewhere.
    await page.getByRole('button', { name: 'Copy answer' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toMatch(/Copied|Selected/);
    if ((await page.locator('#copy-status').textContent())!.startsWith('Copied')) {
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        'Revenue rose 8% [1] while services grew 14% [2].\n\nSources:\n[1] Apple 10-K 2025, page 21 <https://www.sec.gov/Archives/edgar/data/320193/aapl-10k.htm#page=21>\n[2] Apple 10-K 2025, page 40 <https://www.sec.gov/Archives/edgar/data/320193/aapl-10k.htm#page=40>\n',
      );
    }
    await audit('playground-answer');
  });

  it('playground: a paid run shows what it charged, and the credit history shows the charge', async () => {
    const deps = svc.service.deps;
    const account = (await deps.store.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    await deps.accounts.setPlan(account, 'pro');
    await deps.billing.grant({ accountId: account, amount: 9, note: 'e2e credits' });
    await page.reload();
    await page.getByRole('button', { name: 'New conversation' }).isHidden();
    await page.getByLabel('Agent').selectOption('svc-paid');
    await page.getByLabel('Question or Kalshi link').fill('a report please');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);
    expect(await page.locator('#answer').textContent()).toBe('Paid answer to: a report please');
    expect(await page.locator('#charge').textContent()).toBe('Charged 3 credits; 6 left.');

    await page.getByRole('link', { name: 'Settings' }).click();
    expect(await page.locator('#plan').textContent()).toBe('Pro');
    expect(await page.locator('#credits').textContent()).toBe('6');
    await audit('settings-account');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Credits' }).click();
    const rows = await page.locator('#ledger tbody tr').allTextContents();
    expect(rows[0]).toMatch(/Charged: the credits held are spent.*±0.*6/);
    expect(rows[1]).toMatch(/Held for a report.*−3.*6/);
    expect(rows[2]).toMatch(/Granted.*e2e credits.*\+9.*9/);
    await audit('settings-credits');
  });

  it('playground: Stop does not hide a charge: a run that goes on and is charged says so once it ends', async () => {
    const account = (await svc.service.deps.store.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    await page.goto(`${svc.url}/playground`);
    const before = Number(await page.locator('#credit-balance').textContent());
    await page.getByLabel('Agent').selectOption('svc-slow-paid');
    await page.getByLabel('Question or Kalshi link').fill('a slow report please');
    await page.getByRole('button', { name: 'Ask' }).click();
    await sleep(300); // the stream is open (keep-alives); nothing is charged yet
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('Stopped.');
    await expect.poll(() => page.locator('#charge').textContent(), { timeout: 10_000 }).toBe(`The stopped run went on to its end. Charged 3 credits; ${before - 3} left.`);
    expect(await page.locator('#credit-balance').textContent()).toBe(String(before - 3));
    expect((await svc.service.deps.accounts.getAccount(account)).credits).toBe(before - 3);
    // Paid for, the whole answer it went on to write is shown.
    expect(await page.locator('#answer').textContent()).toBe('Paid answer');
    expect(await page.locator('#status').textContent()).toBe('The stopped run finished on the server: its whole answer is shown.');
    // Focus went back to the question, not to the top of the page.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');
    // The stopped run is the conversation's last turn: the next question continues from it.
    expect(await page.getByRole('button', { name: 'New conversation' }).isVisible()).toBe(true);
    const sent = page.waitForRequest((r) => r.url().endsWith('/playground/v1/responses') && r.method() === 'POST');
    await page.getByLabel('Agent').selectOption('svc-test');
    await page.getByLabel('Question or Kalshi link').fill('and then?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const previous = JSON.parse((await sent).postData()!).previous_response_id;
    expect(previous).toMatch(/^resp_/);
    const stopped = await svc.service.deps.responses.get(previous, account);
    expect(stopped && (stopped.live ? stopped.record.model : stopped.stored.model)).toBe('svc-slow-paid');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);
  });

  it('playground: a run stopped after its charge is shown still gets its whole answer; no new conversation while one runs', async () => {
    await page.goto(`${svc.url}/playground`);
    const before = Number(await page.locator('#credit-balance').textContent());
    await page.getByLabel('Agent').selectOption('svc-charged-slow');
    await page.getByLabel('Question or Kalshi link').fill('a charged report');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#charge').textContent()).toBe(`Charged 3 credits; ${before - 3} left.`);
    await expect.poll(() => page.locator('#answer').textContent()).toBe('First part');
    // The first turn is under way: "New conversation" would continue from it, so it is not offered.
    expect(await page.getByRole('button', { name: 'New conversation' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.locator('#answer').textContent(), { timeout: 10_000 }).toBe('First part, then the rest.');
    expect(await page.locator('#status').textContent()).toBe('The stopped run finished on the server: its whole answer is shown.');
    expect(await page.locator('#charge').textContent()).toBe(`Charged 3 credits; ${before - 3} left.`);
    expect(await page.getByRole('button', { name: 'New conversation' }).isVisible()).toBe(true);
  });

  it('playground: Ask and Stop by keyboard keep the focus on a control that is there', async () => {
    await page.goto(`${svc.url}/playground`);
    await page.getByLabel('Agent').selectOption('svc-test-cite');
    await page.getByLabel('Question or Kalshi link').fill('Apple revenue?');
    await page.getByRole('button', { name: 'Ask' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('stop');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Stopped.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');
  });

  it('playground: Ctrl+Enter asks from the question box; a failure is an alert, progress is not', async () => {
    await page.goto(`${svc.url}/playground`);
    const alert = page.getByRole('alert');
    // Only spaces (an empty box is stopped by the browser's own check of the required field).
    await page.getByLabel('Question or Kalshi link').fill('   ');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => alert.textContent()).toBe('Type a question or paste a Kalshi link first.');
    expect(await page.locator('#status').textContent()).toBe('');

    await page.getByLabel('Agent').selectOption('svc-test');
    await page.getByLabel('Question or Kalshi link').fill('ping');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);
    expect(await page.locator('#answer').textContent()).toBe('Echo: ping');
    // The earlier mistake no longer stands once a run starts.
    expect(await alert.textContent()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');

    await page.getByLabel('Agent').selectOption('svc-test-break');
    await page.getByLabel('Question or Kalshi link').fill('Apple revenue?');
    await page.keyboard.press('Meta+Enter');
    await expect.poll(() => alert.textContent()).toBe('The filings source stopped answering.');
    expect(await page.locator('#status').textContent()).toBe('');
    // What came before the failure stays readable.
    expect(await page.locator('#answer').textContent()).toBe('Revenue rose');
    await audit('playground-failed');
  });

  it('playground: the last answer is kept for the tab: Back from another page shows it, and a follow-up continues from it', async () => {
    // The answer kept is the last finished one ("Echo: ping"), not the failure after it.
    await page.goto(`${svc.url}/settings/api-keys`);
    await page.goBack();
    await expect.poll(() => page.locator('#answer').textContent()).toBe('Echo: ping');
    expect(await page.getByRole('button', { name: 'New conversation' }).isVisible()).toBe(true);
    // The browser puts back the form as it was left (the agent last chosen); the answer is the page's.
    await page.getByLabel('Agent').selectOption('svc-test');
    const kept = await page.evaluate(() => JSON.parse(Object.entries(sessionStorage).find(([k]) => k.startsWith('svc.playground.'))![1]).responseId as string);
    await page.getByLabel('Question or Kalshi link').fill('and then?');
    const sent = page.waitForRequest((r) => r.url().endsWith('/playground/v1/responses') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Ask' }).click();
    expect(JSON.parse((await sent).postData()!).previous_response_id).toBe(kept);
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);

    // A new conversation forgets it; the next answer is kept again.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.reload();
    expect(await page.locator('#result').isHidden()).toBe(true);
    await page.getByLabel('Agent').selectOption('svc-test');
    await page.getByLabel('Question or Kalshi link').fill('kept');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);
    await page.reload();
    expect(await page.locator('#answer').textContent()).toBe('Echo: kept');
  });

  it('playground: earlier turns stay above the answer, each under its question, also after a reload; the box is emptied for the next question', async () => {
    await page.goto(`${svc.url}/playground`);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByLabel('Agent').selectOption('svc-test');
    const ask = async (q: string) => {
      await page.getByLabel('Question or Kalshi link').fill(q);
      await page.getByRole('button', { name: 'Ask' }).click();
      await expect.poll(() => page.locator('#answer').textContent()).toBe(`Echo: ${q}`);
      await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Done/);
    };
    await ask('first question');
    expect(await page.getByLabel('Question or Kalshi link').inputValue()).toBe('');
    expect(await page.locator('#asked').textContent()).toBe('You asked: first question');
    expect(await page.locator('#history').isHidden()).toBe(true);
    await ask('second question');
    await ask('third question');
    const summaries = () => page.locator('#turns details.turn summary').allTextContents();
    expect(await summaries()).toEqual(['first question', 'second question']);
    await page.locator('#turns details.turn summary').first().click();
    expect(await page.locator('#turns details.turn .answer').first().textContent()).toBe('Echo: first question');
    await page.reload();
    expect(await summaries()).toEqual(['first question', 'second question']);
    expect(await page.locator('#asked').textContent()).toBe('You asked: third question');
    expect(await page.getByLabel('Question or Kalshi link').inputValue()).toBe('');
    await audit('playground-history');
    // A new conversation starts empty: no earlier turns, no follow-up left in the box.
    await page.getByLabel('Question or Kalshi link').fill('and then?');
    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await page.locator('#history').isHidden()).toBe(true);
    expect(await page.getByLabel('Question or Kalshi link').inputValue()).toBe('');
  });

  it('logs out: the pages then ask to log in again', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('You are logged out.');
    await audit('login');
    await page.goto(`${svc.url}/settings/api-keys`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('plum orbit canyon lantern');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/settings\/api-keys$/);
    // Logging out forgot the playground's kept answer.
    await page.goto(`${svc.url}/playground`);
    expect(await page.locator('#result').isHidden()).toBe(true);
  });

  it('with JavaScript off, Ask posts the question (never into the URL) and the page says the playground needs JavaScript', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: DESKTOP });
    try {
      const tab = await noScript.newPage();
      await tab.goto(`${svc.url}/playground`);
      await tab.getByLabel('Email').fill(email);
      await tab.getByLabel('Password').fill('plum orbit canyon lantern');
      await tab.getByRole('button', { name: 'Log in' }).click();
      await tab.waitForURL(/\/playground$/);
      const notice = tab.locator('noscript .notice');
      expect(await notice.isVisible()).toBe(true);
      expect(await notice.textContent()).toContain('The playground needs JavaScript');
      await tab.getByLabel('Question or Kalshi link').fill('What did Apple earn?');
      await tab.getByRole('button', { name: 'Ask' }).click();
      await tab.waitForLoadState();
      expect(new URL(tab.url()).pathname + new URL(tab.url()).search).toBe('/playground');
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('The playground needs JavaScript');
    } finally {
      await noScript.close();
    }
  });

  it('pages leave nothing in the console, such as a password form without a username field', async () => {
    const messages: string[] = [];
    const visit = async (where: BrowserContext, paths: string[]) => {
      const tab = await where.newPage();
      tab.on('console', (m) => messages.push(`${m.type()}: ${m.text()} (${tab.url()})`));
      for (const path of paths) {
        await tab.goto(`${svc.url}${path}`);
        await tab.waitForLoadState('networkidle');
      }
      await tab.close();
    };
    await visit(context, ['/settings', '/settings/api-keys', '/playground']);
    const fresh = await browser.newContext({ viewport: DESKTOP });
    await visit(fresh, ['/login', '/signup']);
    await fresh.close();
    expect(messages).toEqual([]);
  });

  /** The HTML the playground's Markdown renderer builds for `markdown`, run in a page of the site. */
  async function renderMarkdown(markdown: string): Promise<string> {
    const tab = await context.newPage();
    try {
      await tab.goto(`${svc.url}/login`);
      // A string, not a function: vitest would rewrite a function's import() for Node.
      return await tab.evaluate<string>(`import('/assets/markdown.js').then(({ renderMarkdown }) => {
        const div = document.createElement('div');
        renderMarkdown(div, ${JSON.stringify(markdown)});
        return div.innerHTML;
      })`);
    } finally {
      await tab.close();
    }
  }

  it('answer Markdown: links open in a new tab without access to this page', async () => {
    expect(await renderMarkdown('See [the 10-K](https://www.sec.gov/x?a=1&b=2).')).toBe(
      '<p>See <a href="https://www.sec.gov/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">the 10-K</a>.</p>',
    );
  });

  it('answer Markdown: _emphasis_ and *emphasis*, as text, leaving snake_case, arithmetic and **bold** alone', async () => {
    expect(await renderMarkdown('_Data: demo snapshot of 2025-06-30 [1]_ and *this too*.')).toBe('<p><em>Data: demo snapshot of 2025-06-30 [1]</em> and <em>this too</em>.</p>');
    expect(await renderMarkdown('net_income_ttm, __init__, 2*3*4 and 5 * 6 * 7 stay as typed')).toBe('<p>net_income_ttm, __init__, 2*3*4 and 5 * 6 * 7 stay as typed</p>');
    expect(await renderMarkdown('**Revenue** rose; **margin, _before_ tax** fell')).toBe('<p><strong>Revenue</strong> rose; <strong>margin, <em>before</em> tax</strong> fell</p>');
    expect(await renderMarkdown('- item with *a note*\n- _<img src=x onerror=alert(1)>_')).toBe(
      '<ul><li>item with <em>a note</em></li><li><em>&lt;img src=x onerror=alert(1)&gt;</em></li></ul>',
    );
  });

  it('answer Markdown: code blocks as written, ordered lists from their first number, ***bold emphasis***', async () => {
    expect(await renderMarkdown('Run:\n```sh\n  npm ci  # <b>x</b>\nnpm start\n```\nDone.')).toBe('<p>Run:</p><pre><code>  npm ci  # &lt;b&gt;x&lt;/b&gt;\nnpm start</code></pre><p>Done.</p>');
    expect(await renderMarkdown('```\nstill streaming')).toBe('<pre><code>still streaming</code></pre>');
    expect(await renderMarkdown('3. third\n4. fourth')).toBe('<ol start="3"><li>third</li><li>fourth</li></ol>');
    expect(await renderMarkdown('***both*** and **bold**')).toBe('<p><strong><em>both</em></strong> and <strong>bold</strong></p>');
  });

  it('answer Markdown: nested lists by indentation, block quotes and rules', async () => {
    expect(await renderMarkdown('- Fed\n  - cut: 60%\n  - hold: 40%\n    as of today\n- CPI\n\n1. first\n   - detail\n2. second')).toBe(
      '<ul><li>Fed<ul><li>cut: 60%</li><li>hold: 40%<br>as of today</li></ul></li><li>CPI</li></ul><ol><li>first<ul><li>detail</li></ul></li><li>second</li></ol>',
    );
    expect(await renderMarkdown('> **Rule:** resolves Yes if\n> the rate is cut [1]\n\nAfter.')).toBe(
      '<blockquote><p><strong>Rule:</strong> resolves Yes if<br>the rate is cut [1]</p></blockquote><p>After.</p>',
    );
    expect(await renderMarkdown('Above\n\n---\n- a\n* * *\nBelow')).toBe('<p>Above</p><hr><ul><li>a</li></ul><hr><p>Below</p>');
  });

  it('answer Markdown: tables keep their column alignment and name their rows; addresses with parentheses, in angle brackets or bare become links; a number starting a line mid-paragraph is not a list', async () => {
    expect(await renderMarkdown('| | FY2023 | FY2024 |\n|--|--:|:-:|\n| **Revenue** | 211,915 | 245,122 |')).toBe(
      '<div class="table-wrap" tabindex="0" role="group" aria-label="Table, scrolls sideways when wider than the page"><table><thead><tr><th scope="col" class="whole"></th><th scope="col" class="whole align-right">FY2023</th><th scope="col" class="whole align-center">FY2024</th></tr></thead><tbody><tr><th scope="row" class="whole"><strong>Revenue</strong></th><td class="whole align-right">211,915</td><td class="whole align-center">245,122</td></tr></tbody></table></div>',
    );
    expect(await renderMarkdown('See [Apple](https://en.wikipedia.org/wiki/Apple_(company)), <https://www.sec.gov/x> and https://kalshi.com/markets/a/b/c.')).toBe(
      '<p>See <a href="https://en.wikipedia.org/wiki/Apple_(company)" target="_blank" rel="noopener noreferrer">Apple</a>, <a href="https://www.sec.gov/x" target="_blank" rel="noopener noreferrer">https://www.sec.gov/x</a> and <a href="https://kalshi.com/markets/a/b/c" target="_blank" rel="noopener noreferrer">https://kalshi.com/markets/a/b/c</a>.</p>',
    );
    expect(await renderMarkdown('See https://en.wikipedia.org/wiki/Apple_(company) for more (or https://www.sec.gov/x).')).toBe(
      '<p>See <a href="https://en.wikipedia.org/wiki/Apple_(company)" target="_blank" rel="noopener noreferrer">https://en.wikipedia.org/wiki/Apple_(company)</a> for more (or <a href="https://www.sec.gov/x" target="_blank" rel="noopener noreferrer">https://www.sec.gov/x</a>).</p>',
    );
    expect(await renderMarkdown('Revenue grew in fiscal\n2024. It then slowed.\n\n+ one\n+ two')).toBe('<p>Revenue grew in fiscal<br>2024. It then slowed.</p><ul><li>one</li><li>two</li></ul>');
    expect(await renderMarkdown('**3*4 = 12** and more')).toBe('<p><strong>3*4 = 12</strong> and more</p>');
  });

  it('answer Markdown: escaped characters are shown as themselves; an escaped pipe stays inside its table cell', async () => {
    expect(await renderMarkdown('You asked about “odds [2\\]” and 3\\*4 [1]')).toBe('<p>You asked about “odds [2]” and 3*4 [1]</p>');
    expect(await renderMarkdown('| Outcome | Price |\n|---|---|\n| Band 1 \\| cold | 40% |')).toBe(
      '<div class="table-wrap" tabindex="0" role="group" aria-label="Table, scrolls sideways when wider than the page"><table><thead><tr><th scope="col" class="whole">Outcome</th><th scope="col" class="whole">Price</th></tr></thead><tbody><tr><th scope="row">Band 1 | cold</th><td class="whole">40%</td></tr></tbody></table></div>',
    );
  });

  it('every page audited has no WCAG 2.1 AA or best-practice violations and fits a 360 px phone', () => {
    expect(Object.keys(violations).length).toBeGreaterThanOrEqual(9);
    expect(violations).toEqual(Object.fromEntries(Object.keys(violations).map((k) => [k, []])));
    expect(overflow).toEqual(Object.fromEntries(Object.keys(overflow).map((k) => [k, false])));
  });

  it('the audit itself catches an unlabelled field and a page too wide for a phone', async () => {
    const bad = await context.newPage();
    await bad.setViewportSize({ width: 360, height: 740 });
    await bad.setContent('<!doctype html><html lang="en"><title>t</title><main><h1>t</h1><input type="text"><div style="width:900px">wide</div></main></html>');
    expect((await accessibilityViolations(bad)).map((v) => v.id)).toContain('label');
    expect(await overflowsHorizontally(bad)).toBe(true);
    await bad.close();
  });
});

describe('playground in Chromium with the real prediction-markets agent and a fake Kalshi', () => {
  let fake: FakeKalshi;
  let svc: TestService;
  let browser: Browser;

  beforeAll(async () => {
    fake = await startFakeKalshi();
    svc = await startService({ env: { SVC_KALSHI_API_URL: fake.apiUrl }, agents: pinnedMarketAgents });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await fake?.close();
  });

  it('a pasted Kalshi link becomes a report charged 3 credits; the cached report is then free', async () => {
    const page = await (await browser.newContext({ viewport: DESKTOP, bypassCSP: true })).newPage();
    const address = `kalshi-e2e-${process.pid}@example.com`;
    await page.goto(`${svc.url}/signup`);
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill('plum orbit canyon lantern');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\/settings\/api-keys/);
    const deps = svc.service.deps;
    const account = (await deps.store.db.selectFrom('accounts').select('id').where('email', '=', address).executeTakeFirstOrThrow()).id;
    await deps.accounts.setPlan(account, 'plus');
    await deps.billing.grant({ accountId: account, amount: 5, note: 'e2e credits' });

    const ticker = fake.world.openEvents.find((t) => t.startsWith('KXHIGHNY-'))!;
    const link = eventUrl(fake.world, ticker);
    await page.goto(`${svc.url}/playground`);
    await page.getByLabel('Agent').selectOption('svc-prediction-markets-agent');
    await page.getByLabel('Question or Kalshi link').fill(link);
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toMatch(/^Done/);
    expect(await page.locator('#charge').textContent()).toBe('Charged 3 credits; 2 left.');
    const answerText = (await page.locator('#answer').textContent())!;
    expect(answerText).toContain(ticker);
    const cites = await page.locator('#answer a.cite').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const sources = await page.locator('#sources li').evaluateAll((lis) => lis.map((li) => ({ id: li.id, href: li.querySelector('a')?.getAttribute('href') })));
    expect(cites.length).toBeGreaterThanOrEqual(sources.length);
    expect(sources.length).toBeGreaterThan(2);
    // Every source is cited, and every citation link lands on a listed source.
    expect(new Set(cites)).toEqual(new Set(sources.map((s) => `#${s.id}`)));
    expect(sources.filter((s) => !/^https?:\/\//.test(s.href ?? ''))).toEqual([]);
    expect(await page.locator('#credit-balance').textContent()).toBe('2');
    await screenshot(page, 'web-playground-kalshi-report');
    // On a phone, a cell's word stays whole ("$0.32", a ticker): the wide table scrolls instead.
    await page.setViewportSize({ width: 375, height: 740 });
    const brokenWords = await page.locator('#answer td, #answer th').evaluateAll((cells) =>
      cells.filter((c) => !/\s/.test(c.textContent!.trim()) && c.textContent!.trim()).filter((c) => {
        const range = document.createRange();
        range.selectNodeContents(c);
        return new Set(Array.from(range.getClientRects() as ArrayLike<DOMRect>).map((r) => Math.round(r.top))).size > 1;
      }).map((c) => c.textContent),
    );
    expect(brokenWords).toEqual([]);
    expect(await page.locator('#answer .table-wrap').evaluateAll((ws) => ws.some((w) => w.scrollWidth > w.clientWidth))).toBe(true);
    await page.setViewportSize(DESKTOP);
    // The rendered report (headings, tables, lists) passes the same audit as the pages.
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByLabel('Agent').selectOption('svc-prediction-markets-agent:cache');
    await page.getByLabel('Question or Kalshi link').fill(link);
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toMatch(/^Done/);
    expect(await page.locator('#charge').textContent()).toMatch(/^(No credits charged\.|Charged 0 credits; 2 left\.)$/);
    expect(await page.locator('#answer').textContent()).toBe(answerText);
    expect((await deps.accounts.getAccount(account)).credits).toBe(2);
  });
});
