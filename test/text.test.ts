import { describe, expect, it } from 'vitest';
import { looksNonEnglish } from '../src/text.js';

describe('looksNonEnglish', () => {
  it.each([
    '¿Cuáles fueron los ingresos de Apple en el año fiscal 2024?',
    "Quel a été le bénéfice net de Microsoft en 2024 ?",
    'Wie hoch war der Umsatz von Apple im Geschäftsjahr 2024?',
    'Qual foi a receita da Apple em 2024?',
    '苹果2024年的收入是多少？',
    'アップルの売上高は？',
  ])('%s: another language', (q) => {
    expect(looksNonEnglish(q)).toBe(true);
  });

  it.each([
    "What was Apple's revenue in fiscal 2024?",
    'im asking about the war in the Middle East and oil odds',
    'Grupo Televisa revenue 2024',
    'odds of a Fed cut in December?',
  ])('%s: English, even with a foreign name or word in it', (q) => {
    expect(looksNonEnglish(q)).toBe(false);
  });
});
