/**
 * A minimal browser for the web pages over plain HTTP: keeps cookies per name, never follows
 * redirects (tests look at them), and reads the CSRF token out of the last page's forms.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The raw Set-Cookie headers of the last response. */
  lastSetCookie: string[] = [];
  csrf = '';

  constructor(
    readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(method: string, path: string, init: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Headers; text: string }> {
    const headers: Record<string, string> = { ...this.headers, ...init.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(`${this.url}${path}`, { method, headers, body, redirect: 'manual' });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text) ?? /data-csrf="([^"]+)"/.exec(text);
    if (token) this.csrf = token[1]!;
    return { status: res.status, headers: res.headers, text };
  }

  /** The Cookie header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** Posts a form with this browser's CSRF token unless the form brings its own `_csrf` (or `null` drops it). */
  post(path: string, form: Record<string, string>, { csrf = this.csrf as string | null } = {}) {
    return this.request('POST', path, { form: csrf === null ? form : { _csrf: csrf, ...form } });
  }

  async signUp(email: string, password = 'plum orbit canyon lantern') {
    await this.get('/signup');
    const res = await this.post('/signup', { email, password });
    if (res.status !== 303) throw new Error(`sign-up failed: ${res.status} ${res.text.slice(0, 500)}`);
    await this.get('/settings/api-keys');
    return res;
  }

  /** Creates a key on the API Keys page and returns its id and secret, read off the page the post redirects to. */
  async createKey(name = ''): Promise<{ id: string; secret: string }> {
    const post = await this.post('/settings/api-keys', { name });
    if (post.status !== 303) throw new Error(`key creation failed: ${post.status}`);
    const res = await this.get(post.headers.get('location')!);
    const secret = /id="new-key-secret">([^<]+)</.exec(res.text)![1]!;
    const row = res.text.split('<tr').find((r) => r.includes(`…${secret.slice(-4)}</code>`))!;
    return { id: /data-key-id="([^"]+)"/.exec(row)![1]!, secret };
  }
}
