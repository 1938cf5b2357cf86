import { describe, expect, it } from 'vitest';
import { englishOnlyNote, formInstructed, languageInstructed } from '../../src/agents/instructions.js';

describe('formInstructed: the form instructions ask answers in', () => {
  const cases: [string, string | null][] = [
    ['Answer in one sentence.', 'sentence'],
    ['Reply in a single sentence', 'sentence'],
    ['Respond with one short sentence only.', 'sentence'],
    ['Keep your answers to one sentence.', 'sentence'],
    ['You are a terse analyst. Use two sentences at most.', 'sentence'],
    ['Be brief.', null],
    ['Be concise', null],
    ['Please keep it short', null],
    ['Keep your answers brief and to the point.', null],
    ['Answer concisely.', null],
    ['Short answers please.', null],
    ['One-sentence answers only.', 'sentence'],
    ['TL;DR style.', 'sentence'],
    ['You are a helpful assistant that answers in a concise manner.', null],
    ['Keep responses under 30 words.', 'sentence'],
    ['Never use bullet points; answer in one sentence.', 'sentence'],
    ['Reply with just the number.', 'number'],
    ['Only give the number', 'number'],
    ['Only give the number.', 'number'],
    ['Answer with a single number.', 'number'],
    ['Numbers only, no words.', 'number'],
    ['Just the figure, please.', 'number'],
    ['Return only the value', 'number'],
    ['Respond with nothing but the number.', 'number'],
    ['Format as a table.', 'table'],
    ['Format your answers as a markdown table', 'table'],
    ['Put the figures in a table.', 'table'],
    ['Use a table.', 'table'],
    ['Present results in tabular form', 'table'],
    ['Reply with bullet points.', 'bullets'],
    ['Use bullets', 'bullets'],
    ['Answer as a bulleted list.', 'bullets'],
    ['Give your answer as a list.', 'bullets'],
    ['Explain like I\'m 12.', 'simple'],
    ['ELI5', 'simple'],
    ['Use plain English, no jargon.', 'simple'],
    ['Write for a beginner.', 'simple'],
    ['Answer in simple words', 'simple'],
    ['Answer in one line.', 'line'],
    ['One-liners only.', 'line'],
    // Not about form.
    ['You are a helpful assistant.', null],
    ['You are a helpful financial analyst who cites sources.', null],
    ['Always answer about Apple Inc.', null],
    ['Cite your sources and be accurate.', null],
    ['Think step by step.', null],
    ['', null],
    // Forbidding a form asks none.
    ["Don't use bullet points.", null],
    ['Never reply with just the number.', null],
    ['Do not format as a table.', null],
  ];
  for (const [text, form] of cases) {
    it(`${JSON.stringify(text)} → ${form}`, () => expect(formInstructed(text)?.form ?? null).toBe(form));
  }

  it('finds the form among other instructions, and whether one figure alone is wanted', () => {
    expect(formInstructed('You are a helpful assistant. Answer in one sentence.')?.form).toBe('sentence');
    expect(formInstructed('You are an analyst for a hedge fund;\nreply with just the number')?.form).toBe('number');
    expect(formInstructed('Answer with a single number.')?.one).toBe(true);
    expect(formInstructed('Only give the numbers.')?.one).toBe(false);
    expect(formInstructed(null)).toBeNull();
  });
});

describe('languageInstructed: a language other than English asked', () => {
  const cases: [string, string | null][] = [
    ['Réponds en français.', 'French'],
    ['Répondez toujours en français, s\'il vous plaît.', 'French'],
    ['Tu es un assistant financier. Sois bref.', 'French'],
    ['Responde en español.', 'Spanish'],
    ['Eres un asistente financiero, responde siempre con respuestas breves.', 'Spanish'],
    ['Antworte immer auf Deutsch.', 'German'],
    ['Du bist ein Finanzassistent und antwortest kurz.', 'German'],
    ['Rispondi in italiano.', 'Italian'],
    ['Responda sempre em português.', 'Portuguese'],
    ['Antwoord altijd in het Nederlands.', 'Dutch'],
    ['请用中文回答。', 'Chinese'],
    ['日本語で答えてください。', 'Japanese'],
    ['한국어로 대답해 주세요.', 'Korean'],
    ['Отвечай по-русски.', 'Russian'],
    ['Answer in French.', 'French'],
    ['Please reply only in Spanish, please.', 'Spanish'],
    ['You are helpful. Respond in German when possible.', 'German'],
    ['Japanese only.', 'Japanese'],
    // English, or no language.
    ['Answer in English.', null],
    ['You are a helpful assistant.', null],
    ['Answer in one sentence.', null],
    ['Focus on investments in Chinese companies.', null],
    ['Always answer about Apple Inc. and be brief.', null],
    ['Numbers only.', null],
    ['The figures are in millions; data is as of 2024.', null],
    ['Work solo, in order, and explain it in detail.', null],
    ['You are an assistant for a French bank.', null],
    [' ', null],
  ];
  for (const [text, language] of cases) {
    it(`${JSON.stringify(text)} → ${language}`, () => expect(languageInstructed(text)).toBe(language));
  }

  it('says so in one line, naming the language', () => {
    expect(englishOnlyNote('French')).toBe('(This service answers in English; French was asked.)');
  });
});
