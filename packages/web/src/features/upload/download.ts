import { assertOk } from '@/lib/api.ts';

/**
 * Start a browser download of `url`, but only after the daemon has said it can serve it: a plain
 * link to a failing route would leave the user with a "failed download" entry and no reason. The
 * check is a GET that is abandoned as soon as the status line arrives (the browser then downloads
 * it itself, streaming to disk instead of through page memory). Rejects with the daemon's error.
 */
export async function checkedDownload(url: string): Promise<void> {
  const controller = new AbortController();
  const res = await fetch(url, { credentials: 'include', signal: controller.signal });
  await assertOk(res);
  controller.abort();
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
