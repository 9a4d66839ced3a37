import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Project } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';

/** Remembered choice of the project selector (per browser). */
const STORAGE_KEY = 'forge.project';

const projectsQuery = routeQuery('projects');
export const projectsQueryKey = projectsQuery.queryKey;
const currentQuery = routeQuery('currentProject');

interface ProjectContextValue {
  /**
   * The project every panel works on: the one chosen in this browser, else the daemon's current one
   * (the last chosen anywhere: an upload, `forge use`), else the most recently updated, else null.
   */
  project: string | null;
  projects: Project[];
  /** Whether the project list is still on its way (false once it loaded or failed). */
  pending: boolean;
  select(name: string): void;
}

const ProjectContext = createContext<ProjectContextValue | null>(null);

const readStored = (): string | null => {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
};

/** The header's project selector state, shared by every panel. Mount inside SocketProvider. */
export function ProjectProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(projectsQuery);
  const { data: current } = useQuery(currentQuery);
  const [chosen, setChosen] = useState<string | null>(readStored);

  // A build starting or ending changes the list (new project, last build, artifact): refetch it.
  useSocketMessages((message) => {
    if (
      message.type === 'build-finished' ||
      message.type === 'rapid-build-start' ||
      message.type === 'build-stage'
    ) {
      if (
        message.type !== 'build-stage' ||
        message.stage === 'starting' ||
        message.stage === 'extraction-complete'
      ) {
        void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
        void queryClient.invalidateQueries({ queryKey: currentQuery.queryKey });
      }
    }
  });

  const select = useCallback(
    (name: string) => {
      setChosen(name);
      try {
        window.localStorage.setItem(STORAGE_KEY, name);
      } catch {
        /* private mode: the choice lasts for this tab only */
      }
      // The daemon keeps the choice too: the CLI and other clients then default to it.
      void forgeClient
        .request('useProject', { body: { name } })
        .then((answer) => queryClient.setQueryData(currentQuery.queryKey, answer))
        .catch(() => {
          /* a project gone meanwhile, or an older daemon: the choice stays this browser's */
        });
    },
    [queryClient],
  );

  const value = useMemo<ProjectContextValue>(() => {
    const projects = data ?? [];
    const known = (name: string | null | undefined): name is string =>
      !!name && projects.some((p) => p.name === name);
    const project = known(chosen)
      ? chosen
      : known(current?.name)
        ? current.name
        : (projects[0]?.name ?? null);
    return { project, projects, pending: isPending, select };
  }, [data, current, chosen, isPending, select]);

  return <ProjectContext.Provider value={value}>{children}</ProjectContext.Provider>;
}

export function useProject(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProject must be used inside <ProjectProvider>');
  return value;
}
