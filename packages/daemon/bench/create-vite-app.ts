// The benches' small project: a create-vite React + TypeScript app as uploaded (16 files).
import type { ProjectFiles } from '@forge/testing';

/**
 * `npm create vite@latest -- --template react-ts`, trimmed to what matters here: its 16 files, with
 * `vite build` as the build script (the template's `tsc -b &&` would add TypeScript to the one
 * install this bench makes; a cache hit runs neither).
 */
export const CREATE_VITE_APP: ProjectFiles = {
  'vite-react-ts/package.json': `${JSON.stringify(
    {
      name: 'vite-react-ts',
      private: true,
      version: '0.0.0',
      type: 'module',
      scripts: { dev: 'vite', build: 'vite build', lint: 'eslint .', preview: 'vite preview' },
      dependencies: { react: '^19.2.0', 'react-dom': '^19.2.0' },
      devDependencies: { '@vitejs/plugin-react': '^6.0.0', vite: '^8.0.0' },
    },
    null,
    2,
  )}\n`,
  'vite-react-ts/.gitignore': 'logs\n*.log\nnode_modules\ndist\ndist-ssr\n*.local\n.vscode/*\n.DS_Store\n',
  'vite-react-ts/README.md':
    '# React + TypeScript + Vite\n\nThis template provides a minimal setup to get React working in Vite with HMR.\n',
  'vite-react-ts/eslint.config.js':
    "import js from '@eslint/js';\nexport default [js.configs.recommended];\n",
  'vite-react-ts/index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Vite + React + TS</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'vite-react-ts/tsconfig.json':
    '{\n  "files": [],\n  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }]\n}\n',
  'vite-react-ts/tsconfig.app.json':
    '{\n  "compilerOptions": { "target": "ES2022", "lib": ["ES2022", "DOM"], "module": "ESNext", "jsx": "react-jsx",\n    "moduleResolution": "bundler", "noEmit": true, "strict": true },\n  "include": ["src"]\n}\n',
  'vite-react-ts/tsconfig.node.json':
    '{\n  "compilerOptions": { "target": "ES2023", "module": "ESNext", "moduleResolution": "bundler", "noEmit": true, "strict": true },\n  "include": ["vite.config.ts"]\n}\n',
  'vite-react-ts/vite.config.ts':
    "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\n\nexport default defineConfig({ plugins: [react()] });\n",
  'vite-react-ts/public/vite.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><path fill="#646cff" d="M2 2h28L16 30z"/></svg>\n',
  'vite-react-ts/src/assets/react.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="36" height="32" viewBox="0 0 36 32"><circle cx="18" cy="16" r="3" fill="#61dafb"/></svg>\n',
  'vite-react-ts/src/vite-env.d.ts': '/// <reference types="vite/client" />\n',
  'vite-react-ts/src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import App from './App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
  'vite-react-ts/src/App.tsx': `import { useState } from 'react';
import reactLogo from './assets/react.svg';
import viteLogo from '/vite.svg';
import './App.css';

export default function App() {
  const [count, setCount] = useState(0);
  return (
    <>
      <img src={viteLogo} className="logo" alt="Vite logo" />
      <img src={reactLogo} className="logo react" alt="React logo" />
      <h1>Vite + React</h1>
      <button onClick={() => setCount((count) => count + 1)}>count is {count}</button>
    </>
  );
}
`,
  'vite-react-ts/src/App.css':
    '#root { max-width: 1280px; margin: 0 auto; padding: 2rem; text-align: center; }\n.logo { height: 6em; padding: 1.5em; }\n',
  'vite-react-ts/src/index.css':
    ':root { font-family: system-ui, Avenir, Helvetica, Arial, sans-serif; line-height: 1.5; }\nbody { margin: 0; min-width: 320px; min-height: 100vh; }\n',
};
