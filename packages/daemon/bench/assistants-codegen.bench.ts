// pnpm bench assistants: the code generator's benchmark. Every description of
// bench/codegen/descriptions.ts is answered by the built-in generator, type-checked under strict and
// run against its checks; the table counts implementations, honest skeletons and wrong answers.
import { CASES } from './codegen/descriptions.ts';
import { runCases, table } from './codegen/run.ts';

const started = performance.now();
const outcomes = await runCases(CASES);
console.log('Code generator: descriptions answered by the built-in catalogue\n');
console.log(table(outcomes));
const misses = outcomes.filter((o) => o.verdict === 'wrong' || o.note);
if (misses.length > 0) {
  console.log('\nNotes:');
  for (const o of misses) console.log(`- [${o.verdict}] ${o.case.kind} "${o.case.description}": ${o.note}`);
}
console.log(`\n${outcomes.length} descriptions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(outcomes.some((o) => o.verdict === 'wrong') ? 1 : 0);
