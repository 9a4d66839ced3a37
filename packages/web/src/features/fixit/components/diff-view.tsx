import { useMemo } from 'react';
import { cn } from '@/lib/utils.ts';
import { parseUnifiedDiff, type DiffLineKind } from '../diff.ts';

const ROW: Record<DiffLineKind, string> = {
  file: 'bg-muted font-semibold text-foreground',
  hunk: 'bg-muted/50 text-muted-foreground',
  add: 'bg-online/10 text-online',
  remove: 'bg-error/10 text-error',
  context: 'text-foreground/80',
  note: 'text-muted-foreground italic',
};

const MARK: Record<DiffLineKind, string> = {
  file: '',
  hunk: '',
  add: '+',
  remove: '-',
  context: ' ',
  note: '',
};

/**
 * A unified diff as a reader wants it: monospace, old and new line numbers, added lines green and
 * removed red (with their +/- kept, so the difference is not told by colour alone), scrolling
 * inside its own box.
 */
export function DiffView({ diff, label, className }: { diff: string; label: string; className?: string }) {
  const lines = useMemo(() => parseUnifiedDiff(diff), [diff]);
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn(
        'max-h-56 overflow-auto rounded-md border bg-background font-mono text-[0.7rem] leading-4 outline-none focus-visible:ring-2 focus-visible:ring-ring/60',
        className,
      )}
    >
      <table className="w-full border-collapse">
        <tbody>
          {lines.map((line, i) => (
            <tr key={i} data-kind={line.kind} className={ROW[line.kind]}>
              {line.kind === 'file' || line.kind === 'hunk' || line.kind === 'note' ? (
                <td colSpan={4} className="px-2 py-0.5 whitespace-pre">
                  {line.text}
                </td>
              ) : (
                <>
                  <td className="w-8 pr-1 pl-2 text-right align-top text-muted-foreground/70 tabular-nums select-none">
                    {line.oldLine ?? ''}
                  </td>
                  <td className="w-8 pr-1 text-right align-top text-muted-foreground/70 tabular-nums select-none">
                    {line.newLine ?? ''}
                  </td>
                  <td className="w-3 text-center align-top select-none" aria-hidden="true">
                    {MARK[line.kind]}
                  </td>
                  <td className="pr-2 whitespace-pre">
                    {line.kind === 'add' ? <span className="sr-only">added: </span> : null}
                    {line.kind === 'remove' ? <span className="sr-only">removed: </span> : null}
                    {line.text}
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
