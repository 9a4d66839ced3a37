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

/** Says when the first render has been committed: its passive effects run after the browser painted it. */
function FirstPaint() {
  useEffect(markFirstPaint, []);
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
