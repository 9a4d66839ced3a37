import { useQuery } from '@tanstack/react-query';
import { ForgeHttpError, POLL_MS } from '@forge/shared';
import { assertOk, forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';

export { useExtensions, usePackagePlatform } from '@/features/extensions/queries.ts';

/** The memory manager's cells (spec §3: key, value, ts). */
export const useMemoryCells = () => useQuery(routeQuery('memoryCells'));

/** Fleet activity per category, polled every 5 s (spec §9). */
export const useBotActivity = () =>
  useQuery({ ...routeQuery('botStatus'), refetchInterval: POLL_MS.botStatus });

/** Why a call failed, as "status: the daemon's words" when it answered. */
export const reasonOf = (error: unknown): string =>
  error instanceof ForgeHttpError
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
  const res = await fetch(forgeClient.url('downloadApp'), { credentials: 'include' });
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
