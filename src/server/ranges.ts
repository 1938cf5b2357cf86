/** One byte range of a representation, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` header asks of a representation of `size` bytes (RFC 9110 §14): one range, the
 * whole representation (no header, another unit, a malformed one, or several ranges, which a
 * server may answer whole), or nothing it holds (416).
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  if (!header) return 'whole';
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return 'whole';
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return 'whole';
  if (first === '') {
    // A suffix: the last N bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return 'whole';
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
