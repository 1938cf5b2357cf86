import type { CalibrationBin } from './model.js';

/** A reliability diagram as SVG: predicted probability against observed frequency, per 10% bin. */
export function reliabilitySvg(title: string, series: { name: string; color: string; bins: CalibrationBin[] }[]): string {
  const W = 560;
  const H = 560;
  const pad = 60;
  const x = (p: number) => pad + p * (W - 2 * pad);
  const y = (p: number) => H - pad - p * (H - 2 * pad);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="28" text-anchor="middle" font-size="15">${esc(title)}</text>`,
  ];
  for (let i = 0; i <= 10; i++) {
    const p = i / 10;
    parts.push(`<line x1="${x(p)}" y1="${y(0)}" x2="${x(p)}" y2="${y(1)}" stroke="#eee"/>`, `<line x1="${x(0)}" y1="${y(p)}" x2="${x(1)}" y2="${y(p)}" stroke="#eee"/>`);
    parts.push(`<text x="${x(p)}" y="${y(0) + 16}" text-anchor="middle">${i * 10}%</text>`, `<text x="${x(0) - 8}" y="${y(p) + 4}" text-anchor="end">${i * 10}%</text>`);
  }
  parts.push(`<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 4"/>`);
  parts.push(`<text x="${W / 2}" y="${H - 18}" text-anchor="middle">Predicted probability</text>`);
  parts.push(`<text x="18" y="${H / 2}" text-anchor="middle" transform="rotate(-90 18 ${H / 2})">Observed frequency</text>`);
  series.forEach((s, k) => {
    const pts = s.bins.filter((b) => b.count > 0);
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.map((b) => `${x(b.meanPredicted).toFixed(1)},${y(b.observed).toFixed(1)}`).join(' ')}"/>`);
    for (const b of pts) parts.push(`<circle cx="${x(b.meanPredicted).toFixed(1)}" cy="${y(b.observed).toFixed(1)}" r="${Math.min(9, 3 + Math.sqrt(b.count))}" fill="${s.color}" fill-opacity="0.6"><title>${esc(s.name)}: ${b.count} predictions</title></circle>`);
    parts.push(`<rect x="${pad + 10}" y="${pad + 10 + k * 20}" width="12" height="12" fill="${s.color}"/>`, `<text x="${pad + 28}" y="${pad + 20 + k * 20}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
