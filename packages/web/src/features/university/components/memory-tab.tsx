import { Brain, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { EmptyState } from '@/components/layout/page.tsx';
import { reasonOf, useMemoryCells } from '../queries.ts';

/** A cell's time as shown and as machine-readable (none when ts is not a valid time). */
const when = (ts: number): { text: string; iso?: string } => {
  const date = new Date(ts);
  return Number.isNaN(date.getTime())
    ? { text: String(ts) }
    : { text: date.toLocaleString([], { hour12: false }), iso: date.toISOString() };
};

/** /university/memory: the memory manager (spec §2.8), cells from GET /api/memory-cells. */
export function MemoryTab() {
  const cells = useMemoryCells();
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle>Memory manager</CardTitle>
          <CardDescription>What the brain remembers, one cell per key.</CardDescription>
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
              <thead>
                <tr className="border-b text-left text-xs text-muted-foreground">
                  <th scope="col" className="py-1.5 pr-3 font-medium">
                    Key
                  </th>
                  <th scope="col" className="py-1.5 pr-3 font-medium">
                    Value
                  </th>
                  <th scope="col" className="py-1.5 font-medium whitespace-nowrap">
                    Stored
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {cells.data.map((cell) => (
                  <tr key={cell.key} className="align-top">
                    <td className="py-1.5 pr-3 font-mono text-xs">{cell.key}</td>
                    <td className="py-1.5 pr-3 break-words whitespace-pre-wrap">{cell.value}</td>
                    <td className="py-1.5 text-xs whitespace-nowrap text-muted-foreground tabular-nums">
                      <time dateTime={when(cell.ts).iso}>{when(cell.ts).text}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
