import type { Deps } from '../deps.ts';
import { paint } from '../terminal.ts';
import { formatBuildsTable } from './format-builds.ts';

export interface BuildsOptions {
  project?: string;
  limit?: number;
  json?: boolean;
}

/**
 * `forge builds`: builds newest first, with id, project, status, stage, cache hit, duration, creation
 * time. Apart from its command wiring (commands/builds.ts), which loads commander: the read path
 * (read-path.ts) runs it without.
 */
export async function listBuilds(deps: Deps, opts: BuildsOptions): Promise<number> {
  const { client } = await deps.connect();
  const builds = await client.request('builds', {
    query: {
      ...(opts.project ? { project: opts.project } : {}),
      ...(opts.limit ? { limit: opts.limit } : {}),
    },
  });
  if (opts.json) deps.out.json(builds);
  else if (builds.length === 0) {
    deps.out.info(opts.project ? `No builds of ${opts.project} yet.` : 'No builds yet.');
  } else {
    for (const line of formatBuildsTable(builds, paint(deps.term.stdoutColor))) deps.out.data(line);
  }
  return 0;
}
