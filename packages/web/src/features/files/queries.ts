import { useQuery } from '@tanstack/react-query';
import type { FileCreateBody } from '@forge/shared';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { POLL_MS } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { useProject } from '@/lib/project-context.tsx';
import { routeQuery } from '@/lib/query-client.ts';

/**
 * The project file calls are about. `ready` is false while the project list is still on its way, so
 * panels do not load the daemon's default project first and then the chosen one; if the list fails,
 * calls go without a project and the daemon answers for its current one.
 */
export function useFileProject(): { project: string | undefined; key: string; ready: boolean } {
  const { project, pending } = useProject();
  return { project: project ?? undefined, key: project ?? '', ready: !pending };
}

/** GET /api/files/structure?project= */
export const fileStructureQuery = (project: string | undefined) =>
  routeQuery('fileStructure', { query: { project } });

export const fileStructureQueryKey = (project: string | undefined) => fileStructureQuery(project).queryKey;

/** The project's file tree, refetched every 30 s (docs/product.md#http-calls, docs/product.md#constants). */
export function useFileStructure() {
  const { project, ready } = useFileProject();
  return useQuery({
    ...fileStructureQuery(project),
    enabled: ready,
    refetchInterval: POLL_MS.fileStructure,
  });
}

export const fetchFileContent = async (path: string, project: string | undefined): Promise<string> =>
  (await forgeClient.request('fileContent', { query: { path, project } })).content;

export const saveFile = (path: string, content: string, project: string | undefined) =>
  forgeClient.request('fileSave', { body: { path, content, project } });

export const createFile = (body: FileCreateBody) => forgeClient.request('fileCreate', { body });

export const deleteFile = (path: string, project: string | undefined) =>
  forgeClient.request('fileDelete', { body: { path, project } });

export const renameFile = (from: string, to: string, project: string | undefined) =>
  forgeClient.request('fileRename', { body: { from, to, project } });

/** The daemon's own words for a failure (e.g. "A file with that name already exists."), for a toast's body. */
export function failureReason(error: unknown): string | undefined {
  if (isForgeHttpError(error))
    return error.hint ? `${error.serverMessage} ${error.hint}` : error.serverMessage;
  if (error instanceof Error) return error.message;
  return undefined;
}

export const isNotFound = (error: unknown): boolean => isForgeHttpError(error) && error.status === 404;
