import { useRef, type ChangeEvent } from 'react';
import { FileArchive, LoaderCircle, Upload, X, Zap } from 'lucide-react';
import { MAX_UPLOAD_LABEL } from '@forge/shared/schema-free';
import { useProject } from '@/lib/project-context.tsx';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Mono } from '@/components/layout/page.tsx';
import { useProjectUpload } from '../upload-context.tsx';

/**
 * Upload Project and Upload and Rapid Build (docs/product.md#dashboard, docs/product.md#dashboard-widgets): a
 * file input behind two buttons, a drop area (the whole dashboard accepts a dropped ZIP), progress while
 * sending, and the last refusal in place. With no project yet it is the dashboard's empty state.
 */
export function UploadPanel({ className }: { className?: string }) {
  const { project, projects } = useProject();
  // The starter project is there before anything was uploaded; until a build exists, this panel is
  // the dashboard's empty state.
  const uploaded = projects.some((p) => p.name === project && p.lastBuild !== null);
  const { state, lastError, upload, cancel } = useProjectUpload();
  const input = useRef<HTMLInputElement>(null);
  const rapid = useRef(false);
  const busy = state.phase !== 'idle';

  const choose = (asRapid: boolean) => {
    rapid.current = asRapid;
    input.current?.click();
  };
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Reset, so choosing the same file again still counts as a change.
    event.target.value = '';
    if (file) upload(file, { rapid: rapid.current });
    rapid.current = false;
  };

  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <section
        aria-label="Project upload"
        aria-busy={busy || undefined}
        className={cn(
          'flex flex-col gap-2 rounded-lg border border-dashed px-3 py-3 text-xs text-muted-foreground',
          !uploaded && !busy && 'items-center py-5 text-center',
        )}
      >
        {state.phase === 'idle' ? (
          uploaded ? (
            <p className="flex items-start gap-2">
              <FileArchive aria-hidden="true" className="mt-px size-4 shrink-0" />
              <span>
                Drop a ZIP anywhere here to replace{' '}
                <span className="font-medium text-foreground">{project}</span> or upload another project.
              </span>
            </p>
          ) : (
            <>
              <FileArchive aria-hidden="true" className="size-6" />
              <h2 className="text-sm font-medium text-foreground">No project uploaded yet</h2>
              <p>
                Drop a project ZIP here or run <Mono className="whitespace-nowrap">forge upload app.zip</Mono>
              </p>
              <p>ZIP archives up to {MAX_UPLOAD_LABEL}.</p>
            </>
          )
        ) : (
          <div className="flex flex-col gap-1.5" aria-live="polite">
            <div className="flex items-center gap-2">
              <LoaderCircle aria-hidden="true" className="size-3.5 shrink-0 animate-spin" />
              <span className="min-w-0 flex-1 truncate font-mono text-foreground" title={state.fileName}>
                {state.fileName}
              </span>
              {state.phase === 'uploading' ? (
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-6"
                  aria-label="Cancel upload"
                  onClick={cancel}
                >
                  <X />
                </Button>
              ) : null}
            </div>
            <Progress
              value={state.phase === 'uploading' ? Math.round(state.progress * 100) : null}
              aria-label={`Uploading ${state.fileName}`}
            />
            <span>
              {state.phase === 'uploading'
                ? `Uploading… ${Math.round(state.progress * 100)}%`
                : state.rapid
                  ? 'Extracting for a rapid build…'
                  : 'Extracting and planning…'}
            </span>
          </div>
        )}
        {lastError && !busy ? (
          <p role="alert" className="text-left text-error">
            <span className="font-medium">{lastError.title}</span>
            {lastError.description ? <span className="block">{lastError.description}</span> : null}
          </p>
        ) : null}
      </section>
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip,application/x-zip-compressed"
        aria-label="Project ZIP file"
        className="hidden"
        onChange={onChange}
      />
      <Button size="sm" className="w-full" onClick={() => choose(false)} disabled={busy}>
        <Upload aria-hidden="true" />
        Upload Project
      </Button>
      <Button variant="outline" size="sm" className="w-full" onClick={() => choose(true)} disabled={busy}>
        <Zap aria-hidden="true" />
        Upload and Rapid Build
      </Button>
    </div>
  );
}
