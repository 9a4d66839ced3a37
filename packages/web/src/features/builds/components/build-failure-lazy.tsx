import { lazy, Suspense, type ComponentProps } from 'react';
import { showsFailure } from '@/features/builds/build-state.ts';

/**
 * BuildFailure (the diagnosis, the error list and its dialog) is only ever shown for a build that
 * stopped on an error: its code loads then, not with the dashboard's first paint.
 */
const BuildFailure = lazy(() => import('./build-failure.tsx').then((m) => ({ default: m.BuildFailure })));

export function LazyBuildFailure(props: ComponentProps<typeof BuildFailure>) {
  if (!showsFailure(props.build)) return null;
  return (
    <Suspense fallback={null}>
      <BuildFailure {...props} />
    </Suspense>
  );
}
