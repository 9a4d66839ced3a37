import { lazy, Suspense, type ComponentProps } from 'react';

/**
 * RepairList (diffs, apply and undo) is only ever shown for a failed or repaired build: its code
 * loads then, not with the dashboard's first paint.
 */
const RepairList = lazy(() => import('./repair-list.tsx').then((m) => ({ default: m.RepairList })));

export function LazyRepairList(props: ComponentProps<typeof RepairList>) {
  return (
    <Suspense fallback={null}>
      <RepairList {...props} />
    </Suspense>
  );
}
