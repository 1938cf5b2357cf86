import { classify } from './src/agents/router/classify.ts';
import { readFileSync } from 'node:fs';
const msgs = JSON.parse(readFileSync('/tmp/me/thread.json', 'utf8'));
console.log(JSON.stringify(classify('how much can i get filled at 62c?', [{role:'user',content:'lakers celtics odds'},{role:'assistant',content:'Open Kalshi events matching “lakers celtics odds”, with current prices (as of 2026-11-19 15:00 UTC):\n\n1. **Lakers at Celtics on November 21, 2026: winner?** (KXNBAGAME-26NOV21LALBOS, Sports) [1]: Away team (Lakers) 62.5%'}])));
console.log(JSON.stringify(classify('how much can i get filled at 62c?')));
