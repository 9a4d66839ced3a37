export { errorMessage as reasonOf } from '@/lib/api.ts';
import { errorMessage as reasonOf } from '@/lib/api.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Repair, RepairCode } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { useLiveStore } from '@/lib/live-store.ts';
import { projectsQueryKey } from '@/lib/project-context.tsx';
import { routeQueryKey } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { buildsQueryKey } from '@/features/builds/queries.ts';

/** The daemon's own words for a refusal ("There is nothing to fix in this build."), else the error. */

const journalKey = (project: string) => routeQueryKey('projectRepairs', { params: { name: project } });

/**
 * The project's repair journal (GET /api/projects/:name/repairs, newest first): what is applied now,
 * what was undone. Read again whenever a build of the project finishes (RepairBot repairs during a
 * build) — not polled.
 */
export function useRepairJournal(project: string | null) {
  const queryClient = useQueryClient();
  useSocketMessages((message) => {
    if (project && message.type === 'build-finished' && message.projectName === project) {
      void queryClient.invalidateQueries({ queryKey: journalKey(project) });
    }
  });
  return useQuery({
    queryKey: journalKey(project ?? ''),
    queryFn: ({ signal }) =>
      forgeClient.request('projectRepairs', { params: { name: project ?? '' }, signal }),
    enabled: project !== null,
  });
}

/**
 * A repair as it stands now: the journal knows of undos and later applies the build record (written
 * when the build ended) does not.
 */
export function currentRepair(repair: Repair, journal: readonly Repair[] | undefined): Repair {
  return journal?.find((r) => r.id === repair.id) ?? repair;
}

/** Shared by every Apply button of one build, so all show it pending (the FixIt and Build Failed views). */
export const applyFixKey = (buildId: string) => ['buildFix', buildId] as const;

/**
 * FixIt's "Apply fix": POST /api/builds/:id/fix (all proposed repairs, or `codes`). The daemon
 * applies them and starts a build; its record goes into the client model at once, so every panel
 * follows it like any other build. The daemon's message is the toast; a refusal (NOTHING_TO_FIX…)
 * is told in its words.
 */
export function useApplyFix(buildId: string, project: string) {
  const queryClient = useQueryClient();
  const store = useLiveStore();
  const { toast } = useToast();
  return useMutation({
    mutationKey: applyFixKey(buildId),
    mutationFn: (codes?: RepairCode[]) =>
      forgeClient.request('buildFix', { params: { id: buildId }, body: codes ? { codes } : {} }),
    onSuccess: async (result) => {
      // The message names the repairs and the new build ("… Build b2 is running with the repair.").
      toast({ title: result.message });
      void queryClient.invalidateQueries({ queryKey: journalKey(project) });
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      try {
        const build = await forgeClient.request('build', { params: { id: result.buildId } });
        store.dispatch({ type: 'build-record', build });
      } catch {
        // /ws brings the build anyway; the record only makes it show before its first message.
      }
      void queryClient.invalidateQueries({ queryKey: buildsQueryKey });
    },
    onError: (error) => {
      toast({ title: 'Fix not applied', description: reasonOf(error), variant: 'destructive' });
    },
  });
}

/**
 * "Undo" of an applied repair: POST /api/projects/:name/repairs/undo { id } restores the files it
 * changed (the file watcher then updates open editor tabs).
 */
export function useUndoRepair(project: string) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation({
    mutationFn: (id: string) =>
      forgeClient.request('undoRepair', { params: { name: project }, body: { id } }),
    onSuccess: (result) => {
      toast({ title: result.message, description: result.files.join(', ') || undefined });
      void queryClient.invalidateQueries({ queryKey: journalKey(project) });
    },
    onError: (error) => {
      toast({ title: 'Undo failed', description: reasonOf(error), variant: 'destructive' });
    },
  });
}
