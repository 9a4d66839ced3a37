// Install benchmark (reported as ratios, never asserted): DependencyBot's install of create-vite-like
// projects WITHOUT a lockfile — Forge's shared store with pnpm — against `npm install` of the same
// package.json in a fresh folder, each side with its own caches, starting cold:
//   1. the React template, first of all (store and caches empty)
//   2. the Vue template next: a second, different template, warm from the first
//   3. the Vue template again, as another project (every package seen before)
//   4. before: the same as 3 through the daemon with `npm install` (what DependencyBot ran before)
// Forge's figure is the install step's own duration from the build record (the toolchain step that
// fetches pnpm once is reported apart).
// Run: pnpm bench install   (needs `pnpm build`: it starts the built daemon, dist/main.js)
// Options: --runs N (default 2). Every run starts from empty caches and an empty FORGE_HOME.
import { spawnSync } from 'node:child_process';
import { startBenchDaemon } from './bench-daemon.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { WebSocket } from 'ws';
import type { Build, ServerMessage } from '@forge/shared';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const main = path.join(pkgDir, 'dist/main.js');
if (!fs.existsSync(main)) {
  console.error('packages/daemon/dist/main.js is missing: run pnpm build first.');
  process.exit(1);
}
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 2;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-install-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** The build checks the install: vite and the framework resolve from node_modules. */
const build = (framework: string) =>
  `node -e "require.resolve('vite/package.json'); require.resolve('${framework}/package.json'); require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/index.html', '<h1>${framework}</h1>')"`;

/** package.json of `npm create vite` templates, as they are today (no lockfile, like many uploads). */
const TEMPLATES = {
  react: {
    name: 'vite-react',
    private: true,
    version: '0.0.0',
    type: 'module',
    scripts: { dev: 'vite', build: build('react'), lint: 'eslint .', preview: 'vite preview' },
    dependencies: { react: '^19.2.0', 'react-dom': '^19.2.0' },
    devDependencies: {
      '@eslint/js': '^9.39.0',
      '@types/react': '^19.2.0',
      '@types/react-dom': '^19.2.0',
      '@vitejs/plugin-react': '^6.0.0',
      eslint: '^9.39.0',
      'eslint-plugin-react-hooks': '^7.0.0',
      'eslint-plugin-react-refresh': '^0.4.24',
      globals: '^16.5.0',
      vite: '^8.0.0',
    },
  },
  vue: {
    name: 'vite-vue',
    private: true,
    version: '0.0.0',
    type: 'module',
    scripts: { dev: 'vite', build: build('vue'), preview: 'vite preview' },
    dependencies: { vue: '^3.5.0' },
    devDependencies: { '@vitejs/plugin-vue': '^6.0.0', vite: '^8.0.0' },
  },
} as const;
type Template = keyof typeof TEMPLATES;

function zipOf(files: Record<string, string>, name: string): string {
  const zip = new AdmZip();
  for (const [file, content] of Object.entries(files)) zip.addFile(file, Buffer.from(content));
  const out = path.join(scratch, name);
  zip.writeZip(out);
  return out;
}

/** `npm install` of the template in a fresh folder, with `cache` as npm's cache. */
function npmInstall(template: Template, dir: string, cache: string): number {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(TEMPLATES[template], null, 2));
  const t = performance.now();
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, CI: 'true', npm_config_cache: cache },
  });
  if (r.status !== 0) throw new Error(`npm install failed in ${dir}`);
  return performance.now() - t;
}

const startDaemon = (env: Record<string, string>) =>
  startBenchDaemon(main, scratch, { ...process.env, ...env });

/** Upload a ZIP, wait for build-finished, return the stored record. */
async function uploadAndWait(url: string, zip: string): Promise<Build> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  const finished = new Set<string>();
  let wake: (() => void) | null = null;
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as ServerMessage;
    if (m.type === 'build-finished') {
      finished.add(m.buildId);
      wake?.();
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const form = new FormData();
  form.set('file', new Blob([fs.readFileSync(zip)]), path.basename(zip));
  const res = await fetch(`${url}/api/upload`, { method: 'POST', body: form });
  const { buildId } = (await res.json()) as { buildId: string };
  while (!finished.has(buildId)) await new Promise<void>((resolve) => (wake = resolve));
  ws.close();
  const record = (await (await fetch(`${url}/api/builds/${buildId}`)).json()) as Build;
  if (record.status !== 'succeeded')
    throw new Error(`Forge build of ${zip} ${record.status}: ${JSON.stringify(record.error)}`);
  return record;
}

const stepMs = (b: Build, name: string): number => b.steps.find((s) => s.name === name)?.durationMs ?? NaN;

/** A template as an upload named `name`, optionally with a forge config. */
const upload = (template: Template, name: string, forgeConfig?: object) =>
  zipOf(
    {
      [`${name}/package.json`]: JSON.stringify(TEMPLATES[template], null, 2),
      ...(forgeConfig ? { [`${name}/.forgerc.json`]: JSON.stringify(forgeConfig) } : {}),
    },
    `${name}.zip`,
  );

const rows: Record<string, { npm: number[]; forge: number[] }> = {};
const add = (row: string, npm: number, forge: number) => {
  rows[row] ??= { npm: [], forge: [] };
  rows[row].npm.push(npm);
  rows[row].forge.push(forge);
};
const toolchainFetch: number[] = [];
let storePath = '';

try {
  for (let i = 0; i < runs; i++) {
    const run = path.join(scratch, `run-${i}`);
    const npmCache = path.join(run, 'npm-cache');
    const home = path.join(run, 'home');
    // Forge's side starts as empty as npm's: its own FORGE_HOME and pnpm metadata cache. The daemon
    // shares npm's cache only for row 4, where it runs npm itself.
    const daemon = await startDaemon({
      FORGE_HOME: home,
      XDG_CACHE_HOME: path.join(run, 'forge-xdg-cache'),
      npm_config_cache: npmCache,
    });
    try {
      const react = await uploadAndWait(daemon.url, upload('react', `react-${i}`));
      toolchainFetch.push(stepMs(react, 'toolchain'));
      add(
        '1. React template, first of all (cold: empty store and caches)',
        npmInstall('react', path.join(run, 'npm-react'), npmCache),
        stepMs(react, 'install'),
      );

      const vue = await uploadAndWait(daemon.url, upload('vue', `vue-${i}`));
      add(
        "2. Vue next: a second, different template (warm from React; Vue's own packages fetched)",
        npmInstall('vue', path.join(run, 'npm-vue'), npmCache),
        stepMs(vue, 'install'),
      );

      const again = await uploadAndWait(daemon.url, upload('vue', `vue-again-${i}`));
      const npmAgain = npmInstall('vue', path.join(run, 'npm-vue-again'), npmCache);
      add(
        '3. Vue in another project (warm: all its packages seen before)',
        npmAgain,
        stepMs(again, 'install'),
      );

      const before = await uploadAndWait(
        daemon.url,
        upload('vue', `vue-before-${i}`, { install: 'npm install --no-audit --no-fund' }),
      );
      add(
        '4. before: row 3 through the daemon with npm install (DependencyBot until now)',
        npmAgain,
        stepMs(before, 'install'),
      );
      storePath = path.join(home, 'store');
    } finally {
      await daemon.stop();
    }
  }

  console.log(
    `\nMachine: ${os.cpus().length} cores, Node ${process.version}; median of ${runs} runs, each from empty caches. ` +
      `pnpm fetched into toolchains/ once per FORGE_HOME in ${fmt(median(toolchainFetch))} (not counted).\n`,
  );
  console.log('| install, no lockfile | npm install (fresh folder) | Forge | Forge / npm |');
  console.log('|---|---|---|---|');
  for (const [row, { npm, forge }] of Object.entries(rows)) {
    console.log(
      `| ${row} | ${fmt(median(npm))} | ${fmt(median(forge))} | ${(median(forge) / median(npm)).toFixed(2)} |`,
    );
  }
  console.log(
    `\nGoal (docs/performance.md): row 2 ≤ 2 s. Store: ${storePath ? 'FORGE_HOME/store, hard-linked into each project' : '?'}.`,
  );
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
