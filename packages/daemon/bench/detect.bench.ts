// Detection benchmark: reading real JS/TS configs as text (config-text.ts) and BlueprintBot's whole
// plan of a project, median of many runs each; and the first read in a fresh process, where the
// parser is loaded.
//
// Run:  pnpm bench detect        (from the repo root; uses tsx)
// Options: --runs N (default 200 reads per config, N/10 plans per project).
//
// The configs are real files on this machine, read as they are: the web package's vite.config.ts,
// the repository's eslint.config.js, the daemon's tsup.config.ts, a webpack.config.js shipped in an
// installed npm package, and the angular.json of a test fixture (JSON with comments mode). The
// projects planned are the benches' create-vite app and the test fixture's Angular CLI app.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanObjects } from '../src/capabilities/detect/config-text.ts';
import { detectBlueprint } from '../src/capabilities/detect/detect-blueprint.ts';
import { ANGULAR_APP } from '../test/fixtures/angular-app.ts';
import { CREATE_VITE_APP } from './create-vite-app.ts';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.resolve(pkgDir, '../..');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 200;

/** A webpack.config.js from the installed packages (the pnpm store layout), if one is there. */
function installedWebpackConfig(): string | null {
  const store = path.join(repoRoot, 'node_modules/.pnpm');
  if (!existsSync(store)) return null;
  for (const dir of readdirSync(store)) {
    if (!dir.startsWith('@cyclonedx+cyclonedx-library@')) continue;
    const file = path.join(store, dir, 'node_modules/@cyclonedx/cyclonedx-library/webpack.config.js');
    if (existsSync(file)) return file;
  }
  return null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const micro = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

function timeEach(n: number, fn: () => void): number {
  for (let i = 0; i < Math.min(20, n); i++) fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

async function main() {
  console.log(`node ${process.version}, ${os.cpus().length} cpus, ${runs} reads per config`);
  const angularJson = ANGULAR_APP['ng-app/angular.json']!;
  const configs: Array<{ label: string; text: string }> = [
    {
      label: 'web vite.config.ts',
      text: readFileSync(path.join(repoRoot, 'packages/web/vite.config.ts'), 'utf8'),
    },
    { label: 'eslint.config.js', text: readFileSync(path.join(repoRoot, 'eslint.config.js'), 'utf8') },
    { label: 'daemon tsup.config.ts', text: readFileSync(path.join(pkgDir, 'tsup.config.ts'), 'utf8') },
    { label: 'angular.json (fixture)', text: angularJson },
  ];
  const webpack = installedWebpackConfig();
  if (webpack) configs.push({ label: 'webpack.config.js (npm)', text: readFileSync(webpack, 'utf8') });

  // The first read in a fresh process: loading what reads the text is part of the first plan.
  const configText = path.join(pkgDir, 'src/capabilities/detect/config-text.ts');
  const cold = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `const m = await import(${JSON.stringify(configText)}); const t = performance.now(); m.scanObjects(${JSON.stringify(configs[0]!.text)}); console.log(performance.now() - t);`,
    ],
    { cwd: pkgDir, encoding: 'utf8' },
  );
  const coldMs = Number(cold.stdout.trim());

  const rows: Array<Record<string, string | number>> = configs.map((c) => ({
    case: c.label,
    bytes: c.text.length,
    objects: scanObjects(c.text).length,
    'read (median)': micro(timeEach(runs, () => scanObjects(c.text))),
  }));
  rows.push({
    case: 'first read in a fresh process',
    bytes: configs[0]!.text.length,
    objects: '',
    'read (median)': micro(coldMs),
  });

  const root = mkdtempSync(path.join(os.tmpdir(), 'forge-detect-bench-'));
  try {
    for (const [label, files, dir] of [
      ['plan: create-vite app', CREATE_VITE_APP, 'vite-react-ts'],
      ['plan: Angular CLI app', ANGULAR_APP, 'ng-app'],
    ] as const) {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
        writeFileSync(path.join(root, name), text);
      }
      const project = path.join(root, dir);
      const plan = () =>
        detectBlueprint(project, { machine: { git: true, registry: 'https://registry.npmjs.org/' } });
      for (let i = 0; i < 5; i++) await plan();
      const times: number[] = [];
      for (let i = 0; i < Math.max(10, Math.floor(runs / 10)); i++) {
        const t = performance.now();
        await plan();
        times.push(performance.now() - t);
      }
      rows.push({ case: label, bytes: '', objects: '', 'read (median)': micro(median(times)) });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.table(rows);
}

await main();
