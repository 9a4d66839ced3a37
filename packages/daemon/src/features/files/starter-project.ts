import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_PROJECT_NAME } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';

/** The files the editor opens first (docs/product.md#code-area), in that order. */
export const STARTER_OPEN_FILES = [
  'client/src/App.tsx',
  'client/src/index.css',
  'package.json',
  'server/routes.ts',
] as const;

/**
 * "Forge", the project a fresh workspace shows: a small Vite + React client and a route module for a
 * server, buildable for real (Start Build installs and builds it; nothing is built at start, which
 * would need the network). Vite's root is client/ and the output goes to dist/ at the project root.
 */
export const STARTER_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify(
    {
      name: 'forge-starter',
      private: true,
      version: '0.1.0',
      type: 'module',
      scripts: { dev: 'vite', build: 'vite build', preview: 'vite preview', typecheck: 'tsc --noEmit' },
      dependencies: { react: '^19.2.0', 'react-dom': '^19.2.0' },
      devDependencies: {
        '@types/react': '^19.2.0',
        '@types/react-dom': '^19.2.0',
        '@vitejs/plugin-react': '^6.0.0',
        typescript: '^6.0.0',
        vite: '^8.0.0',
      },
    },
    null,
    2,
  )}\n`,
  'vite.config.ts': `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The app lives in client/; the build lands in dist/ at the project root.
export default defineConfig({
  root: 'client',
  plugins: [react()],
  build: { outDir: '../dist', emptyOutDir: true },
});
`,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
      },
      include: ['client/src', 'server'],
    },
    null,
    2,
  )}\n`,
  'client/index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Forge starter</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'client/src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
  'client/src/vite-env.d.ts': '/// <reference types="vite/client" />\n',
  'client/src/App.tsx': `import { useState } from 'react';

export function App() {
  const [count, setCount] = useState(0);
  return (
    <main className="app">
      <h1>Hello from Forge</h1>
      <p>Edit client/src/App.tsx, save with Ctrl+S, and Forge rebuilds the preview.</p>
      <button type="button" onClick={() => setCount((c) => c + 1)}>
        Clicked {count} {count === 1 ? 'time' : 'times'}
      </button>
    </main>
  );
}
`,
  'client/src/index.css': `:root {
  color-scheme: dark light;
  font-family: system-ui, sans-serif;
}

body {
  margin: 0;
  min-height: 100vh;
  display: grid;
  place-items: center;
}

.app {
  text-align: center;
}

button {
  font: inherit;
  padding: 0.5rem 1rem;
  border-radius: 0.5rem;
  cursor: pointer;
}
`,
  'server/routes.ts': `// API routes for the app, written against the small part of Express they use, so they can be
// mounted on an Express (or compatible) server: registerRoutes(app).

interface Request {
  query: Record<string, unknown>;
}
interface Response {
  json(body: unknown): void;
}
interface Router {
  get(path: string, handler: (req: Request, res: Response) => void): void;
}

export function registerRoutes(app: Router): void {
  app.get('/api/hello', (req, res) => {
    const name = typeof req.query.name === 'string' && req.query.name ? req.query.name : 'world';
    res.json({ message: \`Hello, \${name}!\` });
  });
}
`,
  '.gitignore': 'node_modules\ndist\n',
};

/**
 * On a fresh home (no project at all), create projects/Forge from STARTER_FILES and record it as a
 * project, so the workspace opens on something real. Written into scratch space and renamed into
 * place, so a crash never leaves half a starter. Returns whether it was created.
 */
export function ensureStarterProject(deps: { layout: HomeLayout; repo: BuildRepo; logger: Logger }): boolean {
  const { layout, repo, logger } = deps;
  if (repo.projects().length > 0) return false;
  const name = DEFAULT_PROJECT_NAME;
  const target = layout.projectDir(name);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(layout.tmpDir, { recursive: true });
    fs.mkdirSync(layout.projectsDir, { recursive: true });
    const staging = fs.mkdtempSync(path.join(layout.tmpDir, 'starter-'));
    for (const [rel, content] of Object.entries(STARTER_FILES)) {
      const file = path.join(staging, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    fs.chmodSync(staging, 0o755); // mkdtemp makes it private; a project folder is an ordinary one
    fs.renameSync(staging, target);
  }
  repo.touchProject(name, new Date());
  logger.info({ project: name }, 'created the starter project');
  return true;
}
