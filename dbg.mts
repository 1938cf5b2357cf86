import { classify } from './src/agents/router/classify.ts';
import { eventQuestion } from './src/agents/router/event-questions.ts';
const h = JSON.parse(process.argv[3] ?? '[]');
console.log(classify(process.argv[2]!, h), eventQuestion(process.argv[2]!));
