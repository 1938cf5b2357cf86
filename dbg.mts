import { MONEY_SAID, MONEY_GROUPS } from './src/agents/router/trading-answers.ts';
for (const q of ['kelly on that, 3k', 'kelly on 44+ if i think 50%, 1k', 'quarter kelly on lakers, 2.5k', 'full kelly on that with a $2k bankroll', 'say it drops to 20c, how much of a 2.5k roll?', 'kelly on 1000', 'kelly on 41-42 if i think 30%, 2k', 'kelly on above 3400 at 60%, 5k']) {
  const m = MONEY_SAID.exec(q); const at = m ? MONEY_GROUPS.find((i) => m[i] !== undefined) : undefined;
  console.log(q, '=>', m && at ? m[at] + (m[at + 1] ?? '') : null);
}
