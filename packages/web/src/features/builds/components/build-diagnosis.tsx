import { Stethoscope } from 'lucide-react';
import type { Diagnosis, DiagnosisCode } from '@forge/shared';
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
  MISSING_EXPORT: 'Export not found',
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
 * ScanBot's reading of a failed build: what went wrong in one sentence, where (a click opens the
 * file at that line), and what to do about it.
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
    </div>
  );
}
