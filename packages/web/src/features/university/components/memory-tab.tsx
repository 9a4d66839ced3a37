import { useState } from 'react';
import { Brain, Pencil, RotateCw, Trash2 } from 'lucide-react';
import type { MemoryCell } from '@forge/shared';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { EmptyState } from '@/components/layout/page.tsx';
import { reasonOf, useDeleteMemoryCell, useMemoryCells, useSetMemoryCell } from '../queries.ts';
import { ColumnHeads } from '@/components/column-heads.tsx';

/** A cell's time as shown and as machine-readable (none when ts is not a valid time). */
const when = (ts: number): { text: string; iso?: string } => {
  const date = new Date(ts);
  return Number.isNaN(date.getTime())
    ? { text: String(ts) }
    : { text: date.toLocaleString([], { hour12: false }), iso: date.toISOString() };
};

/** One cell: its value, edited in place (PUT), or deleted after a confirmation (DELETE). */
function MemoryRow({ cell }: { cell: MemoryCell }) {
  const { toast } = useToast();
  const save = useSetMemoryCell();
  const remove = useDeleteMemoryCell();
  const [editing, setEditing] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const stored = when(cell.ts);

  const submit = () => {
    if (editing === null) return;
    save.mutate(
      { key: cell.key, value: editing },
      {
        onSuccess: () => setEditing(null),
        onError: (error) =>
          toast({
            title: `Could not save ${cell.key}`,
            description: reasonOf(error),
            variant: 'destructive',
          }),
      },
    );
  };

  const confirmDelete = () =>
    remove.mutate(cell.key, {
      onSuccess: () => toast({ title: `Forgot ${cell.key}` }),
      onError: (error) =>
        toast({
          title: `Could not delete ${cell.key}`,
          description: reasonOf(error),
          variant: 'destructive',
        }),
    });

  return (
    <tr className="align-top">
      <td className="py-1.5 pr-3 font-mono text-xs">{cell.key}</td>
      <td className="py-1.5 pr-3 break-words whitespace-pre-wrap">
        {editing === null ? (
          cell.value
        ) : (
          <form
            aria-label={`Change ${cell.key}`}
            className="flex flex-col gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <Textarea
              aria-label={`Value of ${cell.key}`}
              value={editing}
              maxLength={10_000}
              onChange={(e) => setEditing(e.target.value)}
              autoFocus
            />
            <div className="flex gap-2">
              <Button type="submit" size="sm" disabled={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save'}
              </Button>
              <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </td>
      <td className="py-1.5 pr-3 text-xs whitespace-nowrap text-muted-foreground tabular-nums">
        <time dateTime={stored.iso}>{stored.text}</time>
      </td>
      <td className="py-1 text-right whitespace-nowrap">
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Edit ${cell.key}`}
          disabled={editing !== null}
          onClick={() => setEditing(cell.value)}
        >
          <Pencil />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${cell.key}`}
          disabled={remove.isPending}
          onClick={() => setAsking(true)}
        >
          <Trash2 />
        </Button>
        <ConfirmDialog
          open={asking}
          onOpenChange={setAsking}
          title={`Delete the memory cell ${cell.key}?`}
          action="Delete"
          onConfirm={confirmDelete}
        >
          The brain forgets this value. It cannot be brought back, only stored again.
        </ConfirmDialog>
      </td>
    </tr>
  );
}

/**
 * /university/memory: the memory manager (docs/product.md#other-screens), cells from GET /api/memory-cells.
 */
export function MemoryTab() {
  const cells = useMemoryCells();
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle>Memory manager</CardTitle>
          <CardDescription>
            What the brain remembers, one cell per key: edit a value or delete a cell.
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" disabled={cells.isFetching} onClick={() => void cells.refetch()}>
          <RotateCw />
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {cells.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-7 w-full" />
            ))}
          </div>
        ) : cells.isError ? (
          <div
            role="alert"
            className="flex flex-col items-start gap-1 rounded-md border border-error/40 px-3 py-2"
          >
            <p className="text-sm">Could not load the memory cells.</p>
            <p className="font-mono text-xs break-words text-error">{reasonOf(cells.error)}</p>
          </div>
        ) : cells.data.length === 0 ? (
          <EmptyState icon={Brain} title="No memory cells yet" className="py-8">
            Cells appear here as the brain stores what it learns in the brain chat.
          </EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <ColumnHeads
                className="text-left text-xs text-muted-foreground"
                cell="py-1.5"
                columns={[
                  { label: 'Key', className: 'pr-3' },
                  { label: 'Value', className: 'pr-3' },
                  { label: 'Stored', className: 'pr-3 whitespace-nowrap' },
                  { label: <span className="sr-only">Actions</span>, className: 'text-right' },
                ]}
              />
              <tbody className="divide-y">
                {cells.data.map((cell) => (
                  <MemoryRow key={cell.key} cell={cell} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
