import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UploadResult } from '@forge/shared';
import { checkUploadFile } from '@forge/shared/schema-free';
import { projectsQueryKey, useProject } from '@/lib/project-context.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { useBootUpload } from '@/lib/boot-upload.ts';
import { sendProjectUpload, type UploadOptions } from './upload-request.ts';
import { uploadErrorNotice, type Notice } from './validate.ts';

export type UploadState =
  | { phase: 'idle' }
  /** Bytes are on their way; `progress` is 0..1. */
  | { phase: 'uploading'; fileName: string; rapid: boolean; progress: number }
  /** Everything is sent; the daemon is extracting and planning before it answers. */
  | { phase: 'processing'; fileName: string; rapid: boolean };

interface UploadContextValue {
  state: UploadState;
  /** The last refusal, shown in place until the next attempt. */
  lastError: Notice | null;
  /** Validate and send a project ZIP. Ignored while another upload runs. */
  upload: (file: File, options?: { rapid?: boolean }) => void;
  cancel: () => void;
}

const UploadContext = createContext<UploadContextValue | null>(null);

/** What the user is told once the daemon has the project: building now, or waiting for its turn. */
export function uploadedNotice(result: UploadResult, rapid: boolean): Notice {
  const name = result.projectName;
  if (result.status === 'queued') {
    return {
      title: rapid ? `Rapid build of ${name} queued` : `Uploaded ${name}`,
      description: 'Its build waits for its turn and starts as soon as a build slot is free.',
    };
  }
  return {
    title: rapid ? `Rapid build of ${name} started` : `Uploaded ${name}`,
    description:
      result.builderBots.length > 0
        ? `Building with ${result.builderBots.join(', ')}.`
        : 'The bots are building it.',
  };
}

export type UploadTransport = (file: File, options: UploadOptions) => Promise<UploadResult>;

/**
 * One project upload at a time for the whole dashboard: the right column's buttons and a ZIP
 * dropped anywhere on the dashboard go through here.
 */
export function UploadProvider({
  children,
  send = sendProjectUpload,
}: {
  children: ReactNode;
  /** Replaces the real request (tests). */
  send?: UploadTransport;
}) {
  const { toast } = useToast();
  const { select } = useProject();
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const [lastError, setLastError] = useState<Notice | null>(null);
  const controller = useRef<AbortController | null>(null);

  const fail = useCallback(
    (notice: Notice) => {
      setLastError(notice);
      toast({ variant: 'destructive', ...notice });
    },
    [toast],
  );

  const upload = useCallback(
    (file: File, { rapid = false }: { rapid?: boolean } = {}) => {
      if (controller.current) return;
      // docs/product.md#validation, checked before a byte is sent (the daemon checks the same again).
      const refusal = checkUploadFile(file);
      if (refusal) {
        fail({ title: refusal.title, description: refusal.hint });
        return;
      }
      const abort = new AbortController();
      controller.current = abort;
      setLastError(null);
      setState({ phase: 'uploading', fileName: file.name, rapid, progress: 0 });
      send(file, {
        rapid,
        signal: abort.signal,
        onProgress: (progress) =>
          setState(
            progress >= 1
              ? { phase: 'processing', fileName: file.name, rapid }
              : { phase: 'uploading', fileName: file.name, rapid, progress },
          ),
      })
        .then((result) => {
          select(result.projectName);
          void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
          toast(uploadedNotice(result, rapid));
        })
        .catch((error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          fail(uploadErrorNotice(error));
        })
        .finally(() => {
          controller.current = null;
          setState({ phase: 'idle' });
        });
    },
    [fail, queryClient, select, send, toast],
  );

  // A ZIP chosen in the page's first frame, before this panel was there.
  useBootUpload(upload);

  const cancel = useCallback(() => controller.current?.abort(), []);

  const value = useMemo(() => ({ state, lastError, upload, cancel }), [state, lastError, upload, cancel]);
  return <UploadContext.Provider value={value}>{children}</UploadContext.Provider>;
}

export function useProjectUpload(): UploadContextValue {
  const value = useContext(UploadContext);
  if (!value) throw new Error('useProjectUpload must be used inside <UploadProvider>');
  return value;
}
