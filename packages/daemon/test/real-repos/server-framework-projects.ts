/**
 * Server-capable frameworks as their generators write them, for server-frameworks.test.ts: a page or
 * two each, versions pinned exactly (the last releases that run on Node 20.19+), and a page that shows
 * what only a server rendering THIS request can know (the `name` query parameter), so a static file
 * served in its place cannot pass.
 */
import type { ProjectFiles } from '@forge/testing';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** A 1×1 PNG, for the icons real projects commit in public/. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * `npm init solid` (SolidStart 1, the "basic" template on vinxi): `vinxi build` writes a Nitro server
 * to .output/, `vinxi start` runs it. public/ holds only its icons — the folder Forge must not serve.
 */
export function solidStartApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'example-basic',
      type: 'module',
      scripts: { dev: 'vinxi dev', build: 'vinxi build', start: 'vinxi start', version: 'vinxi version' },
      dependencies: {
        '@solidjs/meta': '0.29.4',
        '@solidjs/router': '0.15.4',
        '@solidjs/start': '1.3.2',
        'solid-js': '1.9.20',
        vinxi: '0.5.11',
      },
      engines: { node: '>=20' },
    }),
    '.gitignore':
      'dist\n.solid\n.output\n.vercel\n.netlify\n.vinxi\napp.config.timestamp_*.js\nnode_modules\n.env\n',
    'app.config.ts':
      'import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({});\n',
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ESNext',
        module: 'ESNext',
        moduleResolution: 'node',
        allowSyntheticDefaultImports: true,
        esModuleInterop: true,
        jsx: 'preserve',
        jsxImportSource: 'solid-js',
        allowJs: true,
        strict: true,
        noEmit: true,
        types: ['vinxi/types/client'],
        isolatedModules: true,
        paths: { '~/*': ['./src/*'] },
      },
    }),
    'public/favicon.ico': PNG_1X1,
    'public/icon-192.png': PNG_1X1,
    'public/icon-512.png': PNG_1X1,
    'public/apple-touch-icon.png': PNG_1X1,
    'src/app.tsx': `import { MetaProvider, Title } from "@solidjs/meta";
import { Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense } from "solid-js";

export default function App() {
  return (
    <Router
      root={props => (
        <MetaProvider>
          <Title>SolidStart - Basic</Title>
          <a href="/">Index</a>
          <Suspense>{props.children}</Suspense>
        </MetaProvider>
      )}
    >
      <FileRoutes />
    </Router>
  );
}
`,
    'src/entry-client.tsx': `// @refresh reload
import { mount, StartClient } from "@solidjs/start/client";

mount(() => <StartClient />, document.getElementById("app")!);
`,
    'src/entry-server.tsx': `// @refresh reload
import { createHandler, StartServer } from "@solidjs/start/server";

export default createHandler(() => (
  <StartServer
    document={({ assets, children, scripts }) => (
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <link rel="icon" href="/favicon.ico" />
          {assets}
        </head>
        <body>
          <div id="app">{children}</div>
          {scripts}
        </body>
      </html>
    )}
  />
));
`,
    'src/routes/index.tsx': `import { useSearchParams } from "@solidjs/router";

export default function Home() {
  const [params] = useSearchParams();
  return (
    <main>
      <h1>Hello from SolidStart</h1>
      <p>Hello, {String(params.name ?? "world")}</p>
    </main>
  );
}
`,
  };
}

/** `npm create nuxt -- -t minimal` (Nuxt 4.2, the last minor that runs on Node 20.19), with its page. */
function nuxtApp(
  name: string,
  scripts: Record<string, string>,
  page: string,
  extra: object = {},
): ProjectFiles {
  return {
    'package.json': json({
      name,
      type: 'module',
      private: true,
      scripts,
      dependencies: { nuxt: '4.2.2', vue: '3.5.45', 'vue-router': '4.6.5' },
      ...extra,
    }),
    '.gitignore':
      '# Nuxt dev/build outputs\n.output\n.data\n.nuxt\n.nitro\n.cache\ndist\n\nnode_modules\n\n.env\n',
    'nuxt.config.ts': `// https://nuxt.com/docs/api/configuration/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  devtools: { enabled: true }
})
`,
    'tsconfig.json': json({
      files: [],
      references: [
        { path: './.nuxt/tsconfig.app.json' },
        { path: './.nuxt/tsconfig.server.json' },
        { path: './.nuxt/tsconfig.shared.json' },
        { path: './.nuxt/tsconfig.node.json' },
      ],
    }),
    'app/app.vue': page,
    'public/favicon.ico': PNG_1X1,
    'public/robots.txt': 'User-Agent: *\nDisallow:\n',
  };
}

/** The minimal template as generated: `nuxt build` makes a Nitro server; the page reads the query. */
export function nuxtServerApp(): ProjectFiles {
  return nuxtApp(
    'nuxt-app',
    {
      build: 'nuxt build',
      dev: 'nuxt dev',
      generate: 'nuxt generate',
      preview: 'nuxt preview',
      postinstall: 'nuxt prepare',
    },
    `<script setup lang="ts">
const route = useRoute()
const name = computed(() => String(route.query.name ?? 'world'))
</script>

<template>
  <div>
    <NuxtRouteAnnouncer />
    <h1>Nuxt on Forge</h1>
    <p>Hello, {{ name }}</p>
  </div>
</template>
`,
  );
}

/**
 * A Nuxt site deployed as static files: its "build" script is `nuxt generate` (prerendered pages).
 * unstorage 1.17.6 refuses the key "/" that Nuxt 4.2's prerenderer writes, so the site keeps the
 * 1.17.5 its lockfile held, with npm's overrides (which also makes Forge install it with npm).
 */
export function nuxtGeneratedSite(): ProjectFiles {
  return nuxtApp(
    'nuxt-site',
    { build: 'nuxt generate', dev: 'nuxt dev', preview: 'nuxt preview', postinstall: 'nuxt prepare' },
    `<script setup lang="ts">
const planets = ['Mercury', 'Venus', 'Earth', 'Mars']
</script>

<template>
  <div>
    <h1>A generated Nuxt site</h1>
    <p>{{ planets.length }} planets, rendered {{ planets.join(' → ') }}</p>
  </div>
</template>
`,
    { overrides: { unstorage: '1.17.5' } },
  );
}

/** `npm create astro -- --template minimal`, then `npx astro add node` (server output, standalone). */
export function astroNodeApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'astro-node',
      type: 'module',
      version: '0.0.1',
      scripts: { dev: 'astro dev', build: 'astro build', preview: 'astro preview', astro: 'astro' },
      dependencies: { '@astrojs/node': '9.5.5', astro: '5.18.2' },
    }),
    'astro.config.mjs': `// @ts-check
import { defineConfig } from 'astro/config';

import node from '@astrojs/node';

// https://astro.build/config
export default defineConfig({
  output: 'server',

  adapter: node({
    mode: 'standalone'
  })
});
`,
    'tsconfig.json': json({
      extends: 'astro/tsconfigs/strict',
      include: ['.astro/types.d.ts', '**/*'],
      exclude: ['dist'],
    }),
    'public/favicon.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128"><circle cx="64" cy="64" r="64"/></svg>\n',
    'src/pages/index.astro': `---
const name = Astro.url.searchParams.get('name') ?? 'world';
---

<html lang="en">
	<head>
		<meta charset="utf-8" />
		<link rel="icon" type="image/svg+xml" href="/favicon.svg" />
		<title>Astro on Node</title>
	</head>
	<body>
		<h1>Astro on Node</h1>
		<p>Hello, {name}</p>
	</body>
</html>
`,
    'src/pages/about.astro': `---
export const prerender = true;
---

<html lang="en">
	<head><meta charset="utf-8" /><title>About</title></head>
	<body><h1>About this prerendered page</h1></body>
</html>
`,
  };
}

const REACT_ROUTER = '7.18.4';

/** `npx create-react-router` (React Router 7 framework mode), trimmed of Tailwind; SSR or SPA. */
function reactRouterApp(name: string, ssr: boolean, home: string): ProjectFiles {
  return {
    'package.json': json({
      name,
      private: true,
      type: 'module',
      scripts: {
        build: 'react-router build',
        dev: 'react-router dev',
        // The template's start stays in SPA mode too, though there is no server build to serve.
        start: 'react-router-serve ./build/server/index.js',
        typecheck: 'react-router typegen && tsc',
      },
      dependencies: {
        '@react-router/node': REACT_ROUTER,
        '@react-router/serve': REACT_ROUTER,
        isbot: '5.2.3',
        react: '19.3.1',
        'react-dom': '19.3.1',
        'react-router': REACT_ROUTER,
      },
      devDependencies: { '@react-router/dev': REACT_ROUTER, vite: '7.3.8' },
    }),
    '.gitignore': '.DS_Store\n.env\n/node_modules/\n\n# React Router\n/.react-router/\n/build/\n',
    'react-router.config.ts': `import type { Config } from "@react-router/dev/config";

export default {
  // Config options...
  // Server-side render by default, to enable SPA mode set this to \`false\`
  ssr: ${ssr},
} satisfies Config;
`,
    'vite.config.ts': `import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
});
`,
    'app/root.tsx': `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function HydrateFallback() {
  return <p>Loading ${name}…</p>;
}
`,
    'app/routes.ts': `import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [index("routes/home.tsx"), route("about", "routes/about.tsx")] satisfies RouteConfig;
`,
    'app/routes/home.tsx': home,
    'app/routes/about.tsx': `export default function About() {
  return <h1>About ${name}</h1>;
}
`,
    'public/favicon.ico': PNG_1X1,
  };
}

/** React Router 7 as generated: server rendering, served by `react-router-serve`. */
export function reactRouterSsrApp(): ProjectFiles {
  return reactRouterApp(
    'react-router-ssr',
    true,
    `import type { Route } from "./+types/home";

export function meta({}: Route.MetaArgs) {
  return [{ title: "React Router on Forge" }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { name: new URL(request.url).searchParams.get("name") ?? "world" };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main>
      <h1>React Router on Forge</h1>
      <p>Hello, {loaderData.name}</p>
    </main>
  );
}
`,
  );
}

/** The same app in SPA mode (`ssr: false`): static files in build/client, one index.html. */
export function reactRouterSpaApp(): ProjectFiles {
  return reactRouterApp(
    'react-router-spa',
    false,
    `export default function Home() {
  return <h1>Hello from the React Router SPA</h1>;
}
`,
  );
}

/**
 * `npm create qwik empty`, then `npm run qwik add express` (Qwik 1, Qwik City): `qwik build` writes
 * dist/ and server/entry.express.js, which the "serve" script runs. Trimmed of Prettier; ESLint
 * stays, as `qwik build` lints and the Qwik CLI loads a module only ESLint brings.
 */
export function qwikExpressApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'my-qwik-empty-starter',
      description: 'Blank project with routing included',
      engines: { node: '^18.17.0 || ^20.3.0 || >=21.0.0' },
      private: true,
      type: 'module',
      scripts: {
        build: 'qwik build',
        'build.client': 'vite build',
        'build.preview': 'vite build --ssr src/entry.preview.tsx',
        'build.server': 'qwik check-client src dist && vite build -c adapters/express/vite.config.ts',
        'build.types': 'tsc --incremental --noEmit',
        deploy: 'echo \'Run "npm run qwik add" to install a server adapter\'',
        dev: 'vite --mode ssr',
        'dev.debug': 'node --inspect-brk ./node_modules/vite/bin/vite.js --mode ssr --force',
        lint: 'eslint "src/**/*.ts*"',
        preview: 'qwik build preview && vite preview --open',
        serve: 'node server/entry.express',
        start: 'vite --open --mode ssr',
        qwik: 'qwik',
      },
      devDependencies: {
        '@builder.io/qwik': '1.20.1',
        '@builder.io/qwik-city': '1.20.1',
        '@eslint/js': '9.32.0',
        '@types/express': '4.17.21',
        '@types/node': '20.19.0',
        dotenv: '16.6.1',
        eslint: '9.32.0',
        'eslint-plugin-qwik': '1.20.1',
        globals: '16.4.0',
        typescript: '5.4.5',
        'typescript-eslint': '8.38.0',
        // The template's "*": undici 8 needs Node 22, so the lockfile of a Node 20 project holds 7.
        undici: '7.30.2',
        vite: '7.3.8',
        'vite-tsconfig-paths': '4.3.2',
      },
      dependencies: { express: '4.22.0' },
    }),
    '.gitignore': '# Build\n/dist\n/lib\n/lib-types\n/server\n\n# Development\nnode_modules\n*.local\n',
    'qwik.env.d.ts': '/// <reference types="vite/client" />\n',
    'eslint.config.js': `import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { globalIgnores } from "eslint/config";
import { qwikEslint9Plugin } from "eslint-plugin-qwik";

const ignores = ["**/dist", "**/lib", "**/lib-types", "**/node_modules", "**/server", "**/vite.config.ts", "eslint.config.js"];

export default tseslint.config(
  globalIgnores(ignores),
  js.configs.recommended,
  tseslint.configs.recommended,
  qwikEslint9Plugin.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node, ...globals.es2021, ...globals.serviceworker },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  { rules: { "@typescript-eslint/no-explicit-any": "off" } },
);
`,
    'tsconfig.json': json({
      compilerOptions: {
        allowJs: true,
        target: 'ES2020',
        module: 'ES2022',
        lib: ['es2022', 'DOM', 'WebWorker', 'DOM.Iterable'],
        jsx: 'react-jsx',
        jsxImportSource: '@builder.io/qwik',
        strict: true,
        forceConsistentCasingInFileNames: true,
        resolveJsonModule: true,
        moduleResolution: 'Bundler',
        esModuleInterop: true,
        skipLibCheck: true,
        incremental: true,
        isolatedModules: true,
        outDir: 'tmp',
        noEmit: true,
        paths: { '~/*': ['./src/*'] },
      },
      include: ['src', './*.d.ts', './*.config.ts'],
    }),
    'vite.config.ts': `/**
 * This is the base config for vite.
 * When building, the adapter config is used which loads this file and extends it.
 */
import { defineConfig, type UserConfig } from "vite";
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig((): UserConfig => {
  return {
    plugins: [qwikCity(), qwikVite(), tsconfigPaths({ root: "." })],
    preview: {
      headers: {
        // Do cache the server response in preview (non-adapter production build)
        "Cache-Control": "public, max-age=600",
      },
    },
  };
});
`,
    'adapters/express/vite.config.ts': `import { nodeServerAdapter } from "@builder.io/qwik-city/adapters/node-server/vite";
import { extendConfig } from "@builder.io/qwik-city/vite";
import baseConfig from "../../vite.config";

export default extendConfig(baseConfig, () => {
  return {
    build: {
      ssr: true,
      rollupOptions: {
        input: ["src/entry.express.tsx", "@qwik-city-plan"],
      },
    },
    plugins: [nodeServerAdapter({ name: "express" })],
  };
});
`,
    'public/favicon.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 30"><circle cx="15" cy="15" r="15" fill="#18b6f6"/></svg>\n',
    'public/manifest.json': json({
      name: 'qwik-project-name',
      short_name: 'Welcome to Qwik',
      start_url: '.',
    }),
    'public/robots.txt': '',
    'src/global.css': 'body { font-family: sans-serif; }\n',
    'src/entry.ssr.tsx': `import {
  renderToStream,
  type RenderToStreamOptions,
} from "@builder.io/qwik/server";
import Root from "./root";

export default function (opts: RenderToStreamOptions) {
  return renderToStream(<Root />, {
    ...opts,
    // Use container attributes to set attributes on the html tag.
    containerAttributes: {
      lang: "en-us",
      ...opts.containerAttributes,
    },
    serverData: {
      ...opts.serverData,
    },
  });
}
`,
    'src/entry.preview.tsx': `import { createQwikCity } from "@builder.io/qwik-city/middleware/node";
import qwikCityPlan from "@qwik-city-plan";
// make sure qwikCityPlan is imported before entry
import render from "./entry.ssr";

/**
 * The default export is the QwikCity adapter used by Vite preview.
 */
export default createQwikCity({ render, qwikCityPlan });
`,
    'src/entry.dev.tsx': `import { render, type RenderOptions } from "@builder.io/qwik";
import Root from "./root";

export default function (opts: RenderOptions) {
  return render(document, <Root />, opts);
}
`,
    'src/entry.express.tsx': `import {
  createQwikCity,
  type PlatformNode,
} from "@builder.io/qwik-city/middleware/node";
import "dotenv/config";
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";
import express from "express";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

declare global {
  type QwikCityPlatform = PlatformNode;
}

// Directories where the static assets are located
const distDir = join(fileURLToPath(import.meta.url), "..", "..", "dist");
const buildDir = join(distDir, "build");
const assetsDir = join(distDir, "assets");

// Allow for dynamic port
const PORT = process.env.PORT ?? 3000;

// Create the Qwik City Node middleware
const { router, notFound } = createQwikCity({ render, qwikCityPlan });

// Create the express server
// https://expressjs.com/
const app = express();

// Static asset handlers
// https://expressjs.com/en/starter/static-files.html
app.use(\`/build\`, express.static(buildDir, { immutable: true, maxAge: "1y" }));
app.use(\`/assets\`, express.static(assetsDir, { immutable: true, maxAge: "1y" }));
app.use(express.static(distDir, { redirect: false }));

// Use Qwik City's page and endpoint request handler
app.use(router);

// Use Qwik City's 404 handler
app.use(notFound);

// Start the express server
app.listen(PORT, () => {
  /* eslint-disable */
  console.log(\`Server started: http://localhost:\${PORT}/\`);
});
`,
    'src/root.tsx': `import { component$, isDev } from "@builder.io/qwik";
import { QwikCityProvider, RouterOutlet } from "@builder.io/qwik-city";
import { RouterHead } from "./components/router-head/router-head";

import "./global.css";

export default component$(() => {
  return (
    <QwikCityProvider>
      <head>
        <meta charset="utf-8" />
        {!isDev && (
          <link rel="manifest" href={\`\${import.meta.env.BASE_URL}manifest.json\`} />
        )}
        <RouterHead />
      </head>
      <body lang="en">
        <RouterOutlet />
      </body>
    </QwikCityProvider>
  );
});
`,
    'src/components/router-head/router-head.tsx': `import { component$ } from "@builder.io/qwik";
import { useDocumentHead, useLocation } from "@builder.io/qwik-city";

export const RouterHead = component$(() => {
  const head = useDocumentHead();
  const loc = useLocation();

  return (
    <>
      <title>{head.title}</title>
      <link rel="canonical" href={loc.url.href} />
      <meta name="viewport" content="width=device-width, initial-scale=1.0" />
      <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    </>
  );
});
`,
    'src/routes/index.tsx': `import { component$ } from "@builder.io/qwik";
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city";

export const useName = routeLoader$(({ url }) => url.searchParams.get("name") ?? "world");

export default component$(() => {
  const name = useName();
  return (
    <>
      <h1>Qwik City on Forge</h1>
      <p>Hello, {name.value}</p>
    </>
  );
});

export const head: DocumentHead = {
  title: "Welcome to Qwik",
};
`,
  };
}

/**
 * TanStack Start as its "start-basic" example was written for 1.131, the last release line that
 * bundles Nitro in its Vite plugin (and runs on Node 20): `vite build` writes .output/, the start
 * script runs its server. The loader runs on the server for the first request.
 */
export function tanstackStartApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'tanstack-start-example-basic',
      private: true,
      sideEffects: false,
      type: 'module',
      scripts: { dev: 'vite dev', build: 'vite build', start: 'node .output/server/index.mjs' },
      dependencies: {
        '@tanstack/react-router': '1.131.50',
        '@tanstack/react-start': '1.131.50',
        react: '19.3.1',
        'react-dom': '19.3.1',
      },
      devDependencies: { '@vitejs/plugin-react': '5.2.0', vite: '7.3.8' },
    }),
    '.gitignore': 'node_modules\n.DS_Store\ndist\n.output\n.nitro\n.tanstack\n',
    'tsconfig.json': json({
      include: ['**/*.ts', '**/*.tsx'],
      compilerOptions: {
        strict: true,
        esModuleInterop: true,
        jsx: 'react-jsx',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['DOM', 'DOM.Iterable', 'ES2022'],
        isolatedModules: true,
        resolveJsonModule: true,
        skipLibCheck: true,
        target: 'ES2022',
        allowJs: true,
        forceConsistentCasingInFileNames: true,
        noEmit: true,
      },
    }),
    'vite.config.ts': `import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import { defineConfig } from 'vite'
import viteReact from '@vitejs/plugin-react'

export default defineConfig({
  server: {
    port: 3000,
  },
  plugins: [tanstackStart({ customViteReactPlugin: true }), viteReact()],
})
`,
    'src/router.tsx': `import { createRouter as createTanStackRouter } from '@tanstack/react-router'
import { routeTree } from './routeTree.gen'

export function createRouter() {
  const router = createTanStackRouter({
    routeTree,
    scrollRestoration: true,
  })

  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createRouter>
  }
}
`,
    'src/routes/__root.tsx': `/// <reference types="vite/client" />
import type { ReactNode } from 'react'
import { HeadContent, Outlet, Scripts, createRootRoute } from '@tanstack/react-router'

export const Route = createRootRoute({
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { title: 'TanStack Start Starter' },
    ],
  }),
  component: RootComponent,
})

function RootComponent() {
  return (
    <RootDocument>
      <Outlet />
    </RootDocument>
  )
}

function RootDocument({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <html>
      <head>
        <HeadContent />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  )
}
`,
    'src/routes/index.tsx': `import { createFileRoute } from '@tanstack/react-router'

export const Route = createFileRoute('/')({
  validateSearch: (search: Record<string, unknown>) => ({ name: String(search.name ?? 'world') }),
  loaderDeps: ({ search }) => ({ name: search.name }),
  loader: ({ deps }) => ({ greeting: \`Hello, \${deps.name}\`, rendered: typeof window === 'undefined' ? 'on the server' : 'in the browser' }),
  component: Home,
})

function Home() {
  const { greeting, rendered } = Route.useLoaderData()
  return (
    <main>
      <h1>TanStack Start on Forge</h1>
      <p>{greeting}</p>
      <p>Rendered {rendered}</p>
    </main>
  )
}
`,
  };
}

/**
 * A chat server with a Vite client, as small projects write one: `vite build` writes the client
 * into public/, `node index start` serves it and the API, filling in the greeting per request.
 */
export function chatServerApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'chat',
      version: '1.0.0',
      type: 'module',
      scripts: { dev: 'node index dev', build: 'vite build', start: 'node index start' },
      dependencies: { express: '5.1.0' },
      devDependencies: { vite: '7.3.8' },
    }),
    '.gitignore': 'node_modules\npublic\n',
    'vite.config.js': `import { defineConfig } from 'vite';

export default defineConfig({
  root: 'client',
  build: { outDir: '../public', emptyOutDir: true },
});
`,
    'client/index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Chat</title>
  </head>
  <body>
    <h1>Chat</h1>
    <p id="greeting"><!--greeting--></p>
    <ul id="messages"></ul>
    <script type="module" src="/main.js"></script>
  </body>
</html>
`,
    'client/main.js': `const list = document.querySelector('#messages');

async function refresh() {
  const messages = await (await fetch('/api/messages')).json();
  list.replaceChildren(...messages.map((m) => Object.assign(document.createElement('li'), { textContent: \`\${m.from}: \${m.text}\` })));
}

refresh();
`,
    'index.js': `import express from 'express';
import fs from 'node:fs';
import path from 'node:path';

const mode = process.argv[2] ?? 'start';
const app = express();
const messages = [{ from: 'server', text: 'Welcome to the chat' }];
const escape = (text) => text.replace(/[&<>"']/g, (c) => \`&#\${c.charCodeAt(0)};\`);

app.use(express.json());
app.get('/api/messages', (req, res) => res.json(messages));
app.post('/api/messages', (req, res) => {
  messages.push({ from: String(req.body.from), text: String(req.body.text) });
  res.status(201).json(messages.at(-1));
});

if (mode === 'dev') {
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'spa' });
  app.use(vite.middlewares);
} else {
  const publicDir = path.join(import.meta.dirname, 'public');
  const page = fs.readFileSync(path.join(publicDir, 'index.html'), 'utf8');
  app.get('/', (req, res) =>
    res.type('html').send(page.replace('<!--greeting-->', \`Hello, \${escape(String(req.query.name ?? 'stranger'))}\`)),
  );
  app.use(express.static(publicDir));
}

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(\`chat listening on http://localhost:\${port}\`));
`,
  };
}
