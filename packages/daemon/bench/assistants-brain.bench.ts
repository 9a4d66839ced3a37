// pnpm bench assistants: the brain's benchmark. A workspace of five projects (passing, failing,
// repaired, tests failed, never built) is written through a real daemon store; every question of
// bench/brain/questions.ts is asked of the built-in engine with ANOTHER project selected where the
// question names one; the table counts right answers, honest "I don't know"s and wrong projects.
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { openStore, STORE_FILE } from '../src/store/store.ts';
import { createEngine } from '../src/features/brain/engine.ts';
import { createMemoryService } from '../src/features/memory/service.ts';
import { FIXTURE_NOW, seedWorkspace } from './brain/fixture.ts';
import { BRAIN_CASES } from './brain/questions.ts';
import { runBrainCases, score, table } from './brain/run.ts';

const started = performance.now();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-brain-bench-'));
const store = openStore(path.join(home, STORE_FILE));
const forge = createApp({
  config: { host: '127.0.0.1', allowedHosts: [], accessToken: null, webRoot: null, home },
  logger: pino({ level: 'silent' }),
  store,
  web: { mode: 'static', root: null },
  starterProject: false,
  now: () => FIXTURE_NOW,
});
const ids = seedWorkspace(forge.services, store);
const now = () => FIXTURE_NOW;
const memory = createMemoryService({ store, fleet: forge.services.fleet, now });
const engine = createEngine({ services: forge.services, memory, model: null, now });

const outcomes = await runBrainCases(BRAIN_CASES, ids, async (question, selected) => {
  const answer = await engine.answer(question, {
    authenticated: true,
    sessionRemaining: 60_000,
    project: selected,
  });
  return { reply: answer.text, certainty: answer.certainty };
});
console.log("Brain: questions answered by the built-in engine from Forge's records\n");
console.log(table(outcomes));
const misses = outcomes.filter((o) => o.verdict !== 'right' && o.verdict !== 'honest');
if (misses.length > 0 || process.argv.includes('--verbose')) {
  console.log('\nMisses:');
  for (const o of process.argv.includes('--verbose') ? outcomes : misses) {
    console.log(
      `- [${o.verdict}] "${o.question}" (selected ${o.case.selected ?? 'none'}): ${o.note ?? ''}\n    ${o.reply.replace(/\n/g, '\n    ')}`,
    );
  }
}
const s = score(outcomes);
console.log(`\n${outcomes.length} questions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await forge.close();
store.close();
fs.rmSync(home, { recursive: true, force: true });
process.exit(s.score >= 0.9 && s.wrongProject === 0 ? 0 : 1);
