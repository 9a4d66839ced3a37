import { Stethoscope } from 'lucide-react';
import type { Diagnosis, DiagnosisCode } from '@forge/shared';
import { otherErrors } from '@forge/shared/schema-free';
import { useEditorActions } from '@/features/editor/use-editor-actions.ts';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';

/** What each diagnosis code is called on screen (the code itself stays in the title for searching). */
export const DIAGNOSIS_LABELS: Record<DiagnosisCode, string> = {
  MISSING_PACKAGE: 'Missing package',
  MISSING_FILE: 'Missing file',
  IMPORT_CASE_MISMATCH: 'Import case mismatch',
  SYNTAX_ERROR: 'Syntax error',
  TYPE_ERROR: 'Type error',
  LOCKFILE_OUT_OF_SYNC: 'Lockfile out of sync',
  PEER_DEPENDENCY_CONFLICT: 'Peer dependency conflict',
  MISSING_SCRIPT: 'Missing script',
  OUTPUT_MISSING: 'No build output',
  NETWORK_AT_BUILD: 'Network needed at build time',
  NODE_VERSION_MISMATCH: 'Node version mismatch',
  PACKAGE_MANAGER_MISSING: 'Tool missing',
  FOREIGN_NODE_MODULES: 'node_modules from another system',
  OUT_OF_MEMORY: 'Out of memory',
  TIMEOUT: 'Timed out',
  PORT_IN_USE: 'Port in use',
  UNKNOWN: 'Unknown cause',
  MISSING_ENV: 'Missing environment variable',
  PACKAGE_NOT_ON_REGISTRY: 'Not on the registry',
  MISMATCHED_PACKAGE_VERSIONS: 'Package versions apart',
  TOOLCHAIN_MISSING: 'Toolchain not installed',
  MODULE_FORMAT_MISMATCH: 'CommonJS run as ES module',
  RUNTIME_ERROR: 'Stopped on an error',
  MISSING_EXPORT: 'Export not found',
  INSTALL_SCRIPT_SKIPPED: 'Install script not run',
};

/** A place in a file: "src/App.tsx:12:5", "build.mjs:1", or just the file. */
export interface FilePlace {
  file: string;
  line?: number;
  column?: number;
}

export const formatPlace = ({ file, line, column }: FilePlace): string =>
  `${file}${line ? `:${line}${column ? `:${column}` : ''}` : ''}`;

/**
 * A file:line a click opens in the code area, the cursor on that line. Plain text when the file
 * belongs to another project than the one the editor works on (`canOpen` false).
 */
export function PlaceLink({
  place,
  canOpen,
  className,
}: {
  place: FilePlace;
  canOpen: boolean;
  className?: string;
}) {
  const { openFile } = useEditorActions();
  const text = formatPlace(place);
  if (!canOpen) return <span className={cn('font-mono font-semibold', className)}>{text}</span>;
  // Without a line, the top of the file (the editor still comes into view).
  const at = { line: place.line ?? 1, column: place.line ? place.column : undefined };
  return (
    <button
      type="button"
      className={cn(
        'font-mono font-semibold underline decoration-dotted underline-offset-2 hover:text-foreground',
        className,
      )}
      title={`Open ${place.file}${place.line ? ` at line ${place.line}` : ''} in the editor`}
      onClick={() => void openFile(place.file, at)}
    >
      {text}
    </button>
  );
}

/**
 * The failure's other errors, worded as the CLI and the TUI word them: the counts, then each error
 * with its place (a click opens it) and whether RepairBot repairs it in the same pass or it remains.
 */
function OtherErrors({ diagnosis, canOpen }: { diagnosis: Diagnosis; canOpen: boolean }) {
  const view = otherErrors(diagnosis);
  if (!view) return null;
  return (
    <section aria-label="Other errors" className="mt-1 flex flex-col gap-1 border-t border-border/60 pt-1">
      <p className="font-medium">{view.heading}</p>
      <ul className="flex flex-col gap-1">
        {view.listed.map(({ error, state, place }, i) => (
          <li
            key={`${i}-${place ?? ''}-${error.code}`}
            aria-label={`${state === 'repairable' ? 'Repairable' : 'Remains'}: ${place ? `${place} ` : ''}${error.summary}`}
            data-state={state}
            className="flex flex-wrap items-baseline gap-1.5 break-words"
          >
            <Badge variant={state === 'repairable' ? 'online' : 'outline'}>
              {state === 'repairable' ? 'repairable' : 'remains'}
            </Badge>
            {error.file ? (
              <PlaceLink
                place={{ file: error.file, line: error.line, column: error.column }}
                canOpen={canOpen}
              />
            ) : null}
            <span className="min-w-0">{error.summary}</span>
            <span className="text-[0.7rem] text-muted-foreground" title={error.code}>
              {DIAGNOSIS_LABELS[error.code] ?? error.code}
            </span>
          </li>
        ))}
      </ul>
      {view.more ? <p className="text-muted-foreground">{view.more}</p> : null}
    </section>
  );
}

/**
 * ScanBot's reading of a failed build: what went wrong in one sentence, where (a click opens the
 * file at that line), what to do about it, and every other error of the same failure.
 */
export function BuildDiagnosis({
  diagnosis,
  canOpen,
  className,
}: {
  diagnosis: Diagnosis;
  canOpen: boolean;
  className?: string;
}) {
  return (
    <div role="group" aria-label="Diagnosis" className={cn('flex flex-col gap-1 text-xs', className)}>
      <p className="flex flex-wrap items-center gap-1.5">
        <Stethoscope aria-hidden="true" className="size-3.5 shrink-0 text-error" />
        <Badge variant="error" title={diagnosis.code}>
          {DIAGNOSIS_LABELS[diagnosis.code] ?? diagnosis.code}
        </Badge>
        <span className="text-[0.7rem] text-muted-foreground">ScanBot</span>
      </p>
      <p className="text-sm break-words" aria-label="Diagnosis summary">
        {diagnosis.summary}
      </p>
      {diagnosis.file ? (
        <p className="break-words">
          <span className="text-muted-foreground">At </span>
          <PlaceLink
            place={{ file: diagnosis.file, line: diagnosis.line, column: diagnosis.column }}
            canOpen={canOpen}
          />
        </p>
      ) : null}
      {diagnosis.suggestion ? (
        <p className="break-words text-pending" aria-label="Suggestion">
          {diagnosis.suggestion}
        </p>
      ) : null}
      <OtherErrors diagnosis={diagnosis} canOpen={canOpen} />
    </div>
  );
}
