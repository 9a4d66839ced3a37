import type { Build } from '@forge/shared';
import type { CliClient } from '../http/client.ts';
import { CliError } from '../output.ts';

/** How many recent builds are searched for a running one. */
const RUNNING_SEARCH_LIMIT = 50;

const NO_BUILDS_HINT = 'Upload a project first: forge upload app.zip';

/**
 * The project a command acts on when none is named: the daemon's current project, the one last
 * chosen (an accepted upload, the web's selector, `forge use`), never one a background rebuild touched.
 */
export async function defaultProjectName(client: CliClient): Promise<string> {
  const name = await client.request('currentProject').then(
    (current) => current.name,
    async (err: unknown) => {
      // A daemon from before the current project was kept (no such route): its newest project.
      if ((err as { code?: string } | null)?.code !== 'NOT_FOUND') throw err;
      const projects = await client.request('projects');
      return [...projects].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0]?.name ?? null;
    },
  );
  if (!name) throw new CliError('There are no projects yet.', { hint: NO_BUILDS_HINT });
  return name;
}

/** The newest build (the daemon lists builds newest first). */
export async function newestBuild(client: CliClient): Promise<Build> {
  const [build] = await client.request('builds', { query: { limit: 1 } });
  if (!build) throw new CliError('There are no builds yet.', { hint: NO_BUILDS_HINT });
  return build;
}

/** The newest build that is queued or running. */
export async function newestRunningBuild(client: CliClient): Promise<Build> {
  const builds = await client.request('builds', { query: { limit: RUNNING_SEARCH_LIMIT } });
  const running = builds.find((b) => b.status === 'running' || b.status === 'queued');
  if (!running) {
    throw new CliError('No build is running.', {
      hint: builds[0] ? `The newest build is ${builds[0].id} (${builds[0].status}).` : undefined,
    });
  }
  return running;
}

/** The newest build of one project (for a daemon whose upload answer names no build). */
export async function newestBuildOfProject(client: CliClient, projectName: string): Promise<Build> {
  const [build] = await client.request('builds', { query: { project: projectName, limit: 1 } });
  if (!build) {
    throw new CliError(`Project ${projectName} has no build.`, { hint: 'See `forge daemon logs` for why.' });
  }
  return build;
}
