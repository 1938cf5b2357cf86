import { classify } from './src/agents/router/classify.ts';
import { readFileSync } from 'node:fs';
const h = [{ role: 'user' as const, content: 'shutdown odds, model vs market?' }, { role: 'assistant' as const, content: 'This event has one yes/no contract, **Shutdown**: the market gives it 58.0%.\n\n_From the stored report on **Government shutdown by December 2026?** (KXSHUTDOWN-26DEC31), as of 2026-11-19 15:00 UTC; ask for the event\'s address again for the whole report._' }];
for (const q of ['and the AI model release market?', 'which one has more volume?', 'is ai release likely?', 'what about the ai one']) console.log(q, '=>', JSON.stringify(classify(q, h)));
