/** EDGAR spells many names in capitals ("MICROSOFT CORP"); answers read better in title case. */

const SMALL = new Map([
  ['INC', 'Inc.'],
  ['INC.', 'Inc.'],
  ['CORP', 'Corp.'],
  ['CORP.', 'Corp.'],
  ['CO', 'Co.'],
  ['CO.', 'Co.'],
  ['LTD', 'Ltd.'],
  ['LTD.', 'Ltd.'],
  ['PLC', 'plc'],
  ['THE', 'The'],
  ['AND', 'and'],
  ['OF', 'of'],
  ['FOR', 'for'],
  ['COM', 'Com'],
  ['NEW', 'New'],
]);

/** "MICROSOFT CORP" → "Microsoft Corp.", "JOHNSON & JOHNSON" → "Johnson & Johnson"; mixed-case names are kept. */
export function displayName(name: string): string {
  const cleaned = name.replace(/\s*\/[A-Z]{2,5}\/?\s*$/i, '').trim();
  if (/[a-z]/.test(cleaned)) return cleaned;
  return cleaned
    .split(/\s+/)
    .map((w, i) => {
      const small = SMALL.get(w);
      if (small) return i === 0 ? small.charAt(0).toUpperCase() + small.slice(1) : small;
      // Short words are usually initials (IBM, AT&T, 3M).
      if (w.length <= 3 || /\d|&/.test(w)) return w;
      return w.charAt(0) + w.slice(1).toLowerCase();
    })
    .join(' ');
}

const LEGAL = /,?\s+(inc\.?|incorporated|corp\.?|corporation|co\.?|company|ltd\.?|limited|plc|llc|l\.?p\.?|n\.?v\.?|s\.?a\.?|ag|se)$/i;

/** "Apple Inc." → "Apple", for "Apple's fiscal year…". */
export function shortName(name: string): string {
  let n = displayName(name);
  while (LEGAL.test(n)) n = n.replace(LEGAL, '');
  return n || displayName(name);
}

/** "Apple's", "Siemens'". */
export const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);
