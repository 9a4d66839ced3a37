import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
// BrowserRouter from 'react-router' (not 'react-router/dom'): one import for app and tests, whose
// Node resolution would otherwise load the two entry points as different copies (ESM vs CJS).
import { BrowserRouter } from 'react-router';
import { AppProviders, AppRoutes } from './app.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { connectAppSocket, dialEarly } from './lib/early-socket.ts';
import { takeBootReads } from './lib/boot-reads.ts';
import { holdUntilFirstPaint, markFirstPaint } from './lib/first-paint.ts';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Before anything renders: takes over the boot script's socket (or dials), so the first render
// already knows whether it is open (lib/early-socket.ts).
const socket = dialEarly(connectAppSocket);
const queryClient = createQueryClient();
// The shell's first answers, when the boot script has them already (lib/boot-reads.ts).
takeBootReads();

// The protocol's schemas and the dashboard's secondary cards load once the shell is on screen
// (lib/first-paint.ts): the first paint needs none of them.
holdUntilFirstPaint();

/** How long a tab that paints nothing (opened in the background) waits before it loads the rest. */
const HIDDEN_TAB_PAINT_MS = 250;

/**
 * Says when the first render is on screen. Its effects may run in the very task that committed it,
 * before the browser painted: the next animation frame comes before that paint, a task queued from
 * it after.
 */
function FirstPaint() {
  useEffect(() => {
    requestAnimationFrame(() => setTimeout(markFirstPaint, 0));
    // A tab opened in the background paints nothing and runs no animation frame until shown: its
    // data must not wait for that.
    setTimeout(markFirstPaint, HIDDEN_TAB_PAINT_MS);
  }, []);
  return null;
}

createRoot(container).render(
  <StrictMode>
    <FirstPaint />
    <AppProviders queryClient={queryClient} connect={socket}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
