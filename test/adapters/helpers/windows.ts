/** The most of `times` (ms, any order) that fall in one window of `perMs`: what a platform counting "N per window" saw at its busiest. */
export function busiestWindow(times: number[], perMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; first < sorted.length; first++) {
    while (last < sorted.length && sorted[last]! < sorted[first]! + perMs) last++;
    most = Math.max(most, last - first);
  }
  return most;
}
