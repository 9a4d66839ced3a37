// pnpm bench assistants: RepairBot's benchmark. Every kind of @forge/testing's broken-project
// catalogue is built by a real daemon (installs from the npm registry) with autoRepair off, then on;
// the table says per kind whether it was repaired and rebuilt green in one build (pass@1), whether
// the diagnosis named the cause at its file:line, and which files a repair changed beyond need.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Build, UploadResult } from '@forge/shared';
import { brokenProjects, makeZip, type BrokenProject } from '@forge/testing';
import { startBenchDaemon } from './bench-daemon.ts';
import { runRepairCases, score, table, type RefusedUpload } from './repairs/run.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const started = performance.now();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-repair-bench-'));
const daemon = await startBenchDaemon(
  ['--import', 'tsx', path.join(root, 'packages/daemon/src/main.ts')],
  root,
  {
    ...process.env,
    FORGE_HOME: home,
  },
);
const { url } = daemon;

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'timed-out']);

async function build(
  name: string,
  project: BrokenProject,
  autoRepair: boolean,
): Promise<Build | RefusedUpload> {
  await fetch(`${url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoRepair }),
  });
  const form = new FormData();
  form.append('file', new Blob([makeZip(project.files)]), `${name}.zip`);
  const res = await fetch(`${url}/api/upload`, { method: 'POST', body: form });
  const body = (await res.json()) as UploadResult & Partial<RefusedUpload['refused']>;
  // A project whose plan cannot be made is refused at the upload, with the error and its place.
  if (res.status === 422 && body.code)
    return { refused: { code: body.code, error: body.error ?? '', details: body.details } };
  const { buildId } = body;
  if (!buildId) throw new Error(`upload of ${name} answered ${res.status}`);
  // The build's record is read until it ends (a bench, not a test: no event stream to hold open).
  for (;;) {
    const b = (await (await fetch(`${url}/api/builds/${buildId}`)).json()) as Build;
    if (TERMINAL.has(b.status)) return b;
    await new Promise((r) => setTimeout(r, 500));
  }
}

try {
  // FORGE_REPAIR_KINDS=a,b runs only those kinds (to try one while working on it).
  const only = process.env.FORGE_REPAIR_KINDS?.split(',').filter(Boolean);
  const kinds = Object.fromEntries(
    Object.entries(await brokenProjects()).filter(([kind]) => !only?.length || only.includes(kind)),
  );
  const outcomes = await runRepairCases(kinds, build, (name) => path.join(home, 'projects', name));
  console.log('RepairBot: the broken-project catalogue, built with autoRepair off then on\n');
  console.log(table(outcomes));
  const notes = outcomes.filter((o) => o.note);
  if (notes.length) {
    console.log('\nNotes:');
    for (const o of notes) console.log(`- ${o.kind}: ${o.note}`);
  }
  console.log(`\n${outcomes.length} kinds in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const s = score(outcomes);
  process.exitCode = s.passed === s.repairable && s.overreach === 0 ? 0 : 1;
} finally {
  await daemon.stop();
  fs.rmSync(home, { recursive: true, force: true });
}
