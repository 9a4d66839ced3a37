import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Globe, Monitor, RotateCw, Smartphone, Tablet, type LucideIcon } from 'lucide-react';
import { useProject } from '@/lib/project-context.tsx';
import { routeQuery, routeQueryKey } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';

export type Viewport = 'mobile' | 'tablet' | 'desktop';

/**
 * docs/product.md#live-state: mobile, tablet, desktop (default desktop). Widths of a common phone and a
 * portrait tablet.
 */
export const VIEWPORTS: Record<Viewport, { label: string; width: string; icon: LucideIcon }> = {
  mobile: { label: 'Mobile', width: '375px', icon: Smartphone },
  tablet: { label: 'Tablet', width: '768px', icon: Tablet },
  desktop: { label: 'Desktop', width: '100%', icon: Monitor },
};
export const DEFAULT_VIEWPORT: Viewport = 'desktop';

/**
 * The preview runs on its own loopback origin (docs/pipeline.md "Preview"), never the daemon's. So
 * `allow-same-origin` only lets the app reach its own storage and API as a normal tab would; it
 * cannot touch this page or call the daemon (cross-origin, and the daemon has no CORS). Scripts and
 * forms are what a web app needs. Left out on purpose: top navigation (the app must not navigate the
 * workspace away) and popups (a previewed app opening windows is better tried in its own tab).
 */
export const PREVIEW_SANDBOX = 'allow-scripts allow-forms allow-same-origin';

/** How often a panel without a preview address asks again. */
export const PREVIEW_RETRY_MS = 3_000;

/** GET /api/preview/url?project= */
export const previewQuery = (project: string | null) =>
  routeQuery('previewUrl', { query: { project: project ?? undefined } });

/**
 * The live preview panel (docs/product.md#live-preview): the current project's preview in a frame, at three
 * viewport widths, refetched and reloaded as soon as a build of that project has its preview up (before its
 * tests end), and when one finishes.
 */
export function LivePreviewPanel({ className }: { className?: string }) {
  const { project } = useProject();
  const queryClient = useQueryClient();
  const [viewport, setViewport] = useState<Viewport>(DEFAULT_VIEWPORT);
  // Bumped when a build of the project is previewed: the frame reloads even if the address is unchanged.
  const [generation, setGeneration] = useState(0);
  const [loadedFrame, setLoadedFrame] = useState<string | null>(null);

  // Pushed events refetch it; while there is no address yet it is also asked every 3 s, so a
  // build-finished missed around a project switch (or a reconnect) never leaves the panel stuck.
  const preview = useQuery({
    ...previewQuery(project),
    refetchInterval: (query) => (query.state.data?.url || project === null ? false : PREVIEW_RETRY_MS),
  });
  const url = preview.data?.url ?? null;

  // The build whose preview-ready already reloaded the frame: its build-finished need not do it again.
  const previewed = useRef<string | null>(null);
  useSocketMessages((message) => {
    if (
      message.type !== 'preview-ready' &&
      message.type !== 'build-finished' &&
      message.type !== 'build_complete'
    )
      return;
    const about = message.type === 'build_complete' ? message.buildOutput.projectName : message.projectName;
    if (project !== null && about !== project) return;
    // Every project's preview query, not only this render's: the selection may be changing right now.
    void queryClient.invalidateQueries({ queryKey: routeQueryKey('previewUrl') });
    // The preview is up before its build ends (tests still run): show it at once, and reload the frame
    // once per build — on preview-ready, else on build-finished (build_complete comes with it).
    if (message.type === 'preview-ready') {
      previewed.current = message.buildId;
      setGeneration((g) => g + 1);
    } else if (message.type === 'build-finished' && previewed.current !== message.buildId) {
      setGeneration((g) => g + 1);
    }
  });

  const frameKey = url ? `${url}#${generation}` : null;
  const connected = frameKey !== null && loadedFrame === frameKey;
  const { width } = VIEWPORTS[viewport];

  return (
    <section
      aria-label="Live preview"
      className={cn('flex min-h-0 flex-col rounded-lg border bg-card text-card-foreground', className)}
    >
      <div className="flex flex-wrap items-center gap-2 border-b px-2 py-1.5">
        <div role="tablist" aria-label="Preview views" className="flex">
          <button
            type="button"
            role="tab"
            id="preview-tab-webview"
            aria-selected="true"
            aria-controls="preview-panel-webview"
            className="inline-flex h-7 items-center gap-1.5 rounded-md bg-secondary px-2.5 text-xs font-medium text-secondary-foreground"
          >
            <Globe aria-hidden="true" className="size-3.5" />
            Webview
          </button>
        </div>
        <div role="group" aria-label="Viewport" className="flex items-center gap-0.5">
          {(Object.keys(VIEWPORTS) as Viewport[]).map((v) => {
            const { label, icon: Icon } = VIEWPORTS[v];
            return (
              <Button
                key={v}
                variant={viewport === v ? 'secondary' : 'ghost'}
                size="icon"
                className="size-7"
                aria-label={label}
                aria-pressed={viewport === v}
                title={`${label} (${VIEWPORTS[v].width === '100%' ? 'full width' : VIEWPORTS[v].width})`}
                onClick={() => setViewport(v)}
              >
                <Icon />
              </Button>
            );
          })}
        </div>
        <span
          className="min-w-0 flex-1 truncate rounded-md bg-muted px-2 py-1 font-mono text-xs text-muted-foreground"
          title={url ?? undefined}
        >
          {url ?? 'No preview address yet'}
        </span>
        <span
          role="status"
          data-status={connected ? 'connected' : url ? 'connecting' : 'none'}
          className="inline-flex items-center gap-1.5 text-xs text-muted-foreground"
        >
          <span
            aria-hidden="true"
            className={cn(
              'size-2 rounded-full',
              connected ? 'bg-online' : url ? 'bg-pending' : 'bg-muted-foreground/50',
            )}
          />
          {connected ? 'Connected' : url ? 'Connecting…' : 'No preview'}
        </span>
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label="Reload preview"
          disabled={!url}
          onClick={() => setGeneration((g) => g + 1)}
        >
          <RotateCw />
        </Button>
        {url ? (
          <Button asChild variant="ghost" size="icon" className="size-7">
            <a href={url} target="_blank" rel="noopener noreferrer" aria-label="Open in new tab">
              <ExternalLink />
            </a>
          </Button>
        ) : (
          <Button variant="ghost" size="icon" className="size-7" aria-label="Open in new tab" disabled>
            <ExternalLink />
          </Button>
        )}
      </div>
      <div
        role="tabpanel"
        id="preview-panel-webview"
        aria-labelledby="preview-tab-webview"
        className="flex min-h-48 flex-1 justify-center overflow-auto bg-muted/30 p-2"
      >
        {url && frameKey ? (
          <div
            data-testid="preview-viewport"
            data-viewport={viewport}
            style={{ width, maxWidth: '100%' }}
            className="flex h-full min-h-48 flex-col overflow-hidden rounded-md border bg-white shadow-sm"
          >
            <iframe
              key={frameKey}
              src={url}
              title={`Preview of ${project ?? 'the project'}`}
              sandbox={PREVIEW_SANDBOX}
              referrerPolicy="no-referrer"
              className="size-full flex-1 border-0"
              onLoad={() => setLoadedFrame(frameKey)}
            />
          </div>
        ) : (
          <div className="flex flex-col items-center justify-center gap-1 text-center">
            <p className="text-sm font-medium">Live Preview Loading</p>
            <p className="max-w-xs text-xs text-muted-foreground">
              {preview.isError
                ? `Could not get the preview address: ${preview.error.message}`
                : project
                  ? `The preview of ${project} appears here once a build of it has output.`
                  : 'Upload a project ZIP; its preview appears here once it is built.'}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
