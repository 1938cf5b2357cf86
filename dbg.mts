import { CHANCE_SAID, chancesInPercent } from './src/agents/router/trading-answers.ts';
for (const q of ["if i think hike is 60%", "EV of buying 100 yes on above 3.0 at the ask if my fair is 90%?", "kelly at 80% with 2.5k", "what if i think 0.4", "what if i think lakers are 70%", "my fair value is .65, ev?", "buy at 40c if i think 0.5", "kelly on hold at 16%", "i think above 3.0 is 90%"]) {
  const t = chancesInPercent(q); const m = CHANCE_SAID.exec(t); console.log(q, '=>', t, '=>', m?.[1]);
}
