import { describe, expect, it } from 'vitest';
import { devServerIn, devServerOfScript, nodeEntryOf } from './dev-servers.ts';
import { commandsOfScript, scriptCommands } from './script-commands.ts';

describe('scriptCommands', () => {
  it('splits chains, peels env assignments and runners, and unquotes', () => {
    const commands = scriptCommands(
      'rimraf dist && NODE_ENV=production cross-env A=1 npx --yes webpack --config "web pack.js"; ./node_modules/.bin/tsc -p . | tee log',
      {},
    );
    expect(commands.map((c) => [c.bin, ...c.args])).toEqual([
      ['rimraf', 'dist'],
      ['webpack', '--config', 'web pack.js'],
      ['tsc', '-p', '.'],
      ['tee', 'log'],
    ]);
  });

  it('follows npm run, yarn, pnpm, bun run, run-s and concurrently to the scripts they name', () => {
    const scripts = {
      start: 'npm run serve',
      serve: 'yarn dev:web',
      'dev:web': 'pnpm exec vite --host',
      all: 'run-p build:* && concurrently -k "npm:api" "bun run start"',
      'build:a': 'tsc',
      'build:b': 'esbuild x',
      api: 'node api.js',
    };
    expect(commandsOfScript('start', scripts)).toEqual([
      { bin: 'vite', args: ['--host'], text: 'vite --host', script: 'dev:web' },
    ]);
    expect(commandsOfScript('all', scripts).map((c) => c.bin)).toEqual(['tsc', 'esbuild', 'node', 'vite']);
  });

  it('stops at cycles, and does not follow references after cd into another package', () => {
    expect(commandsOfScript('a', { a: 'npm run b', b: 'npm run a && vite' }).map((c) => c.text)).toEqual([
      'vite',
    ]);
    expect(
      commandsOfScript('start', { start: 'cd client && npm run dev', dev: 'vite' }).map((c) => c.text),
    ).toEqual(['cd client', 'npm run dev']);
    expect(commandsOfScript('missing', {})).toEqual([]);
  });
});

describe('dev servers', () => {
  it.each([
    ['webpack serve --open --config webpack.config.dev.js', 'the webpack dev server'],
    ['webpack-cli serve', 'the webpack dev server'],
    ['webpack --watch', 'webpack in watch mode'],
    ['webpack-dev-server', 'the webpack dev server'],
    ['vite', "Vite's dev server (or its preview)"],
    ['vite dev', "Vite's dev server (or its preview)"],
    ['vite preview --port 4173', "Vite's dev server (or its preview)"],
    ['react-scripts start', "Create React App's dev server"],
    ['craco start', "Create React App's dev server"],
    ['ng serve --port 4200', "the Angular CLI's dev server"],
    ['next', "Next.js's dev server"],
    ['next dev --turbopack', "Next.js's dev server"],
    ['astro dev', "Astro's dev server (or its preview)"],
    ['nuxt dev', "Nuxt's dev server (or its preview)"],
    ['nuxi dev', "Nuxt's dev server (or its preview)"],
    ['svelte-kit dev', "SvelteKit's dev server"],
    ['parcel index.html', "Parcel's dev server"],
    ['parcel serve src/index.html', "Parcel's dev server"],
    ['nodemon --exec ts-node src/index.ts', 'a restart-on-change watcher'],
    ['ts-node-dev --respawn src/main.ts', 'a restart-on-change watcher'],
    ['node --watch server.js', 'node in watch mode'],
    ['tsx watch src/index.ts', 'tsx in watch mode'],
    ['nest start --watch', 'the Nest CLI in watch mode'],
    ['gatsby develop', "Gatsby's dev server (or its preview)"],
    ['docusaurus start', "Docusaurus's dev server (or its preview)"],
    ['vue-cli-service serve', "Vue CLI's dev server"],
    ['remix vite:dev', "Remix's dev server"],
    ['react-router dev', "React Router's dev server"],
    ['npx @11ty/eleventy --serve', "Eleventy's dev server"],
    ['live-server public', 'a live-reload dev server'],
    ['wrangler dev', "a hosting platform's local dev server"],
  ])('%s is one: %s', (script, what) => {
    expect(devServerIn(script, {})).toMatchObject({ what, script: null });
  });

  it.each([
    'node server.js',
    'node dist/main',
    'next start',
    'nest start',
    'vite build',
    'parcel build src/index.html',
    'webpack --config webpack.config.prod.js',
    'react-scripts build',
    'fastify start app.js',
    'serve -s build',
    'gatsby build',
  ])('%s is not one', (script) => {
    expect(devServerIn(script, {})).toBeNull();
  });

  it('names the script a dev server came through', () => {
    expect(devServerOfScript('start', { start: 'npm run dev', dev: 'vite --open' })).toEqual({
      command: 'vite --open',
      bin: 'vite',
      args: ['--open'],
      what: "Vite's dev server (or its preview)",
      script: 'dev',
    });
  });

  it('gives the plain node twin of a watcher that restarts a JavaScript file, and only that', () => {
    const twin = (script: string) => nodeEntryOf(devServerIn(script, {})!);
    expect(twin('nodemon --watch src server.js')).toEqual(['node', 'server.js']);
    expect(twin('node --watch-path=src ./bin/www.mjs')).toEqual(['node', './bin/www.mjs']);
    expect(twin('nodemon --exec babel-node src/index.js')).toBeNull();
    expect(twin('ts-node-dev src/index.ts')).toBeNull();
    expect(twin('nodemon')).toBeNull();
    expect(twin('webpack serve')).toBeNull();
  });
});
