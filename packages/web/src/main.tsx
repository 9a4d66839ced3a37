import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// RouterProvider from 'react-router' (not 'react-router/dom'): one import for app and tests, whose
// Node resolution would otherwise load the two entry points as different copies (ESM vs CJS).
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, appRoutes } from './app.tsx';
import { createQueryClient } from './lib/query-client.ts';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const router = createBrowserRouter(appRoutes);

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
