import { useEffect } from 'react';
import type { BootUploads } from '../boot-protocol.ts';

/**
 * Uploads the project ZIP chosen or dropped in the page's first frame (src/shell.html, kept by the
 * boot script) as if it had been chosen in the app's own upload panel: the one chosen before the app
 * rendered at once, any later one (a file dialog still open when the app replaced the frame) as it
 * comes. Nothing when the page had no first frame (another screen, dev, tests).
 */
export function useBootUpload(
  upload: (file: File, options: { rapid: boolean }) => void,
  host: { __forgeBootUploads?: BootUploads } = window,
): void {
  useEffect(
    () => host.__forgeBootUploads?.adopt(({ file, rapid }) => upload(file, { rapid })),
    [upload, host],
  );
}
