import { useEffect, useState } from 'react';
import { ChevronDown, Download, FileArchive, GitMerge, HardDriveDownload } from 'lucide-react';
import { ForgeHttpError, projectZipName, type BuildOutput } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { BUILD_COMPLETE_EVENT, useAppendLog } from '@/lib/live-store.ts';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';

export const BUILD_COMPLETE_TITLE = 'Build Complete - What do you want to do with this project?';

type Action = 'integrate' | 'save' | 'download';

const ACTION_NAMES: Record<Action, string> = {
  integrate: 'Integration',
  save: 'Saving to a file',
  download: 'The download',
};

/** How many built files the dialog lists before "and N more". */
const FILES_SHOWN = 5;

/** The calm line shown in the dialog when an action fails; the details go to the log. */
export function failureLine(action: Action, error: unknown): string {
  const notBuilt = error instanceof ForgeHttpError && error.code === 'NOT_IMPLEMENTED';
  return notBuilt
    ? `${ACTION_NAMES[action]} is not available in this Forge yet. Details are in the FixIt Console.`
    : `${ACTION_NAMES[action]} did not go through. Details are in the FixIt Console.`;
}

function saveBytes(bytes: Uint8Array, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The build-complete dialog (spec §2.7): opens on the window `build_complete` event (raised by the
 * live store when the daemon reports a build output) and offers Integrate and a ZIP menu (Save to
 * File, Download). Spec §8: integrate, save and download failures are only logged — here into the
 * FixIt Console, with one calm line in the dialog so the click is not met with silence.
 */
export function BuildCompleteDialog() {
  const [output, setOutput] = useState<BuildOutput | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<Action | null>(null);
  const [line, setLine] = useState<{ text: string; failed: boolean } | null>(null);
  const appendLog = useAppendLog();

  useEffect(() => {
    const onComplete = (event: Event) => {
      const detail = (event as CustomEvent<BuildOutput>).detail;
      if (!detail?.projectName) return;
      setOutput(detail);
      setLine(null);
      setOpen(true);
    };
    window.addEventListener(BUILD_COMPLETE_EVENT, onComplete);
    return () => window.removeEventListener(BUILD_COMPLETE_EVENT, onComplete);
  }, []);

  const run = async (action: Action, call: (out: BuildOutput) => Promise<string>) => {
    if (!output || busy) return;
    setBusy(action);
    setLine(null);
    try {
      setLine({ text: await call(output), failed: false });
    } catch (error) {
      // The daemon's own sentence, not its JSON body: the log is read by people.
      const message =
        error instanceof ForgeHttpError
          ? `${error.status}: ${error.serverMessage}`
          : error instanceof Error
            ? error.message
            : String(error);
      console.warn(`[forge] ${action} of ${output.projectName} failed`, error);
      appendLog({
        level: 'error',
        message: `${ACTION_NAMES[action]} of ${output.projectName} failed: ${message}`,
      });
      setLine({ text: failureLine(action, error), failed: true });
    } finally {
      setBusy(null);
    }
  };

  const integrate = () =>
    run('integrate', async ({ projectName, buildPath, files }) => {
      const answer = await forgeClient.request('integrate', { body: { projectName, buildPath, files } });
      return answer.text || `${projectName} integrated.`;
    });
  const saveToFile = () =>
    run('save', async ({ projectName, buildPath }) => {
      const answer = await forgeClient.request('saveProject', { body: { projectName, buildPath } });
      return answer.text || `${projectName} saved.`;
    });
  const download = () =>
    run('download', async ({ projectName }) => {
      const bytes = await forgeClient.request('downloadArtifact', { params: { name: projectName } });
      const fileName = projectZipName(projectName);
      saveBytes(bytes, fileName);
      return `Downloading ${fileName}.`;
    });

  const files = output?.files ?? [];
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{BUILD_COMPLETE_TITLE}</DialogTitle>
          <DialogDescription>
            {output ? (
              <>
                <span className="font-medium text-foreground">{output.projectName}</span> built{' '}
                {files.length === 1 ? '1 file' : `${files.length} files`}.
              </>
            ) : null}
          </DialogDescription>
        </DialogHeader>
        {files.length > 0 ? (
          <ul aria-label="Built files" className="rounded-md bg-muted/60 px-3 py-2 font-mono text-xs">
            {files.slice(0, FILES_SHOWN).map((file) => (
              <li key={file} className="truncate">
                {file}
              </li>
            ))}
            {files.length > FILES_SHOWN ? (
              <li className="text-muted-foreground">and {files.length - FILES_SHOWN} more</li>
            ) : null}
          </ul>
        ) : null}
        {line ? (
          <p role="status" className={line.failed ? 'text-sm text-muted-foreground' : 'text-sm text-online'}>
            {line.text}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="ghost" onClick={() => setOpen(false)}>
            Not now
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" disabled={busy !== null}>
                <FileArchive />
                ZIP
                <ChevronDown className="size-3.5" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => void saveToFile()}>
                <HardDriveDownload />
                Save to File
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => void download()}>
                <Download />
                Download
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
          <Button onClick={() => void integrate()} disabled={busy !== null}>
            <GitMerge />
            {busy === 'integrate' ? 'Integrating…' : 'Integrate'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
