import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import {
  CircleAlert,
  CircleCheck,
  ExternalLink,
  LoaderCircle,
  Package,
  Puzzle,
  Trash2,
  Upload,
  X,
} from 'lucide-react';
import { Link } from 'react-router';
import type { Extension } from '@forge/shared';
import { isZipName } from '@forge/shared/schema-free';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDownloadPlatform } from '@/components/layout/download-platform-link.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import {
  errorMessage,
  installedLine,
  rolledBackExtensionLine,
  useExtensions,
  useInstallExtension,
  useRemoveExtension,
  useRollbackExtension,
} from '../queries.ts';
import { IntegratedApps } from './integrated-apps.tsx';
import { useRepackage } from './package-button.tsx';
import { RollbackButton, type BannerMessage } from './rollback-button.tsx';

type Banner = BannerMessage | null;

/** Back to the version kept before the last upgrade; the daemon keeps the one it leaves in turn. */
function ExtensionRollback({
  extension,
  previousVersion,
  onRolledBack,
}: {
  extension: Extension;
  previousVersion: string;
  onRolledBack: (banner: Banner) => void;
}) {
  const rollback = useRollbackExtension();
  const rollBack = () =>
    rollback.mutate(extension.name, {
      onSuccess: (answer) => onRolledBack({ kind: 'success', text: rolledBackExtensionLine(answer) }),
      onError: (error) => onRolledBack({ kind: 'error', text: errorMessage(error) }),
    });
  return (
    <RollbackButton
      target={previousVersion}
      subject={extension.displayName}
      pending={rollback.isPending}
      onClick={rollBack}
    />
  );
}

/** Remove, after "Are you sure?": an uninstalled extension's route stops working at once. */
function RemoveButton({
  extension,
  onRemoved,
}: {
  extension: Extension;
  onRemoved: (banner: Banner) => void;
}) {
  const remove = useRemoveExtension();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    remove.mutate(extension.name, {
      onSuccess: () => onRemoved({ kind: 'success', text: `Removed ${extension.displayName}.` }),
      onError: (error) => onRemoved({ kind: 'error', text: errorMessage(error) }),
    });
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="size-6 text-muted-foreground hover:text-error"
        aria-label={`Remove ${extension.displayName}`}
        disabled={remove.isPending}
        onClick={() => setAsking(true)}
      >
        {remove.isPending ? (
          <LoaderCircle aria-hidden="true" className="animate-spin" />
        ) : (
          <Trash2 aria-hidden="true" />
        )}
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Are you sure you want to remove ${extension.displayName}?`}
        action="Remove"
        onConfirm={confirm}
      >
        The extension is uninstalled and <span className="font-mono">{extension.route}</span> stops working.
        Installing its ZIP again brings it back.
      </ConfirmDialog>
    </>
  );
}

function InstalledList({ onBanner }: { onBanner: (banner: Banner) => void }) {
  const { data, isPending, isError, error } = useExtensions();
  if (isPending) {
    return (
      <div className="flex flex-col gap-1.5">
        <Skeleton className="h-6 w-full" />
        <Skeleton className="h-6 w-full" />
      </div>
    );
  }
  if (isError) {
    return <p className="text-muted-foreground">Installed extensions unavailable: {errorMessage(error)}</p>;
  }
  if (data.length === 0) return <p className="text-muted-foreground">No extensions installed.</p>;
  return (
    <ul className="flex flex-col gap-1" aria-label="Installed extensions">
      {data.map((extension) => (
        <li key={extension.name} className="flex flex-col gap-1">
          <div className="flex min-w-0 items-center gap-2">
            <Puzzle aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
            <span className="min-w-0 flex-1" title={extension.description || undefined}>
              <span className="block truncate text-foreground">
                {extension.displayName}
                {extension.version ? (
                  <span className="ml-1 font-mono text-muted-foreground">v{extension.version}</span>
                ) : null}
              </span>
              <span className="block truncate font-mono text-muted-foreground">{extension.route}</span>
            </span>
            <RemoveButton extension={extension} onRemoved={onBanner} />
          </div>
          {/* The actions on a line of their own: the right column is 200-400 px wide. */}
          <div className="flex flex-wrap items-center gap-1 pl-5.5">
            <Button asChild variant="outline" size="sm" className="h-6 px-2">
              {/* Its route in the workspace, where the router frames it (features/dynamic-routes). */}
              <Link to={extension.route} aria-label={`Open ${extension.displayName}`}>
                Open
                <ExternalLink aria-hidden="true" className="size-3" />
              </Link>
            </Button>
            {extension.previousVersion ? (
              <ExtensionRollback
                extension={extension}
                previousVersion={extension.previousVersion}
                onRolledBack={onBanner}
              />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

function RepackageCard() {
  const { run, pending, status } = useRepackage();
  // A click downloads with the family token (a plain link would be refused); still a link to read.
  const download = useDownloadPlatform();
  return (
    <section
      aria-label="Repackage Platform"
      className="flex flex-col gap-2 rounded-md border bg-muted/40 p-2"
    >
      <div className="flex items-center gap-1.5 font-medium">
        <Package aria-hidden="true" className="size-3.5 text-muted-foreground" />
        Repackage Platform
      </div>
      <p className="text-muted-foreground">
        Rebuild the Forge installer with the installed extensions; it downloads from{' '}
        <a
          className="font-mono underline-offset-2 hover:underline"
          href={download.href}
          download
          onClick={download.onClick}
        >
          /api/download/app
        </a>
        .
      </p>
      {status ? <p className="text-muted-foreground">Last answer: {status}</p> : null}
      <Button size="sm" variant="secondary" onClick={run} disabled={pending} aria-busy={pending || undefined}>
        {pending ? (
          <LoaderCircle aria-hidden="true" className="animate-spin" />
        ) : (
          <Package aria-hidden="true" />
        )}
        Repackage Platform
      </Button>
    </section>
  );
}

/**
 * The extension manager (docs/product.md#dashboard-widgets): drop or browse for a ZIP (anything else is
 * silently ignored), install it (pending, then a success or failure banner that shows the error message), the
 * installed list with its version, an Open button (its route in the workspace), a rollback to the kept
 * previous version when there is one, and Remove (confirmed first) each; then the integrated apps (with their
 * own rollback to the previous build) and the Repackage Platform card.
 */
export function ExtensionManager() {
  const install = useInstallExtension();
  const input = useRef<HTMLInputElement>(null);
  const [banner, setBanner] = useState<Banner>(null);
  const [over, setOver] = useState(false);
  const [pendingName, setPendingName] = useState<string | null>(null);

  const installFile = (file: File | undefined) => {
    // docs/product.md#dashboard-widgets, docs/product.md#validation: an extension is a .zip; anything else is
    // silently ignored.
    if (!file || !isZipName(file.name) || install.isPending) return;
    setBanner(null);
    setPendingName(file.name);
    install.mutate(file, {
      onSuccess: (answer) => setBanner({ kind: 'success', text: installedLine(answer) }),
      onError: (error) => setBanner({ kind: 'error', text: errorMessage(error) }),
      onSettled: () => setPendingName(null),
    });
  };

  // The dashboard takes any dropped ZIP as a project; drops here are extensions instead.
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setOver(false);
    installFile(Array.from(event.dataTransfer.files).find((f) => isZipName(f.name)));
  };
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    installFile(file);
  };

  return (
    <Card className="gap-0">
      <CardHeader className="px-3 pt-3">
        <CardTitle className="flex items-center gap-1.5">
          <Puzzle aria-hidden="true" className="size-4 text-muted-foreground" />
          Extensions
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 px-3 py-3 text-xs">
        <div
          role="group"
          aria-label="Extension upload"
          data-drop-scope="extension"
          onDragEnter={onDragOver}
          onDragOver={onDragOver}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          className={cn(
            'relative flex flex-col items-center gap-2 rounded-md border border-dashed px-2 py-3 text-center text-muted-foreground transition-colors',
            // Above the dashboard's drop veil, so extension ZIPs still land here.
            'group-data-[dragging]/drop:z-50 group-data-[dragging]/drop:bg-popover',
            over && 'border-brand bg-brand/10 text-foreground',
          )}
        >
          {pendingName ? (
            <p className="flex items-center gap-1.5" aria-live="polite">
              <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" />
              Installing <span className="font-mono">{pendingName}</span>…
            </p>
          ) : (
            <p>Drop an extension ZIP here, or</p>
          )}
          <Button
            size="sm"
            variant="outline"
            onClick={() => input.current?.click()}
            disabled={install.isPending}
          >
            <Upload aria-hidden="true" />
            Browse…
          </Button>
          <input
            ref={input}
            type="file"
            accept=".zip,application/zip,application/x-zip-compressed"
            aria-label="Extension ZIP file"
            className="hidden"
            onChange={onChange}
          />
        </div>
        {banner ? (
          <div
            role={banner.kind === 'error' ? 'alert' : 'status'}
            className={cn(
              'flex items-start gap-2 rounded-md border px-2 py-1.5',
              banner.kind === 'error' ? 'border-error/40 bg-error/10' : 'border-online/40 bg-online/10',
            )}
          >
            {banner.kind === 'error' ? (
              <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0 text-error" />
            ) : (
              <CircleCheck aria-hidden="true" className="mt-px size-3.5 shrink-0 text-online" />
            )}
            <span className="min-w-0 flex-1 text-foreground">{banner.text}</span>
            <button
              type="button"
              aria-label="Dismiss"
              onClick={() => setBanner(null)}
              className="rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/60"
            >
              <X className="size-3.5" />
            </button>
          </div>
        ) : null}
        <InstalledList onBanner={setBanner} />
        <IntegratedApps onBanner={setBanner} />
        <RepackageCard />
      </CardContent>
    </Card>
  );
}
