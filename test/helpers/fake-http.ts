import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type FakeReply =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number }
  | 'hang'
  /** Sends the status line, headers and the start of a JSON body, then nothing more. */
  | 'stall-body';

export type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/**
 * A real HTTP server on a loopback port that answers with scripted replies and records every
 * request: the base for the fakes of Kalshi, the SEC, Slack and Discord in tests.
 */
export class FakeHttpServer {
  readonly requests: FakeRequest[] = [];
  #server: http.Server;
  #sockets = new Set<import('node:net').Socket>();
  url = '';

  constructor(private handler: Handler) {
    this.#server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', async () => {
        const u = new URL(req.url ?? '/', 'http://x');
        const fr: FakeRequest = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body };
        this.requests.push(fr);
        let reply: FakeReply;
        try {
          reply = await this.handler(fr);
        } catch (err) {
          reply = { status: 500, json: { error: String(err) } };
        }
        if (reply === 'hang') return; // never answers: the client must time out
        if (reply === 'stall-body') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"markets":[');
          return;
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        const headers = { ...(reply.json !== undefined ? { 'content-type': 'application/json' } : { 'content-type': 'text/plain' }), ...reply.headers };
        res.writeHead(reply.status ?? 200, headers);
        res.end(reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? ''));
      });
    });
    this.#server.on('connection', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
  }

  setHandler(handler: Handler): void {
    this.handler = handler;
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  count(pathPrefix: string): number {
    return this.requests.filter((r) => r.path.startsWith(pathPrefix)).length;
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((r) => this.#server.close(() => r()));
  }
}
