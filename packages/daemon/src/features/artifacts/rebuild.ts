import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  FORGE_VERSION,
  formatCommand,
  type Blueprint,
  type Build,
  type NodeRequirement,
  Rebuild,
  type RebuildBody,
  type Settings,
} from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Store } from '../../store/store.ts';
import type { Logger } from '../../logging/logger.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { discardDir } from '../../fs/moves.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import { builtOutput } from '../../capabilities/checks/built-output.ts';
import { runCommand } from '../../capabilities/exec/index.ts';
import { buildIn } from '../../engine/steps/build.ts';
import { installIn } from '../../engine/steps/install.ts';
import { toolchainStep, withProvided, withToolPath } from '../../engine/steps/toolchain.ts';
import type { BuildFailure, StepContext } from '../../engine/steps/types.ts';
import { withSourceDateEpoch } from '../../capabilities/artifacts/build-epoch.ts';
import { compareArtifacts } from '../../capabilities/artifacts/compare.ts';
import { packArtifact, sha256File } from '../../capabilities/artifacts/pack.ts';
import {
  ARTIFACT_FILES,
  readArtifactRecord,
  toolsOf,
  type ArtifactRecord,
} from '../../capabilities/artifacts/record.ts';

export interface RebuildDeps {
  layout: HomeLayout;
  /** The recorded builds (their plan and source hash). */
  builds: { get(id: string): Build };
  logger: Logger;
  settings: () => Settings;
  sandbox: boolean;
  /** Where each rebuild's answer is kept, so it is answered after a restart. */
  store: Pick<Store, 'db'>;
}

/** Lines of a rebuild's log its answer carries (the end, where a failure is). */
const LOG_TAIL = 60;
/** Finished rebuilds kept in the store, answered by id; older ones are forgotten. */
const KEEP_FINISHED = 100;

interface Job {
  state: Rebuild;
  log: string[];
  done: Promise<void>;
  controller: AbortController;
}

/** A kept record of a build: its folder, its record, and the build it belongs to. */
interface Kept {
  dir: string;
  record: ArtifactRecord;
}

/** A rebuild that cannot go on, with the catalogue code that says why. */
class CannotRebuild extends Error {
  constructor(
    readonly code: 'REBUILD_TOOLCHAIN_UNAVAILABLE' | 'REBUILD_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/** The statement's Node (resolvedDependencies pkg:npm/node@<version>), which the rebuild runs on. */
function recordedNode(dir: string): string | null {
  try {
    const envelope = JSON.parse(fs.readFileSync(path.join(dir, ARTIFACT_FILES.provenance), 'utf8')) as {
      payload: string;
    };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as {
      predicate?: { buildDefinition?: { resolvedDependencies?: { name?: string; uri?: string }[] } };
    };
    const node = statement.predicate?.buildDefinition?.resolvedDependencies?.find((d) => d.name === 'node');
    return node?.uri?.match(/^pkg:npm\/node@(.+)$/)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The recorded plan pinned to what the build ran with: the package manager's exact version instead
 * of what the project asked for ("9" → "9.15.0"), and the Node it ran on as the only, exact,
 * constraint. Nothing is planned again: the commands, folders and environment are the record's.
 */
export function pinnedPlan(bp: Blueprint, node: string | null): Blueprint {
  const pinned: Blueprint = { ...bp };
  if (bp.toolchain?.version) pinned.toolchain = { ...bp.toolchain, request: bp.toolchain.version };
  if (node) {
    const requirement: NodeRequirement = {
      wanted: node,
      file: ARTIFACT_FILES.provenance,
      current: process.versions.node,
      satisfied: process.versions.node === node,
      candidates: [
        {
          source: 'provenance',
          file: ARTIFACT_FILES.provenance,
          value: node,
          role: 'constraint',
          range: node,
          used: true,
          note: 'the Node the recorded build ran on',
        },
      ],
      range: node,
      resolved: null,
    };
    pinned.node = requirement;
  }
  return pinned;
}

/**
 * `forge verify --rebuild`: build a recorded source again — the source ZIP the daemon kept, found by
 * its digest — with the recorded plan and the recorded toolchain versions, in a scratch folder, and
 * compare the artifact it makes with the recorded one file by file. It is not a build of the project:
 * no build record, no preview, the project's files, output and current build untouched.
 */
export function createRebuilds(deps: RebuildDeps) {
  const { layout, logger } = deps;
  /** The rebuilds running in this process; finished ones are answered from the store. */
  const jobs = new Map<string, Job>();
  const toolchain = toolchainStep({ layout, logger });
  const kept = keptRebuilds(deps.store);

  /** Every kept record, the named build's first. */
  function keptRecords(buildId: string): Kept[] {
    const root = path.dirname(layout.artifactsDir('_'));
    const dirs: string[] = [];
    try {
      const named = deps.builds.get(buildId);
      dirs.push(path.join(layout.artifactsDir(named.projectName), named.id));
    } catch {
      // Not a build of this daemon: its source may still be kept under another build.
    }
    for (const project of fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const build of fs.readdirSync(path.join(root, project.name), { withFileTypes: true })) {
        if (build.isDirectory() && !build.name.includes('.partial-'))
          dirs.push(path.join(root, project.name, build.name));
      }
    }
    const kept: Kept[] = [];
    for (const dir of new Set(dirs)) {
      const record = readArtifactRecord(dir);
      if (record) kept.push({ dir, record });
    }
    return kept;
  }

  /** The kept source with that digest, its build's recorded plan, and the kept artifact to compare with. */
  function find(body: RebuildBody): { source: Kept; build: Build; baseline: Kept | null } {
    const kept = fs.existsSync(path.dirname(layout.artifactsDir('_'))) ? keptRecords(body.buildId) : [];
    const baseline = kept.find((k) => k.record.sha256 === body.artifactSha256) ?? null;
    for (const k of kept) {
      if (k.record.sourceSha256 !== body.sourceSha256) continue;
      if (!fs.existsSync(path.join(k.dir, ARTIFACT_FILES.source))) continue;
      let build: Build;
      try {
        build = deps.builds.get(k.record.buildId);
      } catch {
        continue;
      }
      if (!build.blueprint) continue;
      return { source: k, build, baseline };
    }
    throw new ForgeError(
      'REBUILD_SOURCE_NOT_KEPT',
      `This daemon keeps no source with sha256 ${body.sourceSha256.slice(0, 16)}… (build ${body.buildId}) and its plan: it was pruned (each project keeps its last 10 builds), or the artifact was built by another daemon (a forge ci run keeps nothing). Nothing was rebuilt.`,
    );
  }

  /** What a rebuild's commands get: the step context of a build, bound to this rebuild's log and cancel. */
  function contextOf(job: Job, build: Build, plan: { current: Blueprint }): StepContext {
    const settings = deps.settings();
    const say = (line: string) => job.log.push(line);
    const home = layout.buildHome(build.projectName);
    return {
      buildId: job.state.id,
      projectName: build.projectName,
      signal: job.controller.signal,
      settings,
      build: () => ({ ...build, blueprint: plan.current }),
      log: (level, message) => say(`[${level}] ${message}`),
      output: (_stream, text) => say(text),
      record: (patch) => {
        if (patch.blueprint) plan.current = patch.blueprint;
      },
      run: (command) => {
        say(`$ ${formatCommand(command.argv)}`);
        return runCommand({
          argv: command.argv,
          cwd: command.cwd,
          ...(command.env ? { env: command.env } : {}),
          timeoutMs: command.timeoutMs,
          home,
          caches: layout.cachesDir,
          signal: command.signal
            ? AbortSignal.any([job.controller.signal, command.signal])
            : job.controller.signal,
          sandbox:
            deps.sandbox && (command.writable || command.linkedRoot)
              ? {
                  ...(command.writable ? { writable: command.writable } : {}),
                  ...(command.linkedRoot ? { linkedRoot: command.linkedRoot } : {}),
                }
              : deps.sandbox,
          onLine: (line) => {
            if (!command.quiet) say(line.text);
            command.onLine?.(line);
          },
        });
      },
    };
  }

  const failed = (f: BuildFailure, code: CannotRebuild['code']) => new CannotRebuild(code, f.message);

  async function execute(job: Job, found: ReturnType<typeof find>): Promise<void> {
    const { source, build } = found;
    const record = source.record;
    const scratch = fs.mkdtempSync(path.join(layout.tmpDir, `rebuild-${job.state.id}-`));
    const root = path.join(scratch, 'project');
    try {
      const digest = await sha256File(path.join(source.dir, ARTIFACT_FILES.source));
      if (digest !== record.sourceSha256) {
        throw new CannotRebuild(
          'REBUILD_FAILED',
          `The kept source.zip of build ${record.buildId} no longer has the digest its record names (${digest.slice(0, 16)}…): it was changed on disk.`,
        );
      }
      await extractArchive(path.join(source.dir, ARTIFACT_FILES.source), {
        targetDir: root,
        workDir: scratch,
        logger,
      });
      job.log.push(`Source ${record.sourceSha256.slice(0, 16)}… of build ${record.buildId} extracted.`);
      const plan = { current: pinnedPlan(build.blueprint!, recordedNode(source.dir)) };
      const ctx = contextOf(job, build, plan);
      let bp = plan.current;
      if (bp.toolchain || bp.node || bp.runtime) {
        const r = await toolchain.run(ctx, bp);
        if (!r.ok) throw failed(r.failure, 'REBUILD_TOOLCHAIN_UNAVAILABLE');
        bp = withProvided(bp, r.value);
        plan.current = bp;
        bp = withToolPath(bp, r.value.path, r.value.env);
      }
      job.state.tools = toolsOf(plan.current, FORGE_VERSION).map((t) => `${t.name} ${t.version}`);
      bp = withSourceDateEpoch(bp, record.sourceDateEpoch);
      if (bp.install) {
        const r = await installIn(ctx, bp, { layout, root, kept: false });
        if (!r.ok) throw failed(r.failure, 'REBUILD_FAILED');
      }
      const started = Date.now();
      if (bp.build) {
        const r = await buildIn(ctx, bp, { layout, root });
        if (!r.ok) throw failed(r.failure, 'REBUILD_FAILED');
      }
      let outputDir = root;
      if (bp.kind === 'static-build') {
        const output = await builtOutput({ projectDir: root, blueprint: bp, since: started });
        if (!output.ok) throw new CannotRebuild('REBUILD_FAILED', output.message);
        outputDir = path.join(root, output.dir);
      }
      const packed = await packArtifact({
        projectName: record.projectName,
        outputDir,
        projectDir: root,
        // With the tools' environment: a Python build's SBOM lists its virtual environment.
        blueprint: bp,
        tools: toolsOf(plan.current, FORGE_VERSION),
        sourceHash: build.sourceHash ?? '',
        epoch: record.sourceDateEpoch,
        dir: scratch,
      });
      job.state.sha256 = packed.sha256;
      if (packed.sha256 === job.state.expectedSha256) {
        job.state.status = 'identical';
        job.log.push(`Identical: the rebuilt ${packed.name} has sha256 ${packed.sha256}.`);
        return;
      }
      job.state.status = 'differs';
      if (found.baseline) {
        job.state.differences = compareArtifacts(
          path.join(found.baseline.dir, found.baseline.record.name),
          packed.file,
        );
      } else {
        job.log.push(
          'The artifact itself is not kept here: its digest differs, its files cannot be compared.',
        );
      }
      job.log.push(
        `Differs: the rebuilt ${packed.name} has sha256 ${packed.sha256}, the statement names ${job.state.expectedSha256}; ${job.state.differences.length} files differ.`,
      );
    } catch (err) {
      job.state.status = 'failed';
      if (job.controller.signal.aborted) job.state.error = interrupted();
      else if (err instanceof CannotRebuild) job.state.error = { code: err.code, message: err.message };
      else {
        logger.error({ err, rebuild: job.state.id }, 'a verification rebuild failed');
        job.state.error = {
          code: 'REBUILD_FAILED',
          message: `Forge could not rebuild: ${(err as Error).message}`,
        };
      }
      job.log.push(`${job.state.error.code}: ${job.state.error.message}`);
    } finally {
      job.state.finishedAt = new Date().toISOString();
      discardDir(scratch, layout.tmpDir);
      try {
        kept.save(answer(job));
      } catch (err) {
        // The store closed under it (shutdown): the next start records it as interrupted.
        logger.warn({ err, rebuild: job.state.id }, 'a verification rebuild could not be stored');
      }
      jobs.delete(job.state.id);
    }
  }

  const answer = (job: Job): Rebuild => ({ ...job.state, log: job.log.slice(-LOG_TAIL) });

  return {
    /** Start a rebuild of the source a verified statement names; 404 REBUILD_SOURCE_NOT_KEPT at once when it is not kept. */
    start(body: RebuildBody): Rebuild {
      const found = find(body);
      fs.mkdirSync(layout.tmpDir, { recursive: true });
      const id = `rb_${crypto.randomBytes(6).toString('hex')}`;
      const job: Job = {
        state: {
          id,
          status: 'running',
          projectName: found.build.projectName,
          buildId: found.build.id,
          sourceSha256: body.sourceSha256,
          expectedSha256: body.artifactSha256,
          sha256: null,
          tools: [],
          differences: [],
          error: null,
          log: [],
          startedAt: new Date().toISOString(),
          finishedAt: null,
        },
        log: [],
        done: Promise.resolve(),
        controller: new AbortController(),
      };
      jobs.set(id, job);
      kept.save(answer(job));
      job.done = execute(job, found);
      return answer(job);
    },

    /** A rebuild by id; with `waitMs`, once it has finished or that long has passed. */
    async get(id: string, waitMs = 0): Promise<Rebuild> {
      const job = jobs.get(id);
      if (!job) {
        const stored = kept.get(id);
        if (!stored) throw new ForgeError('REBUILD_NOT_FOUND', `There is no verification rebuild "${id}".`);
        return stored;
      }
      if (waitMs > 0 && job.state.finishedAt === null) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          job.done,
          new Promise((resolve) => {
            timer = setTimeout(resolve, waitMs);
          }),
        ]);
        clearTimeout(timer);
      }
      return answer(job);
    },

    /** Shutdown: every rebuild in flight is stopped (its commands killed) and its scratch removed. */
    async close(): Promise<void> {
      const running = [...jobs.values()].filter((j) => j.state.finishedAt === null);
      for (const job of running) job.controller.abort();
      await Promise.all(running.map((j) => j.done));
    },
  };
}

export type Rebuilds = ReturnType<typeof createRebuilds>;

const interrupted = (): NonNullable<Rebuild['error']> => ({
  code: 'REBUILD_INTERRUPTED',
  message: 'The daemon stopped while this rebuild ran: it did not finish. Run forge verify --rebuild again.',
});

/**
 * The rebuilds' answers in the store (one JSON row each, the newest KEEP_FINISHED), so one is
 * answered after a restart. Opening it records every rebuild left running by a daemon that stopped
 * (a crash, a kill: a clean stop records its own) as interrupted.
 */
function keptRebuilds(store: Pick<Store, 'db'>) {
  const db = store.db;
  const stmt = {
    upsert: db.prepare<[string, string, string | null, string]>(
      `INSERT INTO verification_rebuilds (id, started_at, finished_at, state) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET finished_at = excluded.finished_at, state = excluded.state`,
    ),
    get: db.prepare<[string], { state: string }>('SELECT state FROM verification_rebuilds WHERE id = ?'),
    unfinished: db.prepare<[], { id: string; state: string }>(
      'SELECT id, state FROM verification_rebuilds WHERE finished_at IS NULL',
    ),
    prune: db.prepare<[number]>(
      `DELETE FROM verification_rebuilds WHERE finished_at IS NOT NULL AND id NOT IN (
         SELECT id FROM verification_rebuilds WHERE finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT ?)`,
    ),
  };
  const parse = (state: string): Rebuild | null => {
    const parsed = Rebuild.safeParse(JSON.parse(state));
    return parsed.success ? parsed.data : null;
  };
  const save = (rebuild: Rebuild): void => {
    stmt.upsert.run(rebuild.id, rebuild.startedAt, rebuild.finishedAt, JSON.stringify(rebuild));
    if (rebuild.finishedAt) stmt.prune.run(KEEP_FINISHED);
  };
  const now = new Date().toISOString();
  for (const row of stmt.unfinished.all()) {
    const rebuild = parse(row.state);
    const error = interrupted();
    if (!rebuild) {
      db.prepare('DELETE FROM verification_rebuilds WHERE id = ?').run(row.id);
      continue;
    }
    save({
      ...rebuild,
      status: 'failed',
      error,
      finishedAt: now,
      log: [...rebuild.log, `${error.code}: ${error.message}`].slice(-LOG_TAIL),
    });
  }
  return {
    save,
    get: (id: string): Rebuild | null => {
      const row = stmt.get.get(id);
      return row ? parse(row.state) : null;
    },
  };
}
