/**
 * Real projects as their generators (and the people after them) write them, for the real-world suite
 * (issue 10): html5-boilerplate's webpack template, `sv create`, `create-next-app`, `npm create vite`,
 * a pnpm workspace and a repository of Yarn apps. Trimmed to a page or two, with the versions pinned
 * exactly so a run next year installs the same top-level packages on Node 20.19+. Lockfiles are not
 * written here: `lockfileFor` makes them at test time with the real pnpm / Yarn, from these manifests.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ProjectFiles } from '@forge/testing';
import { withFileLock } from '../src/fs/file-lock.ts';

/** The pnpm the workspace names in "packageManager" and that writes every pnpm-lock.yaml here. */
export const PNPM_VERSION = '10.20.0';
/** Yarn classic, which writes every yarn.lock here. */
export const YARN_VERSION = '1.22.22';

/** `npm create vite` (vite 8); also the bundler of SvelteKit and of the workspace's UI library. */
const VITE = '8.3.8';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The same files under a folder of the archive (`new-site/…`, `apps/web/…`). */
export const under = (prefix: string, files: ProjectFiles): ProjectFiles =>
  Object.fromEntries(Object.entries(files).map(([name, data]) => [`${prefix}/${name}`, data]));

/** A 1×1 PNG: the boilerplate's icons are binary files the build copies as they are. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * `npx create-html5-boilerplate new-site` (v9/10): webpack with a dev-server `start` and a production
 * build to dist/ that copies the static files. Zipped as the folder it was created in.
 */
export function html5Boilerplate(): ProjectFiles {
  return under('new-site', {
    'package.json': json({
      name: 'new-site',
      version: '0.0.1',
      description: '',
      private: true,
      keywords: [''],
      license: '',
      author: '',
      scripts: {
        test: 'echo "Error: no test specified" && exit 1',
        start: 'webpack serve --open --config webpack.config.dev.js',
        build: 'webpack --config webpack.config.prod.js',
      },
      devDependencies: {
        'copy-webpack-plugin': '13.0.1',
        'html-webpack-plugin': '5.6.8',
        webpack: '5.112.2',
        'webpack-cli': '6.0.1',
        'webpack-dev-server': '5.2.7',
        'webpack-merge': '6.0.1',
      },
    }),
    'webpack.common.js': `const path = require('path');

module.exports = {
  entry: {
    app: './js/app.js',
  },
  output: {
    path: path.resolve(__dirname, 'dist'),
    clean: true,
    filename: './js/app.js',
  },
};
`,
    'webpack.config.dev.js': `const { merge } = require('webpack-merge');
const common = require('./webpack.common.js');

module.exports = merge(common, {
  mode: 'development',
  devtool: 'inline-source-map',
  devServer: {
    liveReload: true,
    hot: true,
    open: true,
    static: ['./'],
  },
});
`,
    'webpack.config.prod.js': `const { merge } = require('webpack-merge');
const common = require('./webpack.common.js');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyPlugin = require('copy-webpack-plugin');

module.exports = merge(common, {
  mode: 'production',
  plugins: [
    new HtmlWebpackPlugin({
      template: './index.html',
    }),
    new CopyPlugin({
      patterns: [
        { from: 'img', to: 'img' },
        { from: 'css', to: 'css' },
        { from: 'js/vendor', to: 'js/vendor' },
        { from: 'icon.svg', to: 'icon.svg' },
        { from: 'favicon.ico', to: 'favicon.ico' },
        { from: 'robots.txt', to: 'robots.txt' },
        { from: 'icon.png', to: 'icon.png' },
        { from: '404.html', to: '404.html' },
        { from: 'site.webmanifest', to: 'site.webmanifest' },
      ],
    }),
  ],
});
`,
    'index.html': `<!doctype html>
<html class="no-js" lang="">

<head>
  <meta charset="utf-8">
  <title>New site</title>
  <link rel="stylesheet" href="css/style.css">
  <meta name="description" content="">
  <meta name="viewport" content="width=device-width, initial-scale=1">

  <link rel="icon" href="/favicon.ico" sizes="any">
  <link rel="icon" href="/icon.svg" type="image/svg+xml">
  <link rel="apple-touch-icon" href="icon.png">

  <link rel="manifest" href="site.webmanifest">
  <meta name="theme-color" content="#fafafa">
</head>

<body>

  <!-- Add your site or application content here -->
  <p>Hello world! This is HTML5 Boilerplate.</p>

</body>

</html>
`,
    '404.html': `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Page Not Found</title></head>
<body><h1>Page Not Found</h1><p>Sorry, but the page you were trying to view does not exist.</p></body>
</html>
`,
    'css/style.css': `/*! HTML5 Boilerplate v9.0.1 | MIT License | https://html5boilerplate.com/ */
html { color: #222; font-size: 1em; line-height: 1.4; }
::selection { background: #b3d4fc; text-shadow: none; }
.hidden, [hidden] { display: none !important; }
`,
    'js/app.js': `document.documentElement.classList.replace('no-js', 'js');
console.log('Hello from html5-boilerplate');
`,
    'js/vendor/.gitkeep': '',
    'img/.gitkeep': '',
    'icon.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#e34f26"/></svg>\n',
    'favicon.ico': PNG_1X1,
    'icon.png': PNG_1X1,
    'robots.txt': '# www.robotstxt.org/\n\n# Allow crawling of all content\nUser-agent: *\nDisallow:\n',
    'site.webmanifest': json({
      short_name: '',
      name: '',
      icons: [{ src: 'icon.png', type: 'image/png', sizes: '192x192' }],
      start_url: '/?utm_source=homescreen',
      background_color: '#fafafa',
      theme_color: '#fafafa',
    }),
    '.gitignore': 'node_modules\ndist\n',
  });
}

/**
 * `npx sv create --template minimal --no-types` with adapter-auto (what sv writes), on the last
 * SvelteKit major that runs on Node 20. The page reads the query on the server, so only a running
 * SvelteKit server can answer it.
 */
export function svelteKitApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'svelte-app',
      private: true,
      version: '0.0.1',
      type: 'module',
      scripts: {
        dev: 'vite dev',
        build: 'vite build',
        preview: 'vite preview',
        prepare: "svelte-kit sync || echo ''",
      },
      devDependencies: {
        '@sveltejs/adapter-auto': '7.0.1',
        '@sveltejs/kit': '2.70.4',
        '@sveltejs/vite-plugin-svelte': '7.3.1',
        svelte: '5.57.3',
        vite: VITE,
      },
    }),
    '.npmrc': 'engine-strict=true\n',
    '.gitignore': 'node_modules\n\n# Output\n.output\n.vercel\n.netlify\n.wrangler\n/.svelte-kit\n/build\n',
    'svelte.config.js': `import adapter from '@sveltejs/adapter-auto';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	kit: {
		// adapter-auto only supports some environments, see https://svelte.dev/docs/kit/adapter-auto for a list.
		// If your environment is not supported, or you settled on an environment with a specific adapter, use a different one.
		// See https://svelte.dev/docs/kit/adapters for more information about adapters.
		adapter: adapter()
	}
};

export default config;
`,
    'vite.config.js': `import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
	plugins: [sveltekit()]
});
`,
    'src/app.html': `<!doctype html>
<html lang="en">
	<head>
		<meta charset="utf-8" />
		<meta name="viewport" content="width=device-width, initial-scale=1" />
		%sveltekit.head%
	</head>
	<body data-sveltekit-preload-data="hover">
		<div style="display: contents">%sveltekit.body%</div>
	</body>
</html>
`,
    'src/lib/assets/favicon.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="#ff3e00"/></svg>\n',
    'src/lib/index.js': '// place files you want to import through the `$lib` alias in this folder.\n',
    'src/routes/+layout.svelte': `<script>
	import favicon from '$lib/assets/favicon.svg';

	let { children } = $props();
</script>

<svelte:head>
	<link rel="icon" href={favicon} />
</svelte:head>

{@render children?.()}
`,
    'src/routes/+page.server.js': `/** @type {import('./$types').PageServerLoad} */
export function load({ url }) {
	return { name: url.searchParams.get('name') ?? 'world' };
}
`,
    'src/routes/+page.svelte': `<script>
	let { data } = $props();
</script>

<h1>Welcome to SvelteKit</h1>
<p>{\`Hello, \${data.name}\`}</p>
<p>Visit <a href="https://svelte.dev/docs/kit">svelte.dev/docs/kit</a> to read the documentation</p>
`,
    'static/robots.txt': '# allow crawling everything by default\nUser-agent: *\nDisallow:\n',
  };
}

/** `create-next-app --js --app --no-tailwind --no-linter --no-src-dir` (Next 16, Turbopack builds). */
function nextApp(name: string, layout: string, page: string): ProjectFiles {
  return {
    'package.json': json({
      name,
      version: '0.1.0',
      private: true,
      scripts: { dev: 'next dev', build: 'next build', start: 'next start' },
      dependencies: { next: '16.4.6', react: '19.3.1', 'react-dom': '19.3.1' },
    }),
    'next.config.mjs': `/** @type {import('next').NextConfig} */
const nextConfig = {
  /* config options here */
};

export default nextConfig;
`,
    'jsconfig.json': json({ compilerOptions: { paths: { '@/*': ['./*'] } } }),
    '.gitignore': '/node_modules\n/.next/\n/out/\n/build\n.env*\nnext-env.d.ts\n',
    'app/layout.js': layout,
    'app/page.js': page,
    'app/globals.css': `:root {
  --background: #ffffff;
  --foreground: #171717;
}

body {
  color: var(--foreground);
  background: var(--background);
  font-family: Arial, Helvetica, sans-serif;
}
`,
    'app/page.module.css': '.page {\n  display: grid;\n  min-height: 100svh;\n  padding: 80px;\n}\n',
    'public/next.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" fill="none" viewBox="0 0 394 80"><path fill="#000" d="M262 0h68.5v12.7h-27.2v66.6h-13.6V12.7H262V0Z"/></svg>\n',
  };
}

/**
 * A Next.js server app (no `output: 'export'`): its page renders the query on each request, so only
 * `next start` can answer it. The Google fonts of the generated layout were removed by its author.
 */
export function nextServerApp(): ProjectFiles {
  return nextApp(
    'next-server',
    `import "./globals.css";

export const metadata = {
  title: "Create Next App",
  description: "Generated by create next app",
};

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
    `import styles from "./page.module.css";

export default async function Home({ searchParams }) {
  const { name = "world" } = await searchParams;
  return (
    <div className={styles.page}>
      <main>
        <h1>Next.js on Forge</h1>
        <p>{\`Hello, \${name}\`}</p>
      </main>
    </div>
  );
}
`,
  );
}

/**
 * The layout `create-next-app` writes, with Geist from `next/font/google`: `next build` downloads the
 * font's CSS from fonts.googleapis.com. `offlineEnv` goes in the project's forge config so the fetch
 * fails the same way on every machine (see the test).
 */
export function nextGoogleFontApp(offlineEnv: Record<string, string>): ProjectFiles {
  return {
    ...nextApp(
      'next-google-font',
      `import { Geist, Geist_Mono } from "next/font/google";
import "./globals.css";

const geistSans = Geist({
  variable: "--font-geist-sans",
  subsets: ["latin"],
});

const geistMono = Geist_Mono({
  variable: "--font-geist-mono",
  subsets: ["latin"],
});

export const metadata = {
  title: "Create Next App",
  description: "Generated by create next app",
};

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body className={\`\${geistSans.variable} \${geistMono.variable}\`}>
        {children}
      </body>
    </html>
  );
}
`,
      `import styles from "./page.module.css";

export default function Home() {
  return (
    <div className={styles.page}>
      <main>
        <h1>To get started, edit the page.js file.</h1>
      </main>
    </div>
  );
}
`,
    ),
    '.forgerc.json': json({ env: offlineEnv }),
  };
}

/** `npm create vite@latest <name> -- --template vanilla`, with a heading that names the app. */
export function viteApp(name: string, heading: string, extraDeps: Record<string, string> = {}): ProjectFiles {
  return {
    'package.json': json({
      name,
      private: true,
      version: '0.0.0',
      type: 'module',
      scripts: { dev: 'vite', build: 'vite build', preview: 'vite preview' },
      ...(Object.keys(extraDeps).length > 0 ? { dependencies: extraDeps } : {}),
      devDependencies: { vite: VITE },
    }),
    'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>${heading}</title>
  </head>
  <body>
    <div id="app"></div>
    <script type="module" src="/src/main.js"></script>
  </body>
</html>
`,
    'src/main.js': `import './style.css'
import { setupCounter } from './counter.js'

document.querySelector('#app').innerHTML = \`
  <div>
    <h1>Hello from ${heading}</h1>
    <div class="card">
      <button id="counter" type="button"></button>
    </div>
  </div>
\`

setupCounter(document.querySelector('#counter'))
`,
    'src/counter.js': `export function setupCounter(element) {
  let counter = 0
  const setCounter = (count) => {
    counter = count
    element.innerHTML = \`count is \${counter}\`
  }
  element.addEventListener('click', () => setCounter(counter + 1))
  setCounter(0)
}
`,
    'src/style.css':
      ':root {\n  font-family: system-ui, Avenir, Helvetica, Arial, sans-serif;\n  color-scheme: light dark;\n}\n',
    'public/vite.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#646cff" d="M16 2 30 8 16 30 2 8z"/></svg>\n',
    '.gitignore': 'node_modules\ndist\n*.local\n',
  };
}

/**
 * A pnpm workspace as people lay them out: apps/web (Vite) uses @acme/ui from packages/ui, whose
 * package.json points at its own build output (dist/), so web cannot build until ui is built;
 * apps/docs is a second, standalone app. The root only runs scripts across the workspace.
 */
export function pnpmWorkspace(): ProjectFiles {
  const web = viteApp('web', 'Acme web', { '@acme/ui': 'workspace:*' });
  web['src/main.js'] = `import './style.css'
import { greeting } from '@acme/ui'

document.querySelector('#app').innerHTML = \`<h1>\${greeting('web')}</h1>\`
`;
  return {
    'package.json': json({
      name: 'acme',
      private: true,
      packageManager: `pnpm@${PNPM_VERSION}`,
      scripts: { build: 'pnpm -r build', dev: 'pnpm -r --parallel dev' },
    }),
    'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - 'packages/*'\n",
    '.gitignore': 'node_modules\ndist\n',
    'README.md': '# acme\n\n`pnpm install`, then `pnpm --filter web dev`.\n',
    ...under('apps/web', web),
    ...under('apps/docs', viteApp('docs', 'Acme docs')),
    ...under('packages/ui', {
      'package.json': json({
        name: '@acme/ui',
        version: '0.0.0',
        private: true,
        type: 'module',
        main: './dist/index.js',
        exports: { '.': './dist/index.js' },
        files: ['dist'],
        scripts: { build: 'vite build' },
        devDependencies: { vite: VITE },
      }),
      'vite.config.js': `import { defineConfig } from 'vite'

export default defineConfig({
  build: {
    lib: { entry: 'src/index.js', formats: ['es'], fileName: 'index' },
  },
})
`,
      'src/index.js': 'export function greeting(app) {\n  return `Hello from @acme/ui to ${app}`\n}\n',
    }),
  };
}

/** Three Vite apps side by side, each with its own package.json (no workspace, no root package.json). */
export function appsInSubfolders(): ProjectFiles {
  return {
    'README.md': '# Acme sites\n\nEach app is its own project: `cd apps/<name> && yarn && yarn build`.\n',
    ...under('apps/admin', viteApp('admin', 'Acme admin')),
    ...under('apps/docs', viteApp('docs', 'Acme docs')),
    ...under('apps/web', viteApp('web', 'Acme web')),
  };
}

const run = promisify(execFile);

/** What a lockfile depends on: every manifest under `dir`, without the root's name (lockfiles omit it). */
function manifests(files: ProjectFiles, dir: string): Record<string, string> {
  const prefix = dir === '.' ? '' : `${dir}/`;
  const found: Record<string, string> = {};
  for (const [name, data] of Object.entries(files)) {
    if (!name.startsWith(prefix)) continue;
    const rel = name.slice(prefix.length);
    if (path.posix.basename(rel) === 'package.json' || rel === 'pnpm-workspace.yaml') {
      found[rel] = data.toString();
    }
  }
  return found;
}

const generated = new Map<string, Promise<string>>();

/**
 * The lockfile the real tool writes for the project (or app) in `dir` of `files`: its manifests are
 * copied to a scratch folder and pnpm (`install --lockfile-only`) or Yarn 1 (a full `install`: it has
 * no lockfile-only mode) runs there, fetched by npx at the pinned version, never installed globally.
 * Projects with the same dependencies share one run.
 */
export function lockfileFor(tool: 'pnpm' | 'yarn', files: ProjectFiles, dir = '.'): Promise<string> {
  const found = manifests(files, dir);
  const root = JSON.parse(found['package.json'] ?? 'null') as Record<string, unknown> | null;
  if (!root) throw new Error(`no package.json in ${dir}`);
  const key = JSON.stringify([tool, { ...found, 'package.json': { ...root, name: undefined } }]);
  let text = generated.get(key);
  if (!text) {
    text = generate(tool, found);
    generated.set(key, text);
  }
  return text;
}

async function generate(tool: 'pnpm' | 'yarn', found: Record<string, string>): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `forge-${tool}-lock-`));
  try {
    for (const [rel, content] of Object.entries(found)) {
      fs.mkdirSync(path.join(scratch, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(scratch, rel), content);
    }
    // Yarn 1 corrupts a cache two installs write at once (several lockfiles are made in parallel):
    // a cache of the test run's own, behind the lock the daemon takes for it, never the user's.
    const yarnCache = path.join(os.tmpdir(), 'forge-test-yarn-cache');
    const args =
      tool === 'pnpm'
        ? [`pnpm@${PNPM_VERSION}`, 'install', '--lockfile-only', '--no-frozen-lockfile', '--ignore-scripts']
        : [`yarn@${YARN_VERSION}`, 'install', '--ignore-scripts', '--non-interactive', '--no-progress'];
    const make = () =>
      run('npx', ['--yes', ...args], {
        cwd: scratch,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, YARN_CACHE_FOLDER: yarnCache },
      });
    try {
      await (tool === 'yarn' ? withFileLock(path.join(yarnCache, '.forge-install-lock'), make) : make());
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      throw new Error(`npx ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
    }
    return fs.readFileSync(path.join(scratch, tool === 'pnpm' ? 'pnpm-lock.yaml' : 'yarn.lock'), 'utf8');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
