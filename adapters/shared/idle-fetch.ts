/** A response body that received nothing for longer than its allowance. */
export class IdleBodyError extends Error {
  constructor(readonly idleMs: number) {
    super(`no data from the research service for ${Math.round(idleMs / 1000)} s`);
    this.name = 'IdleBodyError';
  }
}

/**
 * `fetch` whose response bodies fail with IdleBodyError when no byte arrives for `idleMs`.
 * The service sends a keep-alive at least every 15 s while an answer is being prepared, so a
 * body that stays silent much longer belongs to a stuck service or a dead proxy; without this
 * a chat message would show "writing…" until Node's own body timeout, five minutes later.
 */
export function idleTimeoutFetch(idleMs: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.body) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const silent = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new IdleBodyError(idleMs)), idleMs);
        });
        try {
          const { done, value } = await Promise.race([reader.read(), silent]);
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (err) {
          // Closes the connection underneath, so a stuck service does not keep a socket.
          reader.cancel(err).catch(() => {});
          controller.error(err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const wrapped = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(wrapped, 'url', { value: res.url });
    return wrapped;
  };
}
