import path from 'node:path';
import { major as semverMajor } from 'semver';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatCommand,
  type Build,
  type BuildLogsResponse,
  type FixResult,
  type Repair,
  type ServerMessage,
  type Settings,
  type UndoRepairResult,
  type UploadResult,
} from '@forge/shared';
import {
  brokenProjects,
  CASE_FIXED_IMPORT,
  importCaseMismatch,
  undeclaredPackage,
  type BrokenKind,
  type BrokenProject,
} from '@forge/testing';
import { cleanup, tempDir, userPackageCaches, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { spawnDaemon, type DaemonProcess } from './process-helpers.ts';

/**
 * The assistants end to end (docs/assistants.md): ten real projects broken the ordinary ways, built for real
 * by a real daemon process with real installs from the npm registry — broken → diagnosed → repaired → builds.
 * One daemon and one FORGE_HOME for the file, so the first install fills the pnpm store and the rest link
 * from it (every broken project pins the same vite and React). Phase one runs with autoRepair off: two
 * projects fail with a proposed repair (applied later through POST /api/builds/:id/fix, then undone), and the
 * three projects only their author can fix fail with ScanBot's diagnosis. Once the first two have failed,
 * autoRepair goes back on and the seven repairable projects are uploaded together: each must end succeeded in
 * the same build, its repair recorded. Each `it` waits for its own build's `build-finished`; nothing sleeps.
 */

/** Longest wait for one build, queue and installs included (cold caches, 2 busy cores). */
const BUILD_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 60_000;
/** Starting the daemon (the lockfiles are made by npm meanwhile, awaited by their own tests). */
const SETUP_TIMEOUT_MS = 60_000;

/** Uploaded with autoRepair on: repaired within their own build. */
type AutoCase =
  | 'undeclaredPackage'
  | 'missingVitePlugin'
  | 'importCaseMismatch'
  | 'driftedLockfile'
  | 'peerConflict'
  | 'foreignNodeModules'
  | 'missingBuildScript';
/** Only the author can fix them: uploaded in phase one. */
type UnfixableCase = 'syntaxError' | 'missingLocalFile' | 'typeError';
/** Uploaded with autoRepair off, repaired on request. */
type ManualCase = 'confettiByHand' | 'caseByHand';

let daemon: DaemonProcess;
let app: TestApp;
let live: Awaited<ReturnType<typeof watch>>;
const builds = {} as Record<AutoCase | UnfixableCase | ManualCase, Promise<Build>>;
const projects = {} as Record<AutoCase | UnfixableCase | ManualCase, Promise<BrokenProject>>;

const MANUAL: Record<ManualCase, BrokenProject> = {
  confettiByHand: undeclaredPackage('confetti-by-hand'),
  caseByHand: importCaseMismatch('case-by-hand'),
};

async function setAutoRepair(on: boolean): Promise<void> {
  const res = await fetch(`${app.url}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ autoRepair: on }),
  });
  const settings = (await res.json()) as Settings;
  if (res.status !== 200 || settings.autoRepair !== on) {
    throw new Error(
      `POST /api/settings {autoRepair: ${on}} answered ${res.status}: ${JSON.stringify(settings)}`,
    );
  }
}

/** Upload the project and resolve with its finished build. */
function start(project: BrokenProject | Promise<BrokenProject>): Promise<Build> {
  const build = (async () => {
    const { name, files } = await project;
    const res = await upload(app, makeZip(`${name}.zip`, files));
    const result = (await res.json()) as UploadResult;
    if (res.status !== 200 || !result.buildId) {
      throw new Error(`upload of ${name}.zip answered ${res.status}: ${JSON.stringify(result)}`);
    }
    return live.finished(result.buildId, BUILD_TIMEOUT_MS);
  })();
  // Awaited by the project's own tests; a failure must not surface as an unhandled rejection first.
  build.catch(() => undefined);
  return build;
}

beforeAll(async () => {
  const forgeHome = tempDir('forge-assistants-home-');
  daemon = spawnDaemon(['run', '--port', '0'], {
    home: forgeHome,
    cwd: tempDir('forge-assistants-cwd-'),
    env: userPackageCaches(),
  });
  app = { url: await daemon.url } as TestApp;
  live = await watch(app);

  // The lockfiles come from the real npm; made while phase one builds.
  const all = brokenProjects();
  all.catch(() => undefined);
  const pick = (kind: BrokenKind) => all.then((p) => p[kind]);
  for (const kind of [
    'undeclaredPackage',
    'missingVitePlugin',
    'importCaseMismatch',
    'driftedLockfile',
    'peerConflict',
    'foreignNodeModules',
    'missingBuildScript',
    'syntaxError',
    'missingLocalFile',
    'typeError',
  ] as const) {
    projects[kind] = pick(kind);
    projects[kind].catch(() => undefined);
  }
  for (const kind of Object.keys(MANUAL) as ManualCase[]) projects[kind] = Promise.resolve(MANUAL[kind]);

  // Phase one, autoRepair off.
  await setAutoRepair(false);
  builds.confettiByHand = start(MANUAL.confettiByHand);
  builds.caseByHand = start(MANUAL.caseByHand);
  builds.syntaxError = start(projects.syntaxError);
  builds.missingLocalFile = start(projects.missingLocalFile);
  builds.typeError = start(projects.typeError);

  // Phase two, autoRepair on, once the projects of phase one that have a repair have failed.
  const phaseTwo = Promise.allSettled([builds.confettiByHand, builds.caseByHand]).then(() =>
    setAutoRepair(true),
  );
  const after = (kind: AutoCase) => {
    builds[kind] = phaseTwo.then(() => start(projects[kind]));
    builds[kind].catch(() => undefined);
  };
  for (const kind of [
    'undeclaredPackage',
    'missingVitePlugin',
    'importCaseMismatch',
    'driftedLockfile',
    'peerConflict',
    'foreignNodeModules',
    'missingBuildScript',
  ] as const) {
    after(kind);
  }
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
    daemon.child.kill('SIGTERM');
    await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
  }
  await cleanup();
}, 120_000);

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

async function logLines(buildId: string): Promise<string[]> {
  const res = await fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`);
  // Rolldown colours its messages whatever NO_COLOR says; the words are what matter here.
  return ((await res.json()) as BuildLogsResponse).entries.map((e) =>
    `${e.botName}: ${e.message}`.replace(ANSI, ''),
  );
}

/** What a failed expectation shows: the record's verdict and the end of its log. */
async function story(build: Build): Promise<string> {
  const tail = (await logLines(build.id)).slice(-40).join('\n');
  return (
    `${build.projectName} ${build.status} at ${build.stage}: ${JSON.stringify(build.error)}\n` +
    `diagnosis: ${JSON.stringify(build.diagnosis)}\nrepairs: ${JSON.stringify(
      build.repairs?.map((r) => ({ code: r.code, status: r.status, summary: r.summary, files: r.files })),
    )}\n${tail}`
  );
}

/** The build, once it is known to have succeeded; otherwise fail with what the record says. */
async function succeeded(build: Build): Promise<Build> {
  if (build.status !== 'succeeded') throw new Error(await story(build));
  return build;
}

/** The project's source as GET /api/projects/:name/download gives it. */
async function downloaded(projectName: string): Promise<Record<string, Buffer>> {
  const res = await fetch(`${app.url}/api/projects/${projectName}/download`);
  expect(res.status).toBe(200);
  const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
  return Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, Buffer.from(data)]));
}

const text = (files: Record<string, Buffer>, name: string): string => {
  const data = files[name];
  if (!data) throw new Error(`${name} is not in the download (${Object.keys(files).join(', ')})`);
  return data.toString('utf8');
};

/** The built page and its scripts, fetched from the preview. */
async function previewText(build: Build): Promise<string> {
  expect(build.previewUrl).toBeTruthy();
  const page = await fetch(build.previewUrl!);
  expect(page.status).toBe(200);
  const html = await page.text();
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  const bodies = await Promise.all(
    scripts.map(async (src) => (await fetch(new URL(src, build.previewUrl!))).text()),
  );
  return [html, ...bodies].join('\n');
}

/** The failing tool's own words are in the build's log: the project really broke as intended. */
async function expectToolError(build: Build, project: BrokenProject): Promise<string[]> {
  const lines = await logLines(build.id);
  const pattern = project.expected.toolError!;
  if (!lines.some((line) => pattern.test(line))) {
    throw new Error(`${pattern} is not in the log of ${build.projectName}:\n${await story(build)}`);
  }
  return lines;
}

/** The repair of this kind on the record, applied. */
function appliedRepair(build: Build, project: BrokenProject): Repair {
  const repair = build.repairs.find((r) => r.code === project.expected.repair);
  expect(repair, `${project.expected.repair} among ${JSON.stringify(build.repairs)}`).toMatchObject({
    status: 'applied',
    buildId: build.id,
    files: expect.arrayContaining(project.expected.repairedFiles),
  });
  expect(repair!.summary).toMatch(/^RepairBot /);
  return repair!;
}

/**
 * A project repaired by itself: the same build failed, was diagnosed, repaired and ended
 * succeeded; the diagnosis of the failure and the repair are in the log; the preview shows the app.
 */
async function repairedInPlace(
  kind: AutoCase,
): Promise<{ build: Build; project: BrokenProject; lines: string[]; repair: Repair }> {
  const [build, project] = await Promise.all([builds[kind], projects[kind]]);
  // The build really failed as intended before it was repaired…
  const lines = await expectToolError(build, project);
  // …and ended succeeded, in the same build.
  await succeeded(build);
  const repair = appliedRepair(build, project);
  // One failed step, diagnosed, repaired, then the same step again (its next attempt), succeeded.
  const failed = build.steps.filter((s) => s.status === 'failed');
  expect(failed, JSON.stringify(build.steps)).toHaveLength(1);
  expect(build.steps.map((s) => s.name)).toEqual(expect.arrayContaining(['diagnose', 'repair']));
  expect(build.steps).toContainEqual(
    expect.objectContaining({ name: failed[0]!.name, attempt: 2, status: 'succeeded' }),
  );
  // ScanBot's diagnosis and RepairBot's repair, live in the log, naming what they are about.
  for (const subject of project.expected.diagnosis?.subjects ?? []) {
    expect(
      lines.some((line) => /^(ScanBot|RepairBot): /.test(line) && line.includes(subject)),
      `a ScanBot or RepairBot line naming ${subject}`,
    ).toBe(true);
  }
  expect(lines).toContain(`RepairBot: ${repair.summary}`);
  // The build-finished every client gets carries the repairs.
  const finished = live.messages.find(
    (m): m is Extract<ServerMessage, { type: 'build-finished' }> =>
      m.type === 'build-finished' && m.buildId === build.id,
  );
  expect(finished?.repairs?.map((r) => r.code)).toContain(project.expected.repair);
  return { build, project, lines, repair };
}

/** A project only its author can fix: failed, with ScanBot's diagnosis naming the cause and the place. */
async function diagnosedOnly(kind: UnfixableCase): Promise<Build> {
  const [build, project] = await Promise.all([builds[kind], projects[kind]]);
  expect(build.status, await story(build)).toBe('failed');
  await expectToolError(build, project);
  const want = project.expected.diagnosis!;
  expect(build.diagnosis, await story(build)).toMatchObject({
    code: want.code,
    file: want.file,
    ...(want.line ? { line: want.line } : {}),
    ...(want.column ? { column: want.column } : {}),
  });
  expect(build.diagnosis!.summary).toContain(path.posix.basename(want.file!));
  expect(build.diagnosis!.suggestion?.trim()).toBeTruthy();
  for (const subject of want.subjects ?? []) {
    expect(`${build.diagnosis!.summary} ${build.diagnosis!.subjects?.join(' ') ?? ''}`).toContain(subject);
  }
  expect(build.diagnosis!.repair).toBeUndefined();
  expect(build.repairs).toEqual([]);
  const finished = live.messages.find(
    (m): m is Extract<ServerMessage, { type: 'build-finished' }> =>
      m.type === 'build-finished' && m.buildId === build.id,
  );
  expect(finished?.diagnosis).toEqual(build.diagnosis);
  return build;
}

describe(
  'broken real projects through a real daemon: diagnosed, repaired, built',
  { timeout: TEST_TIMEOUT_MS },
  () => {
    describe.each([
      { kind: 'confettiByHand', file: 'package.json', changed: /"canvas-confetti": "\^?1\.9\.\d+"/ },
      {
        kind: 'caseByHand',
        file: 'src/App.jsx',
        changed: new RegExp(CASE_FIXED_IMPORT.replace(/[./]/g, '\\$&')),
      },
    ] as const)(
      'proposed with autoRepair off, applied on request, undone: $kind',
      ({ kind, file, changed }) => {
        const state: { failed?: Build; fix?: FixResult } = {};

        it('fails with the diagnosis and the repair proposed, the files untouched', async () => {
          const project = MANUAL[kind];
          const build = await builds[kind];
          state.failed = build;
          expect(build.status, await story(build)).toBe('failed');
          await expectToolError(build, project);
          const want = project.expected.diagnosis!;
          expect(build.diagnosis, await story(build)).toMatchObject({
            code: want.code,
            file: want.file,
            repair: project.expected.repair,
          });
          expect(build.diagnosis!.suggestion?.trim()).toBeTruthy();
          expect(build.repairs, await story(build)).toEqual([
            expect.objectContaining({ code: project.expected.repair, status: 'proposed' }),
          ]);
          expect(text(await downloaded(build.projectName), file)).toBe(project.files[file]!.toString());
        });

        it('POST /api/builds/:id/fix applies it and the new build succeeds', async () => {
          const project = MANUAL[kind];
          expect(state.failed, 'the failed build of the previous test').toBeDefined();
          const res = await fetch(`${app.url}/api/builds/${state.failed!.id}/fix`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({}),
          });
          const fix = (await res.json()) as FixResult;
          expect(res.status, JSON.stringify(fix)).toBe(200);
          state.fix = fix;
          expect(fix.buildId).not.toBe(state.failed!.id);
          expect(fix.repairs).toEqual([
            expect.objectContaining({ code: project.expected.repair, status: 'applied', files: [file] }),
          ]);
          expect(fix.message).toContain(fix.buildId);
          const build = await succeeded(await live.finished(fix.buildId, BUILD_TIMEOUT_MS));
          expect(build.repairs).toEqual([
            expect.objectContaining({ code: project.expected.repair, status: 'applied', files: [file] }),
          ]);
          expect(text(await downloaded(build.projectName), file)).toMatch(changed);
        });

        it('POST /api/projects/:name/repairs/undo restores the file byte for byte', async () => {
          const project = MANUAL[kind];
          expect(state.fix, 'the fix of the previous test').toBeDefined();
          const res = await fetch(`${app.url}/api/projects/${project.name}/repairs/undo`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({}),
          });
          const undo = (await res.json()) as UndoRepairResult;
          expect(res.status, JSON.stringify(undo)).toBe(200);
          expect(undo.files).toEqual([file]);
          expect(undo.restored).toEqual([
            expect.objectContaining({ id: state.fix!.repairs[0]!.id, status: 'undone' }),
          ]);
          const restored = (await downloaded(project.name))[file];
          expect(restored?.equals(Buffer.from(project.files[file]!))).toBe(true);
        });
      },
    );

    describe('repaired by themselves (autoRepair on)', () => {
      it('1. an import of an undeclared package: canvas-confetti is added to package.json, and the same build succeeds', async () => {
        const { build, repair } = await repairedInPlace('undeclaredPackage');
        expect(repair.summary).toMatch(/canvas-confetti@\^?1\.9\.\d+/);
        expect(repair.diff).toMatch(/^\+\s+"canvas-confetti": "\^?1\.9\.\d+"/m);
        const pkg = JSON.parse(text(await downloaded(build.projectName), 'package.json')) as {
          dependencies?: Record<string, string>;
          devDependencies?: Record<string, string>;
        };
        // Declared once, where this project keeps its packages (`npm create vite` puts them all in
        // devDependencies, as everything is bundled), and the summary says which.
        const declared = (['dependencies', 'devDependencies'] as const).filter(
          (field) => pkg[field]?.['canvas-confetti'],
        );
        expect(declared).toHaveLength(1);
        expect(pkg[declared[0]!]!['canvas-confetti']).toMatch(/^\^?1\.9\.\d+$/);
        expect(repair.summary.includes('devDependencies')).toBe(declared[0] === 'devDependencies');
        expect(await previewText(build)).toContain('Hello from the confetti party');
      });

      it('2. a missing Vite plugin: @vitejs/plugin-react is added as a devDependency', async () => {
        const { build, repair } = await repairedInPlace('missingVitePlugin');
        expect(repair.summary).toContain('@vitejs/plugin-react');
        const pkg = JSON.parse(text(await downloaded(build.projectName), 'package.json')) as {
          dependencies?: Record<string, string>;
          devDependencies?: Record<string, string>;
        };
        expect(pkg.devDependencies?.['@vitejs/plugin-react']).toMatch(/^\^?6\.\d+\.\d+$/);
        expect(pkg.dependencies?.['@vitejs/plugin-react']).toBeUndefined();
        expect(await previewText(build)).toContain('Hello from React without its plugin');
      });

      it('3. an import whose case differs from the file: the import is rewritten to Header', async () => {
        const { build, repair } = await repairedInPlace('importCaseMismatch');
        expect(repair.diff).toContain(`+${CASE_FIXED_IMPORT}`);
        expect(text(await downloaded(build.projectName), 'src/App.jsx')).toContain(CASE_FIXED_IMPORT);
        expect(await previewText(build)).toContain('Hello from the case of the header');
      });

      it('4. a drifted lockfile: installed without the frozen lockfile, and the record says the lockfile changed', async () => {
        const { build, repair, lines } = await repairedInPlace('driftedLockfile');
        expect(repair.files).toEqual(['package-lock.json']);
        // Said once the install has run, as a fact (the repair's own summary only announces it).
        const installed = lines.findLastIndex((l) => /^DependencyBot: \$ npm install\b/.test(l));
        expect(installed, 'the unfrozen install in the log').toBeGreaterThan(0);
        expect(
          lines.slice(installed).some((l) => /^RepairBot: .*package-lock\.json (has )?changed/.test(l)),
          'a RepairBot line, after the install, saying package-lock.json changed',
        ).toBe(true);
        // The repaired source's lockfile now has clsx.
        const lock = JSON.parse(text(await downloaded(build.projectName), 'package-lock.json')) as {
          packages: Record<string, { version?: string }>;
        };
        expect(lock.packages['node_modules/clsx']?.version).toMatch(/^2\./);
        expect(await previewText(build)).toContain('Hello from the drifted lockfile');
      });

      it('5. a peer-dependency conflict (npm ERESOLVE): the version the registry has whose peers accept React 19, before any legacy peer mode', async () => {
        const { build, repair } = await repairedInPlace('peerConflict');
        expect(repair.summary).toMatch(
          /react-helmet-async from "2\.0\.5" to "\d+\.\d+\.\d+".*accept react@19/,
        );
        expect(repair.summary).not.toMatch(/legacy/i);
        const pkg = JSON.parse(text(await downloaded(build.projectName), 'package.json')) as {
          dependencies: Record<string, string>;
        };
        expect(semverMajor(pkg.dependencies['react-helmet-async']!)).toBeGreaterThanOrEqual(3);
        const install = build.steps.filter((s) => s.name === 'install');
        expect(install.at(-1)?.status).toBe('succeeded');
        expect(await previewText(build)).toContain('Hello from the helmet peers');
      });

      it('6. node_modules zipped on a Mac: left out by ExtractBot, installed afresh, and the record says so', async () => {
        const [build, project] = await Promise.all([builds.foreignNodeModules, projects.foreignNodeModules]);
        await succeeded(build);
        const lines = await logLines(build.id);
        expect(
          lines.some((l) => /^ExtractBot: Left out: .*node_modules/.test(l)),
          'ExtractBot: Left out: node_modules/',
        ).toBe(true);
        const repair = appliedRepair(build, project);
        expect(repair.files.some((f) => f.startsWith('node_modules'))).toBe(true);
        expect(lines).toContain(`RepairBot: ${repair.summary}`);
        expect(build.steps.find((s) => s.name === 'install')?.status).toBe('succeeded');
        expect(build.diagnosis).toBeNull();
        expect(await previewText(build)).toContain('Hello from a Mac');
        // The download is the source as uploaded, minus what could not run here.
        expect(
          Object.keys(await downloaded(build.projectName)).filter((f) => f.includes('node_modules')),
        ).toEqual([]);
      });

      it("10. a Vite project without a build script: built with the framework's `vite build`, and the record says so", async () => {
        const [build, project] = await Promise.all([builds.missingBuildScript, projects.missingBuildScript]);
        await succeeded(build);
        expect(formatCommand(build.blueprint!.build!)).toMatch(/vite build$/);
        const repair = appliedRepair(build, project);
        expect(repair.summary).toContain('vite build');
        expect(await logLines(build.id)).toContain(`RepairBot: ${repair.summary}`);
        expect(await previewText(build)).toContain('Hello without a build script');
      });
    });

    describe('named for their author to fix: file, line and cause', () => {
      it('7. a syntax error: SYNTAX_ERROR at src/totals.js:3:24, no repair', async () => {
        await diagnosedOnly('syntaxError');
      });

      it('8. a missing local file: MISSING_FILE naming ./utils/format and the file importing it', async () => {
        const build = await diagnosedOnly('missingLocalFile');
        expect(build.diagnosis!.summary).toContain('./utils/format');
      });

      it('9. a type error under `tsc --noEmit && vite build`: TYPE_ERROR at src/main.ts:5:7', async () => {
        const build = await diagnosedOnly('typeError');
        expect(build.diagnosis!.summary).toMatch(/TS2322|not assignable/);
      });
    });
  },
);
