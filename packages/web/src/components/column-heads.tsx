import type { ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

export interface Column {
  label: ReactNode;
  /** Classes of this column's heading beside the shared ones (alignment, wrapping). */
  className?: string;
}

/** A table's header row: one `th scope="col"` a column, sharing the classes of the table's cells. */
export function ColumnHeads({
  columns,
  cell,
  className,
}: {
  columns: readonly Column[];
  cell: string;
  className?: string;
}) {
  return (
    <thead className={className}>
      <tr className="border-b">
        {columns.map((column, i) => (
          <th key={i} scope="col" className={cn(cell, 'font-medium', column.className)}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
