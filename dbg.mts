import { positionsSaid } from './src/agents/router/book.ts';
console.log(positionsSaid(process.argv[2]!));
