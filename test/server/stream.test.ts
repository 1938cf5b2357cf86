import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drainedOrClosed } from '../../src/server/stream.js';

describe('drainedOrClosed', () => {
  it('leaves no listener behind, whichever of drain and close comes first', async () => {
    const raw = new PassThrough();
    for (let i = 0; i < 100; i++) {
      const waited = drainedOrClosed(raw);
      raw.emit('drain');
      await waited;
    }
    expect(raw.listenerCount('drain')).toBe(0);
    expect(raw.listenerCount('close')).toBe(0);
    expect(raw.listenerCount('error')).toBe(0);
    const last = drainedOrClosed(raw);
    raw.destroy();
    await last;
    expect(raw.listenerCount('drain')).toBe(0);
  });
});
