import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  formatBytes,
  type Blueprint,
  type Build,
  type ErrorCode,
  type ServerMessage,
  type Settings,
  type TestReport,
} from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import type { Fleet } from '../../fleet/fleet.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { runCommand, type RunResult } from '../../pipeline/run/index.ts';
import { formatCommand } from '../../pipeline/detect/index.ts';
import { checkOutput } from '../../pipeline/checks/ui-check.ts';
import { bundleReport } from '../../pipeline/checks/bundle-report.ts';
import type { PreviewRegistry } from '../preview/preview-registry.ts';
import type { BuildRun } from './build-run.ts';
import type { BuildRepo } from './repo.ts';
import { discardDir, isInside, listFilesRel, swapDir } from './fs-moves.ts';
import { installKey, readInstallKey, writeInstallKey } from './install-cache.ts';
import { hashTree } from './tree-hash.ts';

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** TestBot never waits longer than this, whatever the project's stage timeout. */
export const TEST_TIMEOUT_MS = 5 * 60_000;
/** Lines of test output kept in the build record (and the JUnit report). */
export const TEST_TAIL_LINES = 60;

export interface PipelineDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  fleet: Fleet;
  previews: PreviewRegistry;
  logger: Logger;
  settings: () => Settings;
  /** Run commands inside bubblewrap when the machine has it. */
  sandbox: boolean;
  broadcast: (message: ServerMessage) => void;
}

/** Ends the pipeline early with a final status; thrown by steps, caught once in runPipeline. */
class StopBuild extends Error {
  constructor(
    readonly status: 'failed' | 'timed-out' | 'cancelled',
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const stopFor = (result: RunResult, what: string, command: string): StopBuild => {
  if (result.outcome === 'timed-out')
    return new StopBuild('timed-out', 'STAGE_TIMEOUT', `${what} timed out: ${command}`);
  if (result.outcome === 'cancelled') return new StopBuild('cancelled', 'CANCELLED', `${what} was cancelled`);
  const why =
    result.error ??
    (result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`);
  return new StopBuild('failed', what === 'install' ? 'INSTALL_FAILED' : 'BUILD_FAILED', `${command} ${why}`);
};

/** Source hash for CacheBot: the uploaded tree (not its installs or outputs) plus the plan. */
export function sourceHash(projectDir: string, blueprint: Blueprint): string {
  const out =
    blueprint.kind === 'static-build' && blueprint.outputDir ? blueprint.outputDir.replace(/\/+$/, '') : null;
  const tree = hashTree(
    projectDir,
    (rel) => rel === 'node_modules' || rel.endsWith('/node_modules') || rel === '.git' || rel === out,
  );
  const { decisions: _decisions, ...plan } = blueprint;
  return crypto.createHash('sha256').update(tree).update(JSON.stringify(plan)).digest('hex');
}

/**
 * Everything after extraction and detection: install → build → test/check/optimize → preview →
 * integration-available. Never throws: every outcome ends in run.finish().
 */
export async function runPipeline(deps: PipelineDeps, run: BuildRun, blueprint: Blueprint): Promise<Build> {
  try {
    await stages(deps, run, blueprint);
  } catch (err) {
    if (err instanceof StopBuild) {
      if (err.status === 'failed') run.to('build-failed');
      if (err.status === 'timed-out') run.to('build-timeout');
      const reason = err.status === 'cancelled' ? reasonOf(run.signal) : undefined;
      run.log('BuildBot', err.status === 'cancelled' ? 'warn' : 'error', err.message);
      run.finish(err.status, {
        error: { code: err.code, message: err.message },
        ...(reason ? { cancelReason: reason } : {}),
      });
    } else if (run.signal.aborted) {
      run.finish('cancelled', {
        cancelReason: reasonOf(run.signal),
        error: { code: 'CANCELLED', message: 'The build was cancelled.' },
      });
    } else {
      deps.logger.error({ err, buildId: run.id }, 'build pipeline crashed');
      run.to('build-failed');
      run.log('SYSTEM', 'error', `Forge failed inside the build: ${(err as Error).message}`);
      run.finish('failed', { error: { code: 'INTERNAL', message: (err as Error).message } });
    }
  }
  return run.done;
}

const reasonOf = (signal: AbortSignal) => {
  const r = signal.reason as unknown;
  return r === 'superseded' || r === 'timeout' || r === 'shutdown' ? r : 'user';
};

function checkCancelled(run: BuildRun): void {
  if (run.signal.aborted) throw new StopBuild('cancelled', 'CANCELLED', 'The build was cancelled.');
}

async function stages(deps: PipelineDeps, run: BuildRun, bp: Blueprint): Promise<void> {
  const { layout, repo } = deps;
  const name = run.projectName;
  const projectDir = layout.projectDir(name);
  run.update((b) => (b.blueprint = bp));

  if (bp.kind === 'unknown') {
    const why =
      bp.decisions.find((d) => d.field === 'kind')?.rule ?? 'no build script, start script or index.html';
    throw new StopBuild(
      'failed',
      'PROJECT_NOT_BUILDABLE',
      `Forge does not know how to build this project: ${why}.`,
    );
  }

  const hash = sourceHash(projectDir, bp);
  run.update((b) => (b.sourceHash = hash));
  checkCancelled(run);

  if (bp.kind === 'static') {
    run.to('no-build-needed');
    run.log('BlueprintBot', 'info', 'Plain static site: nothing to install or build.');
    await checks(deps, run, projectDir, { skip: (rel) => rel.startsWith('.') });
    await preview(deps, run, bp, projectDir);
    return complete(deps, run, projectDir, hash);
  }

  const outputStore = layout.outputDir(name);
  const project = repo.project(name);
  if (
    bp.kind === 'static-build' &&
    !run.snapshot().noCache &&
    project?.output_hash === hash &&
    project.output_build_id &&
    fs.existsSync(outputStore)
  ) {
    const cached = repo.get(project.output_build_id);
    const done = run.step('build', 'CacheBot');
    run.update((b) => {
      b.cacheHit = true;
      b.test = cached?.test ?? null;
      b.uiCheck = cached?.uiCheck ?? null;
      b.bundle = cached?.bundle ?? null;
    });
    done('cached', `same source and plan as build ${project.output_build_id}`);
    run.log(
      'CacheBot',
      'success',
      `Cache hit: same source and plan as build ${project.output_build_id}; reusing its output.`,
    );
    run.to('build-success');
    await preview(deps, run, bp, outputStore);
    return complete(deps, run, outputStore, hash);
  }

  run.to('build-start');
  await install(deps, run, bp, projectDir);
  checkCancelled(run);

  if (bp.build) await command(deps, run, 'build', 'BuildBot', bp.build, bp, projectDir, bp.timeoutMs);
  checkCancelled(run);

  if (bp.kind === 'server') {
    // A server app is "built" once it answers: start it before declaring success.
    await preview(deps, run, bp, projectDir);
    run.to('build-success');
    await checks(deps, run, null, {});
    return complete(deps, run, projectDir, hash);
  }

  const built = path.join(projectDir, bp.outputDir ?? 'dist');
  if (!fs.existsSync(built) || !fs.statSync(built).isDirectory() || !isInside(projectDir, built)) {
    throw new StopBuild(
      'failed',
      'OUTPUT_MISSING',
      `The build finished but its output folder "${bp.outputDir}" was not created.`,
    );
  }
  // Keep the output outside the source tree: re-uploads replace the source, previews keep serving.
  swapDir(built, outputStore, layout.tmpDir);
  run.to('build-success');
  await checks(deps, run, outputStore, {});
  await preview(deps, run, bp, outputStore);
  complete(deps, run, outputStore, hash);
}

async function install(deps: PipelineDeps, run: BuildRun, bp: Blueprint, projectDir: string): Promise<void> {
  if (!bp.install) return;
  const nodeModules = path.join(projectDir, 'node_modules');
  const key = installKey(projectDir, bp);
  const kept = path.join(deps.layout.depsDir(run.projectName), 'node_modules');
  if (readInstallKey(nodeModules) !== key && readInstallKey(kept) === key) {
    discardDir(nodeModules, deps.layout.tmpDir);
    fs.renameSync(kept, nodeModules);
  }
  if (readInstallKey(nodeModules) === key) {
    const done = run.step('install', 'DependencyBot');
    done('cached', 'reused node_modules (lockfile unchanged)');
    run.log(
      'DependencyBot',
      'success',
      'Dependencies unchanged since the last install: reusing node_modules.',
    );
    return;
  }
  discardDir(nodeModules, deps.layout.tmpDir);
  await command(deps, run, 'install', 'DependencyBot', bp.install, bp, projectDir, bp.timeoutMs);
  writeInstallKey(nodeModules, key);
}

/** Run one command of the plan as a bot's job; throws StopBuild unless it succeeds. */
async function command(
  deps: PipelineDeps,
  run: BuildRun,
  step: 'install' | 'build',
  botName: string,
  argv: string[],
  bp: Blueprint,
  cwd: string,
  timeoutMs: number,
): Promise<RunResult> {
  const text = formatCommand(argv);
  const done = run.step(step, botName);
  let spawned = 0;
  run.log(botName, 'info', `$ ${text}`);
  const result = await deps.fleet.run(
    botName,
    { label: `${step} ${run.projectName}`, projectName: run.projectName, buildId: run.id },
    () =>
      runCommand({
        argv,
        cwd,
        env: bp.env,
        timeoutMs,
        signal: run.signal,
        sandbox: deps.sandbox,
        onLine: (line) => run.output(botName, line.stream, line.text),
        onSpawn: (pid) => deps.repo.addPid(run.id, (spawned = pid)),
      }).finally(() => spawned && deps.repo.removePid(run.id, spawned)),
    { signal: run.signal, failed: (r) => r.outcome !== 'succeeded' },
  );
  const stop = result.outcome === 'succeeded' ? null : stopFor(result, step, text);
  done(
    result.outcome === 'succeeded'
      ? 'succeeded'
      : result.outcome === 'timed-out'
        ? 'timed-out'
        : result.outcome === 'cancelled'
          ? 'cancelled'
          : 'failed',
    stop ? stop.message : `${text} (${(result.durationMs / 1000).toFixed(1)}s)`,
  );
  if (stop) throw stop;
  run.log(botName, 'success', `${text} finished in ${(result.durationMs / 1000).toFixed(1)}s`);
  return result;
}

/** TestBot, UiBot and OptimizationBot: recorded, never failing the build. */
async function checks(
  deps: PipelineDeps,
  run: BuildRun,
  outputDir: string | null,
  opts: { skip?: (rel: string) => boolean },
) {
  const bp = run.snapshot().blueprint!;
  const jobs: Array<Promise<unknown>> = [];
  if (bp.test) jobs.push(test(deps, run, bp));
  if (outputDir) {
    const job = { projectName: run.projectName, buildId: run.id };
    jobs.push(
      deps.fleet.run(
        'UiBot',
        { label: `check ${run.projectName}`, ...job },
        async () => {
          const done = run.step('check', 'UiBot');
          const report = await checkOutput(outputDir);
          run.update((b) => (b.uiCheck = report));
          const detail = report.ok
            ? 'index.html and every local asset present'
            : !report.hasIndexHtml
              ? 'no index.html in the output'
              : `${report.missingAssets.length} missing asset(s): ${report.missingAssets.slice(0, 5).join(', ')}`;
          done(report.ok ? 'succeeded' : 'failed', detail);
          run.log('UiBot', report.ok ? 'success' : 'warn', `Output check: ${detail}`);
          return report.ok;
        },
        { failed: (ok) => !ok },
      ),
      deps.fleet.run('OptimizationBot', { label: `size ${run.projectName}`, ...job }, async () => {
        const done = run.step('optimize', 'OptimizationBot');
        const report = await bundleReport(outputDir, opts.skip ? { skip: opts.skip } : {});
        run.update((b) => (b.bundle = report));
        const flagged = report.files.filter((f) => f.flagged);
        const detail = `${plural(report.files.length, 'file')}, ${formatBytes(report.totalBytes)} (${formatBytes(report.totalGzipBytes)} gzip)${flagged.length ? `; ${flagged.length} over ${formatBytes(report.thresholdBytes)}` : ''}`;
        done('succeeded', detail);
        run.log('OptimizationBot', flagged.length ? 'warn' : 'info', `Bundle: ${detail}`);
      }),
    );
  }
  await Promise.all(jobs);
}

async function test(deps: PipelineDeps, run: BuildRun, bp: Blueprint): Promise<void> {
  const argv = bp.test!;
  const text = formatCommand(argv);
  const done = run.step('test', 'TestBot');
  const tail: string[] = [];
  let spawned = 0;
  run.log('TestBot', 'info', `$ ${text}`);
  const result = await deps.fleet.run(
    'TestBot',
    { label: `test ${run.projectName}`, projectName: run.projectName, buildId: run.id },
    () =>
      runCommand({
        argv,
        cwd: deps.layout.projectDir(run.projectName),
        env: bp.env,
        timeoutMs: Math.min(bp.timeoutMs, TEST_TIMEOUT_MS),
        signal: run.signal,
        sandbox: deps.sandbox,
        onLine: (line) => {
          run.output('TestBot', line.stream, line.text);
          tail.push(line.text);
          if (tail.length > TEST_TAIL_LINES) tail.shift();
        },
        onSpawn: (pid) => deps.repo.addPid(run.id, (spawned = pid)),
      }).finally(() => spawned && deps.repo.removePid(run.id, spawned)),
    { signal: run.signal, failed: (r) => r.outcome !== 'succeeded' },
  );
  const passed = result.outcome === 'succeeded';
  const report: TestReport = {
    ran: true,
    passed,
    command: text,
    durationMs: result.durationMs,
    outputTail: tail.join('\n'),
  };
  run.update((b) => (b.test = report));
  const detail = passed
    ? 'tests passed'
    : result.outcome === 'timed-out'
      ? 'tests timed out'
      : `tests failed (exit ${result.exitCode ?? result.signal})`;
  done(
    passed
      ? 'succeeded'
      : result.outcome === 'timed-out'
        ? 'timed-out'
        : result.outcome === 'cancelled'
          ? 'cancelled'
          : 'failed',
    detail,
  );
  run.log('TestBot', passed ? 'success' : 'warn', `${text}: ${detail} (recorded; the build goes on)`);
  checkCancelled(run);
}

async function preview(deps: PipelineDeps, run: BuildRun, bp: Blueprint, root: string): Promise<void> {
  const done = run.step('preview', 'PreviewBot');
  const job = { label: `preview ${run.projectName}`, projectName: run.projectName, buildId: run.id };
  let url: string;
  try {
    url = await deps.fleet.run('PreviewBot', job, async () => {
      if (bp.kind !== 'server') {
        deps.repo.setPreviewPid(run.projectName, null);
        return (await deps.previews.serveStatic(run.projectName, root)).url;
      }
      const started = await deps.previews.runServer(run.projectName, {
        argv: bp.start!,
        cwd: root,
        env: bp.env,
        signal: run.signal,
        sandbox: deps.sandbox,
        onLine: (line) => run.output('PreviewBot', line.stream, line.text),
      });
      deps.repo.setPreviewPid(run.projectName, started.pid);
      return started.url;
    });
  } catch (err) {
    checkCancelled(run);
    done('failed', (err as Error).message);
    throw new StopBuild('failed', 'PREVIEW_FAILED', `The app did not start: ${(err as Error).message}`);
  }
  run.update((b) => (b.previewUrl = url));
  done('succeeded', url);
  run.log('PreviewBot', 'success', `Preview at ${url}`);
}

function complete(deps: PipelineDeps, run: BuildRun, buildPath: string, hash: string): void {
  const name = run.projectName;
  deps.repo.setProjectOutput(name, hash, run.id);
  run.to('integration-available');
  const files = listFilesRel(buildPath, (rel) => rel === 'node_modules' || rel.startsWith('.'));
  run.log(
    'IntegrationBot',
    'success',
    `Build complete: ${files.length} files ready to integrate or download.`,
  );
  // spec §4: build_complete with the build output sets integration-available and raises the UI's event.
  deps.broadcast({
    type: 'build_complete',
    buildOutput: { projectName: name, buildPath, files },
    projectName: name,
    buildId: run.id,
    stage: 'integration-available',
    timestamp: new Date().toISOString(),
  });
  run.finish('succeeded');
}
