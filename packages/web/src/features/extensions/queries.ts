import { errorMessage } from '@/lib/api.ts';
export { errorMessage };
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { POLL_MS, ROUTE_PATHS, UI_TEXT } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';
import type { ToastInput } from '@/components/ui/use-toast.tsx';

const extensionsQuery = routeQuery('extensions');
const dynamicRoutesQuery = routeQuery('dynamicRoutes');
const appsQuery = routeQuery('apps');

/** GET /api/extensions, polled every 5 s (docs/product.md#constants). */
export const useExtensions = () => useQuery({ ...extensionsQuery, refetchInterval: POLL_MS.extensions });

/** GET /api/dynamic-routes, polled every 10 s (docs/product.md#constants). */
export const useDynamicRoutes = () =>
  useQuery({ ...dynamicRoutesQuery, refetchInterval: POLL_MS.dynamicRoutes });

/**
 * The message a failure shows (docs/product.md#error-texts "Extension install: the error message is shown").
 */

/** POST /api/upload-extension (multipart field "zipfile"); the lists refresh after an install. */
export function useInstallExtension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(ROUTE_PATHS.uploadExtension.multipart.field, file, file.name);
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

/**
 * POST /api/extensions/:name/rollback: the kept previous version is current again (and the one it
 * replaced is kept in turn). Its route may serve other files now, so both lists refresh after it.
 */
export function useRollbackExtension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => forgeClient.request('rollbackExtension', { params: { name } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: extensionsQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: dynamicRoutesQuery.queryKey });
    },
  });
}

/** The success banner of an extension rollback: which version it left and which it serves now. */
export function rolledBackExtensionLine(answer: {
  extension: { displayName: string; version?: string | undefined };
  rolledBackFrom: string;
}): string {
  const { displayName, version } = answer.extension;
  return version
    ? `Rolled back ${displayName} from ${answer.rolledBackFrom} to ${version}.`
    : `Rolled back ${displayName} from ${answer.rolledBackFrom}.`;
}

/**
 * GET /api/apps: the apps IntegrationBot published, polled like the extensions (docs/product.md#constants: 5
 * s).
 */
export const useIntegratedApps = () => useQuery({ ...appsQuery, refetchInterval: POLL_MS.extensions });

/**
 * POST /api/apps/:name/rollback: the previously published build is served again. The app list and
 * the dynamic routes (which list integrated apps) refresh after it.
 */
export function useRollbackApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => forgeClient.request('rollbackApp', { params: { name } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: appsQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: dynamicRoutesQuery.queryKey });
    },
  });
}

/** The success banner of an app rollback: the build it left and the build it serves now. */
export function rolledBackAppLine(answer: {
  app: { name: string; buildId: string };
  rolledBackFrom: string;
}): string {
  return `Rolled back ${answer.app.name} from build ${answer.rolledBackFrom} to build ${answer.app.buildId}.`;
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

/**
 * Package (docs/product.md#error-texts): the returned status or "Build triggered"; failure names family
 * authentication.
 */
export function packageNotice(
  result: { ok: true; status?: string } | { ok: false; error: unknown },
): ToastInput {
  if (result.ok) return { title: result.status || UI_TEXT.packageTriggered };
  return { variant: 'destructive', title: UI_TEXT.packageFailed, description: errorMessage(result.error) };
}
