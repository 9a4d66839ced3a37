import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FamilyChatMessage, MemoryCell, ForgeHttpError } from '@forge/shared';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { apiFetch, assertOk, forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';
import { mergeMessages } from './family-chat.ts';

export { useExtensions } from '@/features/extensions/queries.ts';
export { useBots } from '@/features/bot-factory/queries.ts';

/** The memory manager's cells (docs/product.md#entities: key, value, ts). */
export const useMemoryCells = () => useQuery(routeQuery('memoryCells'));

const memoryKey = routeQuery('memoryCells').queryKey;

/** PUT /api/memory-cells/:key: the changed cell replaces the old one in the list. */
export function useSetMemoryCell() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) =>
      forgeClient.request('memorySet', { params: { key }, body: { value } }),
    onSuccess: (cell: MemoryCell) => {
      queryClient.setQueryData(memoryKey, (cells) =>
        cells?.some((c) => c.key === cell.key)
          ? cells.map((c) => (c.key === cell.key ? cell : c))
          : [...(cells ?? []), cell],
      );
    },
  });
}

/** DELETE /api/memory-cells/:key: the cell leaves the list. */
export function useDeleteMemoryCell() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => forgeClient.request('memoryDelete', { params: { key } }),
    onSuccess: ({ key }) => {
      queryClient.setQueryData(memoryKey, (cells) => cells?.filter((c) => c.key !== key));
    },
  });
}

/**
 * POST /api/package-platform from the university. Packaging is written to the audit log, so the log
 * is read again afterwards. A refusal of the family token is announced here, in the mutation's own
 * options, because the screen is already on its way to /login (lib/api.ts) when the answer lands.
 */
export function usePackagePlatform(onTokenRefused: (error: ForgeHttpError) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => forgeClient.request('packagePlatform'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: routeQuery('familyAudit').queryKey }),
    onError: (error) => {
      if (isForgeHttpError(error) && error.code === 'FAMILY_AUTH_REQUIRED') onTokenRefused(error);
    },
  });
}

/** The audit log of family actions, newest first (GET /api/family/audit). */
export const useFamilyAudit = () => useQuery(routeQuery('familyAudit'));

export const familyChatKey = routeQuery('familyChat').queryKey;

/**
 * The family chat history, oldest first (GET /api/family/chat). A read merges into what is cached,
 * so a message pushed over /ws while the read was on its way is kept.
 */
export function useFamilyChat() {
  const queryClient = useQueryClient();
  const base = routeQuery('familyChat');
  return useQuery({
    ...base,
    queryFn: async (context) =>
      mergeMessages(queryClient.getQueryData(familyChatKey) ?? [], await base.queryFn!(context)),
  });
}

/** Forget what the signed-in member could read, so the next one starts from the daemon. */
export function forgetFamilyData(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: routeQuery('familyMe').queryKey.slice(0, 2) });
  queryClient.removeQueries({ queryKey: memoryKey });
}

/** Who the stored token belongs to (GET /api/family/me); a refused token signs out (lib/api.ts). */
export const useFamilySession = () => useQuery(routeQuery('familyMe'));

/** Add messages (sent, or pushed over /ws) to the cached history, each once. */
export function useAddFamilyMessages() {
  const queryClient = useQueryClient();
  return (...messages: FamilyChatMessage[]) =>
    queryClient.setQueryData(familyChatKey, (current) => mergeMessages(current ?? [], messages));
}

/** POST /api/family/chat; the sent message joins the history at once. */
export function useSendFamilyMessage() {
  const add = useAddFamilyMessages();
  return useMutation({
    mutationFn: (text: string) => forgeClient.request('familyChatSend', { body: { text } }),
    onSuccess: (message) => add(message),
  });
}

/** Why a call failed, as "status: the daemon's words" when it answered. */
export const reasonOf = (error: unknown): string =>
  isForgeHttpError(error)
    ? `${error.status}: ${error.serverMessage}`
    : error instanceof Error
      ? error.message
      : String(error);

/** The file name a download answer asks for (Content-Disposition), if any. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

/**
 * Download the latest platform build (GET /api/download/app). Fetched first, so a failure is shown
 * on this page instead of replacing it with the daemon's JSON error.
 */
export async function downloadLatestBuild(): Promise<string> {
  // Through apiFetch: the download needs the family token, which a plain link cannot send.
  const res = await apiFetch(forgeClient.url('downloadApp'), { credentials: 'include' });
  await assertOk(res);
  const name = attachmentName(res.headers.get('content-disposition')) ?? 'forge-platform.zip';
  const url = URL.createObjectURL(await res.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // The click has handed the blob to the browser's download; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}
