import type { Diagnosis } from '@forge/shared';
import type { Context } from './context.ts';

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
  return {
    code: 'PACKAGE_NOT_ON_REGISTRY',
    summary: `pip found no version of ${requirement} on the index it reads.`,
    ...(file ? { file } : {}),
    suggestion: `Check the name and version of ${requirement} in ${file ?? 'requirements.txt'} (pip index versions ${requirement.replace(/[<>=!~[].*$/, '')} lists what the index has), or add its wheel to the --find-links folder the file names.`,
    subjects: [requirement, 'the package index'],
  };
}
