import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// waitFor / findBy wait on the state they name, never on time; their 1 s default is shorter than a
// busy 2-core CI machine can take to answer, render and refetch (a brain-chat test timed out at
// 1,021 ms there). Waiting longer costs nothing when the state comes at once.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
