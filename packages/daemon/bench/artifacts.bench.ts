/**
 * pnpm bench artifacts: what recording a build's artifact (reproducible ZIPs, SBOM, signed
 * provenance: capabilities/artifacts/record.ts) adds to a cache-miss build of a create-vite app, side by
 * side: `npm install && vite build` (what the build costs), then the recording on the result.
 * Median of 5 recordings; the target is at most 10 % of the build.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectBlueprint } from '../src/capabilities/detect/index.ts';
import { recordArtifact } from '../src/capabilities/artifacts/record.ts';
import { loadSigningKey } from '../src/capabilities/artifacts/signing.ts';
import { CREATE_VITE_APP } from './create-vite-app.ts';

const RUNS = 5;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-artifacts-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const project = path.join(scratch, 'app');

try {
  for (const [name, content] of Object.entries(CREATE_VITE_APP)) {
    const file = path.join(project, name.replace(/^vite-react-ts\//, ''));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  const env = { ...process.env, CI: 'true', npm_config_cache: path.join(scratch, 'npm-cache') };
  let t = performance.now();
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: project, env, stdio: 'ignore' });
  execFileSync('npx', ['vite', 'build'], { cwd: project, env, stdio: 'ignore' });
  const build = performance.now() - t;

  const blueprint = await detectBlueprint(project);
  const key = loadSigningKey(path.join(scratch, 'home'));
  const times: number[] = [];
  let files = 0;
  let components = 0;
  for (let run = 0; run < RUNS; run++) {
    t = performance.now();
    const record = await recordArtifact({
      dir: path.join(scratch, 'artifacts', `b${run}`),
      projectName: 'app',
      buildId: `b${run}`,
      outputDir: path.join(project, 'dist'),
      projectDir: project,
      blueprint,
      sourceHash: 'bench',
      startedOn: new Date().toISOString(),
      noCache: true,
      forgeVersion: 'bench',
      workerName: 'local',
      key,
      skipSource: (rel) => rel === 'dist' || rel.startsWith('dist/'),
    });
    times.push(performance.now() - t);
    files = record.files;
    components = record.components;
  }
  const added = median(times);
  console.log(
    '| create-vite app, cache miss | npm install + vite build | artifact + SBOM + provenance | added |',
  );
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| ${files} output files, ${components} packages | ${(build / 1000).toFixed(2)} s | ${Math.round(added)} ms | ${((added / build) * 100).toFixed(1)} % |`,
  );
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
