import type { Diagnosis } from '@forge/shared';
import type { Context } from './context.ts';
import { PYTHON_LOCKS } from '../detect/python-lock.ts';

/** pip's account of a conflict with a constraint: "The user requested (constraint) greeting==1.0". */
const CONSTRAINT = /The user requested \(constraint\) ([A-Za-z0-9][\w.-]*)==(\S+)/;
/** What asked for another version: "The user requested greeting>=2" or "flask 3.0 depends on werkzeug>=3". */
const ASKED =
  /(?:The user requested (?!\(constraint\))|\S+ \S+ depends on )([A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?\S*)/;

/** The command that updates each lock (the tool's own, which Forge does not run). */
const RELOCK: Record<string, string> = { uv: 'uv lock', poetry: 'poetry lock', pdm: 'pdm lock' };

/**
 * LOCKFILE_OUT_OF_SYNC for a Python lock: pip was held to the lockfile's versions (its pins as
 * constraints) and something the project asks for needs another version — the lock is older than
 * pyproject.toml. The fix is the lock tool's own relock, not a looser install.
 */
export function pythonLockConflict(ctx: Context): Diagnosis | null {
  const { blueprint, error } = ctx.input;
  if (blueprint?.stack !== 'python' || error.code !== 'INSTALL_FAILED') return null;
  const file = blueprint.decisions.find((d) => d.field === 'install')?.file ?? '';
  const tool = PYTHON_LOCKS.find(([lock]) => lock === file.split('/').pop())?.[1];
  if (!tool) return null;
  const pinned = new Map<string, string>();
  let asked: string | undefined;
  for (const line of ctx.lines) {
    const c = CONSTRAINT.exec(line);
    if (c) pinned.set(c[1]!, c[2]!);
    asked ??= ASKED.exec(line)?.[1];
  }
  if (pinned.size === 0) return null;
  const names = [...pinned.keys()];
  const pins = [...pinned].map(([n, v]) => `${n}==${v}`).join(', ');
  return {
    code: 'LOCKFILE_OUT_OF_SYNC',
    summary: `${file} pins ${pins}, but ${asked ? `the project asks for ${asked}` : 'the project asks for another version'}: ${file} is older than pyproject.toml.`,
    file,
    suggestion: `Run ${RELOCK[tool]} where the project is and upload the updated ${file} (Forge installs with pip, held to the lock's versions; it does not relock).`,
    subjects: names,
  };
}

/** pip's "ERROR: No matching distribution found for flask==9" or "Could not find a version that satisfies the requirement x". */
const NO_DISTRIBUTION =
  /(?:No matching distribution found for|Could not find a version that satisfies the requirement) ([A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?(?:[<>=!~]=?[^\s,;()]+)?)/;
/** pip's words when the index could not be reached at all (urllib3's connection errors). */
const UNREACHABLE =
  /NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|Network is unreachable|ConnectTimeoutError|Read timed out|Connection refused/;
const HOST = /host='([^']+)'/;

/**
 * pip could not install a requirement: the index was not reachable (NETWORK_AT_BUILD, naming the
 * host: PyPI is not reachable from every build machine), or it has no version that satisfies it
 * (PACKAGE_NOT_ON_REGISTRY). Either way the advice is about the project's requirements file.
 */
export function pipResolution(ctx: Context): Diagnosis | null {
  const { blueprint, error } = ctx.input;
  if (blueprint?.stack !== 'python' || error.code !== 'INSTALL_FAILED') return null;
  let requirement: string | undefined;
  for (const line of ctx.lines) requirement ??= NO_DISTRIBUTION.exec(line)?.[1];
  if (!requirement) return null;
  const file = blueprint.decisions.find((d) => d.field === 'install')?.file ?? undefined;
  const offline = ctx.lines.find((line) => UNREACHABLE.test(line));
  if (offline) {
    const host = HOST.exec(offline)?.[1] ?? 'the package index';
    return {
      code: 'NETWORK_AT_BUILD',
      summary: `pip could not reach ${host} to install ${requirement}.`,
      ...(file ? { file } : {}),
      suggestion: `This machine does not reach ${host}: put the wheels in the project and name them in ${file ?? 'requirements.txt'} (--no-index --find-links wheels/), or set PIP_INDEX_URL to an index it reaches in the forge config's env.`,
      subjects: [requirement, host],
    };
  }
  const lockTool = PYTHON_LOCKS.find(([lock]) => lock === file?.split('/').pop())?.[1];
  if (lockTool)
    return {
      code: 'PACKAGE_NOT_ON_REGISTRY',
      summary: `pip found no version of ${requirement} on the index it reads.`,
      file: file!,
      suggestion: `${file} pins ${requirement}, which that index does not have: check that the index ${file} was locked against is the one this machine reads (PIP_INDEX_URL in the forge config's env), or run ${RELOCK[lockTool]} to lock versions it has.`,
      subjects: [requirement, 'the package index'],
    };
  return {
    code: 'PACKAGE_NOT_ON_REGISTRY',
    summary: `pip found no version of ${requirement} on the index it reads.`,
    ...(file ? { file } : {}),
    suggestion: `Check the name and version of ${requirement} in ${file ?? 'requirements.txt'} (pip index versions ${requirement.replace(/[<>=!~[].*$/, '')} lists what the index has), or add its wheel to the --find-links folder the file names.`,
    subjects: [requirement, 'the package index'],
  };
}
