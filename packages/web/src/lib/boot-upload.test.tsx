import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UI_TEXT } from '@forge/shared/schema-free';
import { BOOT_STATUS_TEXT, type BootUpload, type BootUploads } from '../boot-protocol.ts';
import { useBootUpload } from './boot-upload.ts';

/** What the boot script leaves on window (src/boot.ts), driven by the test: a ZIP chosen before, or later. */
function bootUploads(first: BootUpload | null) {
  let chosen = first;
  let deliver: ((upload: BootUpload) => void) | null = null;
  const uploads: BootUploads = {
    adopt(next) {
      deliver = next;
      if (chosen) next(chosen);
      chosen = null;
      return () => {
        if (deliver === next) deliver = null;
      };
    },
  };
  return { host: { __forgeBootUploads: uploads }, choose: (upload: BootUpload) => deliver?.(upload) };
}

const zip = (name: string) =>
  new File([new Uint8Array([0x50, 0x4b, 5, 6])], name, { type: 'application/zip' });

describe('useBootUpload', () => {
  it('uploads the ZIP chosen in the first frame before the app rendered, with its rapid choice, once', () => {
    const file = zip('early.zip');
    const { host } = bootUploads({ file, rapid: true });
    const upload = vi.fn();

    const { rerender } = renderHook(() => useBootUpload(upload, host));
    rerender();

    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload).toHaveBeenCalledWith(file, { rapid: true });
  });

  it('uploads one chosen after the app rendered (a dialog still open), until the panel is gone', () => {
    const { host, choose } = bootUploads(null);
    const upload = vi.fn();
    const { unmount } = renderHook(() => useBootUpload(upload, host));
    expect(upload).not.toHaveBeenCalled();

    const late = zip('late.zip');
    choose({ file: late, rapid: false });
    expect(upload).toHaveBeenCalledWith(late, { rapid: false });

    unmount();
    choose({ file: zip('gone.zip'), rapid: false });
    expect(upload).toHaveBeenCalledTimes(1);
  });

  it('does nothing on a page without a first frame', () => {
    const upload = vi.fn();
    renderHook(() => useBootUpload(upload, {}));
    expect(upload).not.toHaveBeenCalled();
  });

  it("shows the app's own words for the connection in the first frame", () => {
    expect(BOOT_STATUS_TEXT).toEqual({ connected: UI_TEXT.connected, disconnected: UI_TEXT.disconnected });
  });
});
