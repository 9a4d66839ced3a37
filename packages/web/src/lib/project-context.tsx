import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Project } from '@forge/shared';
import { routeQuery } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';

/** Remembered choice of the project selector (per browser). */
const STORAGE_KEY = 'forge.project';

const projectsQuery = routeQuery('projects');
export const projectsQueryKey = projectsQuery.queryKey;

interface ProjectContextValue {
  /** The project every panel works on: the chosen one, else the most recently updated, else null. */
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
      }
    }
  });

  const select = useCallback((name: string) => {
    setChosen(name);
    try {
      window.localStorage.setItem(STORAGE_KEY, name);
    } catch {
      /* private mode: the choice lasts for this tab only */
    }
  }, []);

  const value = useMemo<ProjectContextValue>(() => {
    const projects = data ?? [];
    const project = chosen && projects.some((p) => p.name === chosen) ? chosen : (projects[0]?.name ?? null);
    return { project, projects, pending: isPending, select };
  }, [data, chosen, isPending, select]);

  return <ProjectContext.Provider value={value}>{children}</ProjectContext.Provider>;
}

export function useProject(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProject must be used inside <ProjectProvider>');
  return value;
}
