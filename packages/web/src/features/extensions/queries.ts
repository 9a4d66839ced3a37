import { errorMessage } from '@/lib/api.ts';
export { errorMessage };
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { POLL_MS, routes, UI_TEXT } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';
import type { ToastInput } from '@/components/ui/use-toast.tsx';

const extensionsQuery = routeQuery('extensions');
const dynamicRoutesQuery = routeQuery('dynamicRoutes');

/** GET /api/extensions, polled every 5 s (spec §9). */
export const useExtensions = () => useQuery({ ...extensionsQuery, refetchInterval: POLL_MS.extensions });

/** GET /api/dynamic-routes, polled every 10 s (spec §9). */
export const useDynamicRoutes = () =>
  useQuery({ ...dynamicRoutesQuery, refetchInterval: POLL_MS.dynamicRoutes });

/** The message a failure shows (spec §8 "Extension install: the error message is shown"). */

/** POST /api/upload-extension (multipart field "zipfile"); the lists refresh after an install. */
export function useInstallExtension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(routes.uploadExtension.multipart.field, file, file.name);
      return forgeClient.request('uploadExtension', { form });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: extensionsQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: dynamicRoutesQuery.queryKey });
    },
  });
}

/** DELETE /api/extensions/:name (after the user confirmed); the lists refresh after it. */
export function useRemoveExtension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => forgeClient.request('deleteExtension', { params: { name } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: extensionsQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: dynamicRoutesQuery.queryKey });
    },
  });
}

/** The success banner of an install: what was installed, and what it replaced when it upgraded. */
export function installedLine(answer: {
  extension: { displayName: string; version?: string | undefined };
  upgradedFrom?: string | null | undefined;
}): string {
  const { displayName, version } = answer.extension;
  if (answer.upgradedFrom && version)
    return `Upgraded ${displayName} from ${answer.upgradedFrom} to ${version}.`;
  return version ? `Installed ${displayName} ${version}.` : `Installed ${displayName}.`;
}

/** POST /api/package-platform: rebuild the platform installer (then at GET /api/download/app). */
export const usePackagePlatform = () =>
  useMutation({ mutationFn: () => forgeClient.request('packagePlatform') });

/** Spec §8 Package: the returned status or "Build triggered"; failure names family authentication. */
export function packageNotice(
  result: { ok: true; status?: string } | { ok: false; error: unknown },
): ToastInput {
  if (result.ok) return { title: result.status || UI_TEXT.packageTriggered };
  return { variant: 'destructive', title: UI_TEXT.packageFailed, description: errorMessage(result.error) };
}
