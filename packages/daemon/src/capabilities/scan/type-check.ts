import fs from 'node:fs';
import path from 'node:path';
import { sanitizeLine, type ScanIssue } from '@forge/shared';
import { runCommand, type RunCommandOptions, type RunResult } from '../exec/index.ts';
import { parseJson } from './jsonc.ts';

/**
 * The type check: the project's own TypeScript (node_modules/typescript, never Forge's), on its own
 * tsconfig, with --noEmit, in a time limit, through the build runner (own process group, scrubbed
 * environment, the sandbox when the machine has one). It needs the dependencies installed: without
 * them every import is an error, so it does not run at all then.
 */

/** The whole check (every tsconfig it runs on) stops after this. */
export const TYPE_CHECK_TIMEOUT_MS = 2 * 60_000;
/** Errors reported one by one; the rest are counted. */
export const TYPE_ERRORS_SHOWN = 20;
/** A root tsconfig of references (Vite's templates) is checked through at most this many of them. */
const MAX_REFERENCED = 4;

/** What a scan runs a command with: the build runner's options, less what it fills in. */
export type ScanCommand = Pick<RunCommandOptions, 'argv' | 'cwd' | 'timeoutMs' | 'onLine'> & {
  signal?: AbortSignal;
};
export type ScanRunner = (command: ScanCommand) => Promise<RunResult>;

/** The default runner: the build runner, sandboxed when bubblewrap is there. */
export const sandboxedRunner: ScanRunner = (command) =>
  runCommand({ ...command, sandbox: true, ...(command.signal ? { signal: command.signal } : {}) });

export interface TypeCheckResult {
  /** Whether tsc ran (the project has node_modules/typescript and a tsconfig.json). */
  ran: boolean;
  issues: ScanIssue[];
}

const exists = (file: string): boolean => fs.existsSync(file);

/** The tsconfig files to check: the root one, or the projects it references when it has no files itself. */
function configsToCheck(dir: string): string[] {
  const root = path.join(dir, 'tsconfig.json');
  let json: unknown;
  try {
    const parsed = parseJson(fs.readFileSync(root, 'utf8'), { jsonc: true });
    json = parsed.ok ? parsed.value : null;
  } catch {
    json = null;
  }
  const config = (json ?? {}) as { references?: unknown; files?: unknown; include?: unknown };
  const solution =
    Array.isArray(config.references) &&
    config.references.length > 0 &&
    Array.isArray(config.files) &&
    config.files.length === 0;
  if (!solution) return [root];
  const referenced: string[] = [];
  for (const ref of config.references as unknown[]) {
    const rel = (ref as { path?: unknown } | null)?.path;
    if (typeof rel !== 'string') continue;
    const target = path.resolve(dir, rel);
    const file = rel.endsWith('.json') ? target : path.join(target, 'tsconfig.json');
    // Only configs inside the project: a reference is project input.
    if (file.startsWith(dir + path.sep) && exists(file)) referenced.push(file);
    if (referenced.length === MAX_REFERENCED) break;
  }
  return referenced.length > 0 ? referenced : [root];
}

const LOCATED = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const GLOBAL = /^error (TS\d+): (.*)$/;

/**
 * Run the project's tsc on the app folder (`appDir`, else the project root, whichever has the
 * tsconfig.json). Issues name files relative to `projectDir`.
 */
export async function typeCheck(
  projectDir: string,
  appDir: string,
  run: ScanRunner,
  signal?: AbortSignal,
): Promise<TypeCheckResult> {
  const dirs = [...new Set([path.join(projectDir, appDir), projectDir])];
  const dir = dirs.find((d) => exists(path.join(d, 'tsconfig.json')));
  const tsc = dirs
    .map((d) => path.join(d, 'node_modules', 'typescript', 'bin', 'tsc'))
    .find((file) => exists(file));
  if (!dir || !tsc) return { ran: false, issues: [] };

  const errors: ScanIssue[] = [];
  const seen = new Set<string>();
  const notes: ScanIssue[] = [];
  const deadline = Date.now() + TYPE_CHECK_TIMEOUT_MS;
  for (const config of configsToCheck(dir)) {
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) break;
    const cwd = path.dirname(config);
    let last = '';
    let found = 0;
    const result = await run({
      argv: [process.execPath, tsc, '--noEmit', '--pretty', 'false', '-p', config],
      cwd,
      timeoutMs: left,
      ...(signal ? { signal } : {}),
      onLine: ({ text }) => {
        const line = sanitizeLine(text);
        if (line.trim()) last = line;
        const located = LOCATED.exec(line);
        const global = located ? null : GLOBAL.exec(line);
        if (!located && !global) return;
        found++;
        const key = line;
        if (seen.has(key)) return;
        seen.add(key);
        if (located) {
          const file = path.relative(projectDir, path.resolve(cwd, located[1]!)).split(path.sep).join('/');
          errors.push({
            kind: 'type-error',
            severity: 'error',
            summary: `${located[4]}: ${located[5]}`,
            file,
            line: Math.max(1, Number(located[2])),
          });
        } else {
          errors.push({ kind: 'type-error', severity: 'error', summary: `${global![1]}: ${global![2]}` });
        }
      },
    });
    const name = path.relative(projectDir, config).split(path.sep).join('/');
    if (result.outcome === 'timed-out') {
      notes.push({
        kind: 'type-error',
        severity: 'info',
        summary: `The type check of ${name} ran past ${TYPE_CHECK_TIMEOUT_MS / 60_000} min and was stopped.`,
        file: name,
      });
      break;
    }
    if (result.outcome === 'failed' && found === 0) {
      notes.push({
        kind: 'type-error',
        severity: 'info',
        summary: `tsc could not check ${name}: ${result.error ?? (last || `exit code ${result.exitCode}`)}`,
        file: name,
      });
    }
  }
  const shown = errors.slice(0, TYPE_ERRORS_SHOWN);
  if (errors.length > shown.length) {
    notes.push({
      kind: 'type-error',
      severity: 'info',
      summary: `…and ${errors.length - shown.length} more type errors.`,
      suggestion: 'Run `npx tsc --noEmit` in the project to see them all.',
    });
  }
  return { ran: true, issues: [...shown, ...notes] };
}
