import { classify } from './src/agents/router/classify.ts';
for (const q of ['msft rev last q', 'wat was msft rev last q', 'what about msft rev last q then', 'just apple then', 'compare it with microsoft and alphabet then', 'microsoft revenue last quarter']) console.log(q, '=>', JSON.stringify(classify(q)));
