import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import type { Blueprint, Diagnosis } from '@forge/shared';
import { applyPlan, planRepair, restoreBackup, type RepairPlan, type RepairTarget } from './index.ts';
import { runCommand } from '../exec/index.ts';
import { provisionToolchain } from '../toolchains/index.ts';
import { versionCommand } from './resolve-version.ts';
import {
  blueprint,
  runForReal,
  useLocalRegistry,
  useTempDirs,
  writeTree,
} from '../../../test/support/repair-projects.ts';

const tempDir = useTempDirs();
const localRegistry = useLocalRegistry();

/**
 * `first` then a folder holding only `node`: a PATH on which none of `tools` is found unless
 * `first` has it, as on a machine where they were never installed globally.
 */
async function pathWithout(tools: string[], first: string): Promise<string> {
  const bin = await tempDir('forge-bare-path-');
  await symlink(process.execPath, path.join(bin, 'node'));
  for (const tool of tools) expect(existsSync(path.join(bin, tool))).toBe(false);
  return [first, bin].join(path.delimiter);
}

const target = (projectDir: string, over: Partial<Blueprint> = {}): RepairTarget => ({
  projectDir,
  blueprint: blueprint(over),
  run: runForReal,
});

const missing = (subjects: string[], file = 'src/main.ts'): Diagnosis => ({
  code: 'MISSING_PACKAGE',
  summary: `${subjects.join(', ')} is imported by ${file} but not declared in package.json.`,
  file,
  subjects,
  repair: 'ADD_MISSING_PACKAGES',
});

async function planOf(diagnosis: Diagnosis, t: RepairTarget): Promise<RepairPlan> {
  const result = await planRepair(diagnosis, t);
  if (!result.plan) throw new Error(`no plan: ${result.reason}`);
  return result.plan;
}

async function reasonOf(diagnosis: Diagnosis, t: RepairTarget): Promise<string> {
  const result = await planRepair(diagnosis, t);
  if (result.plan) throw new Error(`unexpected plan: ${result.plan.summary}`);
  return result.reason;
}

/** The plan's diff applied to the file as it is on disk gives exactly the content it writes. */
async function expectDiffMatches(projectDir: string, plan: RepairPlan): Promise<void> {
  for (const w of plan.writes) {
    const before = await readFile(path.join(projectDir, w.file), 'utf8');
    expect(applyPatch(before, plan.diff)).toBe(w.content);
  }
}

const NPM_PROJECT = {
  'package.json':
    '{\n  "name": "party",\n  "private": true,\n  "scripts": {\n    "build": "vite build"\n  },\n  "dependencies": {\n    "lit": "^3.0.0",\n    "zod": "^3.0.0"\n  },\n  "devDependencies": {\n    "vite": "^5.0.0"\n  }\n}\n',
  'package-lock.json': '{\n  "name": "party",\n  "lockfileVersion": 3\n}\n',
  'src/main.ts': "import confetti from 'canvas-confetti';\nconfetti();\n",
};

describe('ADD_MISSING_PACKAGES', () => {
  it('adds the version npm resolves, in sorted place, and unlocks the install', async () => {
    const project = await tempDir();
    await writeTree(project, NPM_PROJECT);
    const registry = await localRegistry({ 'canvas-confetti': ['1.0.0', '1.9.3'] });
    const plan = await planOf(
      missing(['canvas-confetti']),
      target(project, { env: { npm_config_registry: registry.url } }),
    );
    expect(plan).toMatchObject({
      code: 'ADD_MISSING_PACKAGES',
      summary: 'RepairBot added canvas-confetti@^1.9.3 to package.json',
      files: ['package.json', 'package-lock.json'],
      backup: ['package-lock.json'],
      install: 'unfrozen',
    });
    expect(registry.asked).toEqual(['canvas-confetti']);
    const written = plan.writes[0]!.content!;
    expect(written).toBe(
      NPM_PROJECT['package.json'].replace(
        '"lit": "^3.0.0",\n',
        '"canvas-confetti": "^1.9.3",\n    "lit": "^3.0.0",\n',
      ),
    );
    expect(plan.diff).toMatch(/^--- a\/package\.json\n\+\+\+ b\/package\.json\n@@ /);
    expect(plan.diff).toContain('\n+    "canvas-confetti": "^1.9.3",\n');
    await expectDiffMatches(project, plan);
  });

  it("puts a Vite app's packages in devDependencies, appended when unsorted, with the file's tabs", async () => {
    const project = await tempDir();
    const pkg =
      '{\n\t"name": "vite-app",\n\t"devDependencies": {\n\t\t"vite": "^5.0.0",\n\t\t"@types/node": "^20.0.0"\n\t}\n}';
    await writeTree(project, { 'package.json': pkg });
    const registry = await localRegistry({ 'canvas-confetti': ['1.9.3'], '@scope/pkg': ['2.1.0'] });
    const plan = await planOf(
      missing(['canvas-confetti', '@scope/pkg/sub/path', 'canvas-confetti']),
      target(project, { env: { npm_config_registry: registry.url } }),
    );
    expect(plan.summary).toBe(
      'RepairBot added canvas-confetti@^1.9.3, @scope/pkg@^2.1.0 to package.json (devDependencies)',
    );
    expect(plan.writes[0]!.content).toBe(
      '{\n\t"name": "vite-app",\n\t"devDependencies": {\n\t\t"vite": "^5.0.0",\n\t\t"@types/node": "^20.0.0",\n\t\t"canvas-confetti": "^1.9.3",\n\t\t"@scope/pkg": "^2.1.0"\n\t}\n}',
    );
    // No lockfile: npm install will write one, which undo removes again.
    expect(plan.files).toEqual(['package.json']);
    expect(plan.backup).toEqual(['package-lock.json']);
    await expectDiffMatches(project, plan);
  });

  it("adds a config file's import to devDependencies, and creates the field when there is none", async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': '{\n  "name": "app",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n',
    });
    const registry = await localRegistry({ '@vitejs/plugin-react': ['4.3.1'] });
    const plan = await planOf(
      missing(['@vitejs/plugin-react'], 'vite.config.ts'),
      target(project, { env: { npm_config_registry: registry.url } }),
    );
    expect(plan.summary).toBe(
      'RepairBot added @vitejs/plugin-react@^4.3.1 to package.json (devDependencies)',
    );
    expect(plan.writes[0]!.content).toBe(
      '{\n  "name": "app",\n  "dependencies": {\n    "react": "^18.0.0"\n  },\n  "devDependencies": {\n    "@vitejs/plugin-react": "^4.3.1"\n  }\n}\n',
    );
  });

  it("edits the app's own package.json in a workspace and resolves with pnpm, the provisioned one", async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': '{\n  "name": "mono",\n  "private": true\n}\n',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'pnpm-workspace.yaml': 'packages:\n  - apps/*\n',
      'apps/web/package.json': '{\n  "name": "web",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n',
    });
    const registry = await localRegistry({ 'canvas-confetti': ['1.9.3'] });
    // As a build runs it: pnpm provisioned into toolchains/, first on PATH; no pnpm of the machine's.
    const pnpm = await provisionToolchain(
      { tool: 'pnpm', package: 'pnpm', request: '9' },
      {
        toolchainsDir: path.join(await tempDir(), 'toolchains'),
        run: (c) => runCommand({ ...c, onLine: c.onLine ?? (() => {}), sandbox: false }),
        timeoutMs: 120_000,
      },
    );
    const plan = await planOf(
      missing(['canvas-confetti'], 'apps/web/src/App.tsx'),
      target(project, {
        packageManager: 'pnpm',
        install: ['pnpm', 'install', '--frozen-lockfile', '--reporter=append-only'],
        appDir: 'apps/web',
        installDir: '.',
        env: { npm_config_registry: registry.url, PATH: await pathWithout(['pnpm', 'yarn'], pnpm.binDir) },
      }),
    );
    expect(plan.summary).toBe('RepairBot added canvas-confetti@^1.9.3 to apps/web/package.json');
    expect(plan.files).toEqual(['apps/web/package.json', 'pnpm-lock.yaml']);
    expect(plan.writes.map((w) => w.file)).toEqual(['apps/web/package.json']);
  }, 180_000);

  it('proposes nothing for a name the registry does not know, or one that is declared already', async () => {
    const project = await tempDir();
    await writeTree(project, NPM_PROJECT);
    const registry = await localRegistry({ 'canvas-confetti': ['1.9.3'] });
    const t = target(project, { env: { npm_config_registry: registry.url } });
    expect(await reasonOf(missing(['canvas-confetti', 'canvas-confeti']), t)).toBe(
      'canvas-confeti is not a package on the npm registry',
    );
    expect(await reasonOf(missing(['lit', 'vite']), t)).toBe(
      'lit (dependencies) and vite (devDependencies) are already declared in package.json: nothing to add',
    );
    expect(await reasonOf(missing(['node:fs', './local']), t)).toMatch(/names no package/);
  });

  it('says when the registry cannot be reached', async () => {
    const project = await tempDir();
    await writeTree(project, NPM_PROJECT);
    const reason = await reasonOf(
      missing(['canvas-confetti']),
      target(project, { env: { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' } }),
    );
    expect(reason).toMatch(
      /^RepairBot could not resolve a version of canvas-confetti: the registry could not be reached/,
    );
  });

  it('resolves against the real npm registry', async () => {
    const project = await tempDir();
    await writeTree(project, NPM_PROJECT);
    const lines: string[] = [];
    const latest = await runForReal({
      argv: ['npm', 'view', 'canvas-confetti', 'version'],
      cwd: project,
      onLine: (line, stream) => {
        if (stream === 'stdout' && line.trim()) lines.push(line.trim());
      },
    });
    expect(latest.outcome).toBe('succeeded');
    const version = lines.at(-1)!;
    const plan = await planOf(missing(['canvas-confetti']), target(project));
    expect(plan.summary).toBe(`RepairBot added canvas-confetti@^${version} to package.json`);
    expect(await reasonOf(missing(['canvas-confeti-no-such-package-forge']), target(project))).toBe(
      'canvas-confeti-no-such-package-forge is not a package on the npm registry',
    );
  }, 120_000);

  it('resolves with Yarn 1 and Yarn Berry, provisioned as builds provision them', async () => {
    const toolchainsDir = path.join(await tempDir(), 'toolchains');
    const provision = (pkg: string, request: string) =>
      provisionToolchain(
        { tool: 'yarn', package: pkg, request },
        {
          toolchainsDir,
          run: (c) => runCommand({ ...c, onLine: c.onLine ?? (() => {}), sandbox: false }),
          timeoutMs: 120_000,
        },
      );
    const [classic, berry] = await Promise.all([provision('yarn', '1'), provision('@yarnpkg/cli-dist', '4')]);
    const registry = await localRegistry({ 'canvas-confetti': ['1.9.3'] });
    const PATH = (binDir: string): string => `${binDir}${path.delimiter}${process.env.PATH ?? ''}`;

    const one = await tempDir();
    await writeTree(one, {
      'package.json': '{\n  "name": "y1",\n  "dependencies": {}\n}\n',
      'yarn.lock': '# yarn lockfile v1\n',
    });
    const y1 = target(one, {
      packageManager: 'yarn',
      install: ['yarn', 'install', '--frozen-lockfile', '--non-interactive', '--no-progress'],
      env: { PATH: PATH(classic.binDir), YARN_REGISTRY: registry.url },
    });
    const plan1 = await planOf(missing(['canvas-confetti']), y1);
    expect(plan1.summary).toBe('RepairBot added canvas-confetti@^1.9.3 to package.json');
    expect(plan1.files).toEqual(['package.json', 'yarn.lock']);
    // Yarn 1 exits 0 for a package that is not there: its message says so.
    expect(await reasonOf(missing(['no-such-thing']), y1)).toBe(
      'no-such-thing is not a package on the npm registry',
    );

    const four = await tempDir();
    await writeTree(four, {
      'package.json': '{\n  "name": "y4",\n  "packageManager": "yarn@4.0.0",\n  "dependencies": {}\n}\n',
      '.yarnrc.yml': `npmRegistryServer: "${registry.url.replace(/\/$/, '')}"\nunsafeHttpWhitelist: ["127.0.0.1"]\n`,
      'yarn.lock': '__metadata:\n  version: 8\n',
    });
    const y4 = target(four, {
      packageManager: 'yarn',
      install: ['yarn', 'install', '--immutable'],
      env: { PATH: PATH(berry.binDir) },
    });
    expect((await planOf(missing(['canvas-confetti']), y4)).summary).toBe(
      'RepairBot added canvas-confetti@^1.9.3 to package.json',
    );
    expect(await reasonOf(missing(['no-such-thing']), y4)).toBe(
      'no-such-thing is not a package on the npm registry',
    );
  }, 240_000);

  it("asks each package manager in its own words (bun: npm's)", () => {
    const t = (over: Partial<Blueprint>): RepairTarget => target('/p', over);
    expect(versionCommand(t({}), 'x')).toEqual(['npm', 'view', 'x', 'version']);
    expect(versionCommand(t({ packageManager: 'pnpm' }), 'x')).toEqual(['pnpm', 'view', 'x', 'version']);
    expect(
      versionCommand(t({ packageManager: 'yarn', install: ['yarn', 'install', '--frozen-lockfile'] }), 'x'),
    ).toEqual(['yarn', 'info', 'x', 'version', '--silent']);
    expect(
      versionCommand(t({ packageManager: 'yarn', install: ['yarn', 'install', '--immutable'] }), 'x'),
    ).toEqual(['yarn', 'npm', 'info', 'x', '--fields', 'version', '--json']);
    expect(versionCommand(t({ packageManager: 'bun' }), 'x')).toEqual(['npm', 'view', 'x', 'version']);
  });
});

describe('FIX_IMPORT_CASE', () => {
  const caseDiagnosis = (written: string, corrected: string, file = 'src/App.tsx'): Diagnosis => ({
    code: 'IMPORT_CASE_MISMATCH',
    summary: `"${written}" differs from the file only by case`,
    file,
    subjects: [written, corrected],
    repair: 'FIX_IMPORT_CASE',
  });
  const APP = [
    "import Header from './components/header';",
    "import { helper } from './components/headerUtils';",
    'export { Footer } from "./components/header";',
    "const Lazy = lazy(() => import('./components/header'));",
    "const legacy = require('./components/header');",
    "// the string './components/header' in a comment is not an import",
    '',
  ].join('\n');

  it('rewrites every import of that exact literal in the importer, nothing else', async () => {
    const project = await tempDir();
    await writeTree(project, {
      'src/App.tsx': APP,
      'src/components/Header.tsx': 'export default function Header() {}\n',
      'src/components/headerUtils.ts': 'export const helper = 1;\n',
    });
    const plan = await planOf(caseDiagnosis('./components/header', './components/Header'), target(project));
    expect(plan.summary).toBe(
      'RepairBot changed the import "./components/header" to "./components/Header" in src/App.tsx',
    );
    expect(plan.files).toEqual(['src/App.tsx']);
    expect(plan.install).toBeUndefined();
    expect(plan.writes[0]!.content).toBe(
      [
        "import Header from './components/Header';",
        "import { helper } from './components/headerUtils';",
        'export { Footer } from "./components/Header";',
        "const Lazy = lazy(() => import('./components/Header'));",
        "const legacy = require('./components/Header');",
        "// the string './components/header' in a comment is not an import",
        '',
      ].join('\n'),
    );
    await expectDiffMatches(project, plan);
  });

  it('resolves folders to their index file', async () => {
    const project = await tempDir();
    await writeTree(project, {
      'src/main.js': "import ui from './UI';\n",
      'src/ui/index.js': 'export default 1;\n',
    });
    const plan = await planOf(caseDiagnosis('./UI', './ui', 'src/main.js'), target(project));
    expect(plan.writes[0]!.content).toBe("import ui from './ui';\n");
  });

  it('declines when the corrected path is ambiguous, missing, or not a case change', async () => {
    const project = await tempDir();
    await writeTree(project, {
      'src/App.tsx': APP,
      'src/components/Header.tsx': '',
      'src/components/Header.jsx': '',
      'src/components/Nav.tsx': '',
    });
    expect(await reasonOf(caseDiagnosis('./components/header', './components/Header'), target(project))).toBe(
      '"./components/Header" could mean src/components/Header.jsx or src/components/Header.tsx: RepairBot does not guess',
    );
    expect(
      await reasonOf(caseDiagnosis('./components/footer', './components/Footer'), target(project)),
    ).toMatch(/does not resolve to a file/);
    expect(await reasonOf(caseDiagnosis('./components/header', './components/Nav'), target(project))).toMatch(
      /do not differ by letter case only/,
    );
    expect(
      await reasonOf(caseDiagnosis('./components/nav', './components/Nav', '../App.tsx'), target(project)),
    ).toMatch(/does not name the import/);
    expect(await reasonOf(caseDiagnosis('./components/nav', './components/Nav'), target(project))).toBe(
      'src/App.tsx has no import of "./components/nav"',
    );
  });
});

describe('install-mode repairs', () => {
  const diagnosis = (repair: Diagnosis['repair'], subjects?: string[]): Diagnosis => ({
    code: 'UNKNOWN',
    summary: 'x',
    ...(subjects ? { subjects } : {}),
    repair,
  });

  it('REINSTALL_UNFROZEN saves the lockfile the unlocked install rewrites', async () => {
    const project = await tempDir();
    await writeTree(project, { 'package.json': '{}', 'package-lock.json': '{}' });
    expect(await planOf(diagnosis('REINSTALL_UNFROZEN'), target(project))).toEqual({
      code: 'REINSTALL_UNFROZEN',
      summary:
        'RepairBot reinstalls without the frozen lockfile: package-lock.json will be updated to match package.json',
      files: ['package-lock.json'],
      diff: '',
      writes: [],
      backup: ['package-lock.json'],
      install: 'unfrozen',
    });
    const pnpm = await tempDir();
    await writeTree(pnpm, { 'package.json': '{}', 'pnpm-lock.yaml': '' });
    const plan = await planOf(
      diagnosis('REINSTALL_UNFROZEN'),
      target(pnpm, { packageManager: 'pnpm', install: ['pnpm', 'install', '--frozen-lockfile'] }),
    );
    expect(plan.summary).toContain('pnpm-lock.yaml will be updated');
    const none = await tempDir();
    await writeTree(none, { 'package.json': '{}' });
    expect(await reasonOf(diagnosis('REINSTALL_UNFROZEN'), target(none))).toMatch(/no lockfile/);
    expect(
      await reasonOf(diagnosis('REINSTALL_UNFROZEN'), target(project, { install: ['make', 'deps'] })),
    ).toMatch(/project's own command/);
  });

  it("LEGACY_PEER_DEPS: npm's --legacy-peer-deps, pnpm's strict peers off, none for yarn and bun", async () => {
    const project = await tempDir();
    await writeTree(project, { 'package.json': '{}', 'package-lock.json': '{}' });
    const npm = await planOf(
      diagnosis('LEGACY_PEER_DEPS', ['react@18.3.1', 'react-dom@17.0.2']),
      target(project),
    );
    expect(npm).toMatchObject({
      summary:
        "RepairBot retries the install with npm's --legacy-peer-deps (peer conflict: react@18.3.1, react-dom@17.0.2)",
      files: ['package-lock.json'],
      backup: ['package-lock.json'],
      install: 'legacy-peer',
      writes: [],
      diff: '',
    });
    const pnpm = await planOf(
      diagnosis('LEGACY_PEER_DEPS'),
      target(project, { packageManager: 'pnpm', install: ['pnpm', 'install', '--frozen-lockfile'] }),
    );
    expect(pnpm.summary).toMatch(/^RepairBot retries the install with pnpm's strict peer dependencies off/);
    expect(
      await reasonOf(
        diagnosis('LEGACY_PEER_DEPS'),
        target(project, { packageManager: 'yarn', install: ['yarn', 'install'] }),
      ),
    ).toMatch(/^yarn does not fail an install on conflicting peer dependencies/);
    expect(
      await reasonOf(
        diagnosis('LEGACY_PEER_DEPS'),
        target(project, { packageManager: 'bun', install: ['bun', 'install'] }),
      ),
    ).toMatch(/^bun does not fail/);
  });

  it('DROP_FOREIGN_NODE_MODULES: drops node_modules; unlocks the install only without a lockfile', async () => {
    const locked = await tempDir();
    await writeTree(locked, {
      'package.json': '{}',
      'package-lock.json': '{}',
      'node_modules/x/a.node': 'x',
    });
    const plan = await planOf(diagnosis('DROP_FOREIGN_NODE_MODULES'), target(locked));
    expect(plan).toEqual({
      code: 'DROP_FOREIGN_NODE_MODULES',
      summary: 'RepairBot removed node_modules built for another platform; dependencies are installed afresh',
      files: [],
      diff: '',
      writes: [],
      backup: [],
      dropNodeModules: true,
      nodeModules: ['node_modules'],
    });

    const unlocked = await tempDir();
    await writeTree(unlocked, { 'package.json': '{}', 'node_modules/x/a.node': 'x' });
    const loose = await planOf(
      diagnosis('DROP_FOREIGN_NODE_MODULES'),
      target(unlocked, { install: ['npm', 'install', '--no-audit', '--no-fund'] }),
    );
    expect(loose).toMatchObject({
      install: 'unfrozen',
      backup: ['package-lock.json'],
      dropNodeModules: true,
    });

    // Applied: node_modules goes; undo removes the lockfile the fresh install wrote.
    const backupDir = path.join(await tempDir(), 'r');
    await applyPlan(loose, unlocked, backupDir);
    expect(existsSync(path.join(unlocked, 'node_modules'))).toBe(false);
    await writeFile(path.join(unlocked, 'package-lock.json'), '{"lockfileVersion":3}');
    expect(await restoreBackup(backupDir, unlocked)).toEqual(['package-lock.json']);
    expect(existsSync(path.join(unlocked, 'package-lock.json'))).toBe(false);

    expect(await reasonOf(diagnosis('DROP_FOREIGN_NODE_MODULES'), target(unlocked))).toMatch(
      /no node_modules/,
    );
  });
});

describe('USE_FRAMEWORK_BUILD', () => {
  const noScript: Diagnosis = {
    code: 'MISSING_SCRIPT',
    summary: 'package.json has no "build" script',
    subjects: ['build'],
    repair: 'USE_FRAMEWORK_BUILD',
  };

  it("adds the framework's build command as the build script", async () => {
    const project = await tempDir();
    const pkg =
      '{\n  "name": "app",\n  "scripts": {\n    "dev": "vite"\n  },\n  "devDependencies": {\n    "vite": "^5.0.0"\n  }\n}\n';
    await writeTree(project, { 'package.json': pkg });
    const plan = await planOf(
      noScript,
      target(project, { build: ['npm', 'exec', '--no', '--', 'vite', 'build'] }),
    );
    expect(plan.summary).toBe('RepairBot added the script "build": "vite build" to package.json');
    expect(plan.writes[0]!.content).toBe(
      pkg.replace('"dev": "vite"\n', '"dev": "vite",\n    "build": "vite build"\n'),
    );
    expect(plan.install).toBeUndefined();
    await expectDiffMatches(project, plan);
  });

  it('creates "scripts" when there is none, and uses the command the plan chose (webpack with its config)', async () => {
    const project = await tempDir();
    await writeTree(project, {
      'package.json': '{\n  "name": "app",\n  "devDependencies": {\n    "webpack": "^5.0.0"\n  }\n}\n',
    });
    const plan = await planOf(
      noScript,
      target(project, {
        framework: 'webpack',
        build: [
          'npm',
          'exec',
          '--no',
          '--',
          'webpack',
          '--mode',
          'production',
          '--config',
          'webpack.config.js',
        ],
      }),
    );
    expect(plan.writes[0]!.content).toBe(
      '{\n  "name": "app",\n  "scripts": {\n    "build": "webpack --mode production --config webpack.config.js"\n  },\n  "devDependencies": {\n    "webpack": "^5.0.0"\n  }\n}\n',
    );
    const vite = await planOf(noScript, target(project, { framework: 'sveltekit', build: null }));
    expect(vite.summary).toBe('RepairBot added the script "build": "vite build" to package.json');
  });

  it('declines when there is a build script already or the framework has no command of its own', async () => {
    const project = await tempDir();
    await writeTree(project, { 'package.json': '{"scripts":{"build":"tsc"}}' });
    expect(await reasonOf(noScript, target(project))).toMatch(/has a "build" script already/);
    const parcel = await tempDir();
    await writeTree(parcel, { 'package.json': '{"name":"p"}' });
    expect(await reasonOf(noScript, target(parcel, { framework: 'parcel', build: null }))).toBe(
      'Forge knows no build command of its own for the framework "parcel"',
    );
  });
});

describe('planRepair', () => {
  it('has no plan for a diagnosis without a repair', async () => {
    const project = await tempDir();
    await mkdir(project, { recursive: true });
    expect(await planRepair({ code: 'SYNTAX_ERROR', summary: 'x' }, target(project))).toEqual({
      plan: null,
      reason: 'RepairBot has no safe repair for SYNTAX_ERROR',
    });
  });
});
