import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ChevronDown, Download, FileArchive, GitMerge, HardDriveDownload } from 'lucide-react';
import type { BuildOutput } from '@forge/shared';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { projectZipName } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { BUILD_COMPLETE_EVENT, useAppendLog } from '@/lib/live-store.ts';
import { Button } from '@/components/ui/button.tsx';
import { ToastAction } from '@/components/ui/toast.tsx';
import { useToast, type ToastInput } from '@/components/ui/use-toast.tsx';
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

/** The calm line shown in the dialog when an action fails; the details go to the log and a notice. */
export function failureLine(action: Action): string {
  return `${ACTION_NAMES[action]} did not go through. Details are in the FixIt Console.`;
}

/** The daemon's own sentence, not its JSON body: logs and notices are read by people. */
export function daemonMessage(error: unknown): string {
  return isForgeHttpError(error)
    ? error.serverMessage || `${error.status}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
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

/** What a finished action says: the dialog's line, and optionally a notice (with an action). */
interface Outcome {
  line: string;
  notice?: ToastInput;
}

/**
 * The build-complete dialog (docs/product.md#dashboard-widgets): opens on the window `build_complete` event
 * (raised by the live store when the daemon reports a build output) and offers Integrate and a ZIP menu (Save
 * to File, Download). Integrate publishes the build at its own route and offers to open it there; Save to
 * File says where the ZIP was written. docs/product.md#error-texts: integrate, save and download failures are
 * only logged — here into the FixIt Console — and, beyond that, the daemon's reason is also shown in a
 * notice, so the click is never met with silence.
 */
export function BuildCompleteDialog() {
  const [output, setOutput] = useState<BuildOutput | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<Action | null>(null);
  const [line, setLine] = useState<{ text: string; failed: boolean } | null>(null);
  const appendLog = useAppendLog();
  const { toast } = useToast();
  const navigate = useNavigate();

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

  const run = async (action: Action, call: (out: BuildOutput) => Promise<Outcome>) => {
    if (!output || busy) return;
    setBusy(action);
    setLine(null);
    try {
      const outcome = await call(output);
      setLine({ text: outcome.line, failed: false });
      if (outcome.notice) toast(outcome.notice);
    } catch (error) {
      const message = daemonMessage(error);
      console.warn(`[forge] ${action} of ${output.projectName} failed`, error);
      appendLog({
        level: 'error',
        message: `${ACTION_NAMES[action]} of ${output.projectName} failed: ${message}`,
      });
      setLine({ text: failureLine(action), failed: true });
      toast({
        variant: 'destructive',
        title: `${ACTION_NAMES[action]} of ${output.projectName} failed`,
        description: message,
      });
    } finally {
      setBusy(null);
    }
  };

  const openRoute = (path: string) => {
    setOpen(false);
    void navigate(path);
  };

  const integrate = () =>
    run('integrate', async ({ projectName, buildPath, files }) => {
      const answer = await forgeClient.request('integrate', { body: { projectName, buildPath, files } });
      const text = answer.text || `${projectName} integrated.`;
      const path = answer.path;
      return {
        line: text,
        notice: {
          title: text,
          description: path ? <span className="font-mono">{path}</span> : undefined,
          action: path ? (
            <ToastAction altText={`Open ${projectName} at ${path}`} onClick={() => openRoute(path)}>
              Open
            </ToastAction>
          ) : undefined,
        },
      };
    });
  const saveToFile = () =>
    run('save', async ({ projectName, buildPath }) => {
      const answer = await forgeClient.request('saveProject', { body: { projectName, buildPath } });
      const text = answer.text || `${projectName} saved.`;
      const file = answer.file && !text.includes(answer.file) ? answer.file : undefined;
      return {
        line: text,
        notice: { title: text, description: file ? <span className="font-mono">{file}</span> : undefined },
      };
    });
  const download = () =>
    run('download', async ({ projectName }) => {
      const bytes = await forgeClient.request('downloadArtifact', { params: { name: projectName } });
      const fileName = projectZipName(projectName);
      saveBytes(bytes, fileName);
      return { line: `Downloading ${fileName}.` };
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
