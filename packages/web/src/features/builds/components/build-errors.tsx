import type { BuildError, ToolError } from '@forge/shared';
import { cn } from '@/lib/utils.ts';
import { PlaceLink } from './build-diagnosis.tsx';

/** The errors of a failure whose tools printed several (one alone is the first error line already), else []. */
export const listedErrors = (error: BuildError | null | undefined): ToolError[] =>
  error?.errors && Math.max(error.errorCount ?? 0, error.errors.length) > 1 ? error.errors : [];

/**
 * Every distinct error the failed step's tools printed, in the order they printed them: each with its
 * file:line:col (a click opens the file in the editor at that line), the tool's code and its message.
 * The primary one — the error the build's first line and diagnosis name — comes highlighted.
 */
export function BuildErrorList({
  error,
  canOpen,
  className,
}: {
  error: BuildError;
  canOpen: boolean;
  className?: string;
}) {
  const errors = listedErrors(error);
  if (errors.length === 0) return null;
  const count = Math.max(error.errorCount ?? 0, errors.length);
  const tools = [...new Set(errors.map((e) => e.tool))].join(', ');
  return (
    <div className={cn('flex flex-col gap-0.5', className)}>
      <p className="text-muted-foreground">
        {count} errors ({tools}){count > errors.length ? `, the first ${errors.length} listed` : ''}
      </p>
      <ol aria-label="Errors the tools printed" className="max-h-40 overflow-y-auto font-mono break-words">
        {errors.map((e, i) => (
          <li
            key={i}
            aria-current={e.primary ? 'true' : undefined}
            className={cn('rounded px-1', e.primary && 'bg-error/10 font-semibold text-error')}
          >
            {e.file ? (
              <PlaceLink
                place={{ file: e.file, line: e.line, column: e.column }}
                canOpen={canOpen}
                className="mr-1.5"
              />
            ) : null}
            {e.code ? <span className="mr-1.5 text-muted-foreground">{e.code}</span> : null}
            <span className={e.primary ? undefined : 'text-foreground'}>{e.message}</span>
            {e.primary ? <span className="sr-only"> (first error)</span> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
