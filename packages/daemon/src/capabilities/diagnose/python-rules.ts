import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import type { Context } from './context.ts';
import { PYTHON_LOCKS, normalizePypi, satisfiesSpecifier } from '../detect/python-lock.ts';

/** pip's account of a conflict with a constraint: "The user requested (constraint) greeting==1.0". */
const CONSTRAINT = /The user requested \(constraint\) ([A-Za-z0-9][\w.-]*)==(\S+)/;
/** What asked for a package: "The user requested greeting>=2" or "flask 3.0 depends on werkzeug>=3". */
const ASKED =
  /(?:The user requested (?!\(constraint\))|\S+ \S+ depends on )([A-Za-z0-9][\w.-]*)(?:\[[^\]]*\])?(\S*)/;

/** The command that updates each lock (the tool's own, which Forge does not run). */
const RELOCK: Record<string, string> = { uv: 'uv lock', poetry: 'poetry lock', pdm: 'pdm lock' };

/**
 * pip was held to a lockfile's versions (its pins as constraints) and could not install. pip words
 * both causes the same way ("conflicting dependencies"), so the pins are checked against what was
 * asked: a pin outside what the project asks for is LOCKFILE_OUT_OF_SYNC (the lock is older than
 * pyproject.toml; the fix is the tool's relock); a pin inside it that still failed is a version the
 * index does not have (PACKAGE_NOT_ON_REGISTRY). Where Forge cannot tell, it says both.
 */
export function pythonLockConflict(ctx: Context): Diagnosis | null {
  const { blueprint, error } = ctx.input;
  if (blueprint?.stack !== 'python' || error.code !== 'INSTALL_FAILED') return null;
  const file = blueprint.decisions.find((d) => d.field === 'install')?.file ?? '';
  const tool = PYTHON_LOCKS.find(([lock]) => lock === file.split('/').pop())?.[1];
  if (!tool) return null;
  const pinned = new Map<string, string>();
  const asked: { name: string; spec: string }[] = [];
  for (const line of ctx.lines) {
    const c = CONSTRAINT.exec(line);
    if (c) pinned.set(normalizePypi(c[1]!), c[2]!);
    else {
      const a = ASKED.exec(line);
      if (a) asked.push({ name: normalizePypi(a[1]!), spec: a[2]! });
    }
  }
  if (pinned.size === 0) return null;
  const outside: string[] = [];
  let unsure = false;
  for (const [name, version] of pinned) {
    for (const a of asked.filter((x) => x.name === name)) {
      const fits = a.spec === '' ? true : satisfiesSpecifier(version, a.spec);
      if (fits === false) outside.push(`${name}${a.spec}`);
      if (fits === null) unsure = true;
    }
  }
  const names = [...pinned.keys()];
  const pins = [...pinned].map(([n, v]) => `${n}==${v}`).join(', ');
  const relock = `Run ${RELOCK[tool]} where the project is and upload the updated ${file}`;
  if (outside.length > 0)
    return {
      code: 'LOCKFILE_OUT_OF_SYNC',
      summary: `${file} pins ${pins}, but the project asks for ${outside.join(', ')}: ${file} is older than pyproject.toml.`,
      file,
      suggestion: `${relock} (Forge installs with pip, held to the lock's versions; it does not relock).`,
      subjects: names,
    };
  return {
    code: 'PACKAGE_NOT_ON_REGISTRY',
    summary: unsure
      ? `pip could not install ${file}'s ${pins}: the index it reads may not have ${pinned.size === 1 ? 'that version' : 'those versions'}, or ${file} may be older than pyproject.toml.`
      : `${file} pins ${pins}, which fits what the project asks for, but the index pip reads does not have ${pinned.size === 1 ? 'that version' : 'those versions'}.`,
    file,
    suggestion: `Check that the index ${file} was locked against is the one this machine reads (PIP_INDEX_URL in the forge config's env), or ${relock.charAt(0).toLowerCase()}${relock.slice(1)} to lock versions that index has.`,
    subjects: [...names, 'the package index'],
  };
}

/** pip's "ERROR: No matching distribution found for flask==9" or "Could not find a version that satisfies the requirement x". */
const NO_DISTRIBUTION =
  /(?:No matching distribution found for|Could not find a version that satisfies the requirement) ([A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?(?:[<>=!~]=?[^\s,;()]+)?)/;
/** pip's words when the index could not be reached at all (urllib3's connection errors). */
const UNREACHABLE =
  /NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|Network is unreachable|ConnectTimeoutError|Read timed out|Connection refused/;
const HOST = /host='([^']+)'/;
/** pip failed while fetching the build backend of a package into its build environment. */
const BUILD_DEPENDENCIES =
  /pip subprocess to install build dependencies did not run successfully|Installing build dependencies: finished with status 'error'/;

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
  // What pip could not get may be the build backend of a package (pyproject.toml's [build-system]
  // requires), fetched into a build environment of its own, rather than a dependency.
  const backend = ctx.lines.some((line) => BUILD_DEPENDENCIES.test(line));
  const file = backend
    ? path.posix.join(blueprint.installDir, 'pyproject.toml')
    : (blueprint.decisions.find((d) => d.field === 'install')?.file ?? undefined);
  const what = backend ? `${requirement} (the build backend ${file}'s [build-system] requires)` : requirement;
  // A folder of wheels can be named only in a requirements file; a lock or pyproject.toml cannot.
  const requirementsFile = !backend && file !== undefined && /\.txt$/.test(file);
  const name = requirement.replace(/[<>=!~[;].*$/, '');
  const offline = ctx.lines.find((line) => UNREACHABLE.test(line));
  if (offline) {
    const host = HOST.exec(offline)?.[1] ?? 'the package index';
    return {
      code: 'NETWORK_AT_BUILD',
      summary: `pip could not reach ${host} to install ${what}.`,
      ...(file ? { file } : {}),
      suggestion: requirementsFile
        ? `This machine does not reach ${host}: put the wheels in the project and name them in ${file} (--no-index --find-links wheels/), or set PIP_INDEX_URL to an index it reaches in the forge config's env.`
        : `This machine does not reach ${host}: set PIP_INDEX_URL to an index it reaches that has ${name} (PIP_EXTRA_INDEX_URL for a second one) in the forge config's env.`,
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
    summary: `pip found no version of ${what} on the index it reads.`,
    ...(file ? { file } : {}),
    suggestion: requirementsFile
      ? `Check the name and version of ${requirement} in ${file} (pip index versions ${name} lists what the index has), or add its wheel to the --find-links folder the file names.`
      : `Check the name and version of ${requirement} in ${file ?? 'the project'} (pip index versions ${name} lists what the index has), or set PIP_INDEX_URL to an index that has it in the forge config's env.`,
    subjects: [requirement, 'the package index'],
  };
}
