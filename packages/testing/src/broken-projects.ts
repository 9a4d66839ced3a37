/**
 * Real projects broken the ordinary ways (docs/assistants.md): an undeclared import, a missing Vite plugin,
 * an import whose case differs from the file, a drifted lockfile, a peer-dependency conflict, zipped
 * node_modules from a Mac, a syntax error, a missing local file, a type error and a missing build script.
 * Each is a small Vite (or Vite + React) app that really installs from the npm registry and really fails with
 * the tool's own error; each says what ScanBot should name and which repair, if any, RepairBot can make.
 * Every project pins the same few versions, so one install fills the pnpm store (or the npm cache) for all of
 * them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DiagnosisCode, ErrorCode, RepairCode } from '@forge/shared';
import type { ProjectFiles } from './zip.ts';

const run = promisify(execFile);

/** The versions every broken project shares (`npm create vite` of late 2026). */
export const BROKEN_VERSIONS = {
  vite: '8.3.8',
  react: '19.3.1',
  reactDom: '19.3.1',
  pluginReact: '6.3.0',
  typescript: '6.0.3',
  clsx: '2.1.1',
  /** Peers on React ^16.6 || ^17 || ^18: the classic conflict of a React 19 upgrade. */
  reactHelmetAsync: '2.0.5',
  /** engines.node ">=22.12.0": refused on Node 20 where engine-strict is set. */
  commander: '15.1.0',
} as const;

/** What Forge should make of a broken project. */
export interface BrokenExpectation {
  /**
   * The tool's own words for the failure, as the failing build logs them: proof the fixture breaks
   * the way it is meant to (null for the projects Forge builds without ever failing).
   */
  toolError: RegExp | null;
  /** ScanBot's diagnosis of the failure (null when the build never fails). */
  diagnosis: {
    code: DiagnosisCode;
    /** Project-relative file the failure points at. */
    file?: string;
    line?: number;
    column?: number;
    /** What the diagnosis is about: the package names, the import… (each must be among its subjects). */
    subjects?: string[];
  } | null;
  /**
   * Set when Forge refuses the upload itself (its plan cannot be made, so there is no build): the
   * error code and the place its details name.
   */
  refusedUpload?: { code: ErrorCode; file: string; line: number; column?: number };
  /** The safe repair RepairBot makes (or proposes), or null when only the user can fix it. */
  repair: RepairCode | null;
  /** Project files the repair changes. */
  repairedFiles: string[];
}

export interface BrokenProject {
  /** Also the ZIP's name without `.zip`, so the daemon's project name. */
  name: string;
  files: ProjectFiles;
  expected: BrokenExpectation;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

interface Manifest {
  name: string;
  private: true;
  version: string;
  type: 'module';
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = (
  name: string,
  parts: {
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  },
): Manifest => ({
  name,
  private: true,
  version: '0.0.0',
  type: 'module',
  scripts: parts.scripts ?? { dev: 'vite', build: 'vite build', preview: 'vite preview' },
  ...(parts.dependencies && Object.keys(parts.dependencies).length
    ? { dependencies: parts.dependencies }
    : {}),
  devDependencies: parts.devDependencies ?? { vite: BROKEN_VERSIONS.vite },
});

const indexHtml = (title: string, entry: string, mount = 'app') => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>${title}</title>
  </head>
  <body>
    <div id="${mount}"></div>
    <script type="module" src="${entry}"></script>
  </body>
</html>
`;

const STYLE =
  ':root {\n  font-family: system-ui, Avenir, Helvetica, Arial, sans-serif;\n  color-scheme: light dark;\n}\n';

/** `npm create vite` (vanilla), trimmed: vite alone, src/main.js as the entry. */
function vanillaApp(name: string, title: string, main: string, extra: Partial<Manifest> = {}): ProjectFiles {
  return {
    'package.json': json({ ...manifest(name, {}), ...extra }),
    'index.html': indexHtml(title, '/src/main.js'),
    'src/main.js': main,
    'src/style.css': STYLE,
    '.gitignore': 'node_modules\ndist\n*.local\n',
  };
}

const REACT_DEPS = { react: BROKEN_VERSIONS.react, 'react-dom': BROKEN_VERSIONS.reactDom };
const REACT_DEV_DEPS = { '@vitejs/plugin-react': BROKEN_VERSIONS.pluginReact, vite: BROKEN_VERSIONS.vite };

const VITE_CONFIG_REACT = `import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
})
`;

/** `npm create vite` (react), trimmed: React, the React plugin, src/main.jsx and src/App.jsx. */
function reactApp(
  name: string,
  title: string,
  app: string,
  parts: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> } = {},
): ProjectFiles {
  return {
    'package.json': json(
      manifest(name, {
        dependencies: parts.dependencies ?? REACT_DEPS,
        devDependencies: parts.devDependencies ?? REACT_DEV_DEPS,
      }),
    ),
    'vite.config.js': VITE_CONFIG_REACT,
    'index.html': indexHtml(title, '/src/main.jsx', 'root'),
    'src/main.jsx': `import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './index.css'
import App from './App.jsx'

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
`,
    'src/App.jsx': app,
    'src/index.css': STYLE,
    '.gitignore': 'node_modules\ndist\n*.local\n',
  };
}

/**
 * 1. src/main.js imports canvas-confetti, which package.json does not declare (the commonest break):
 * Vite cannot resolve it. RepairBot adds it to dependencies at the version npm resolves.
 */
export function undeclaredPackage(name = 'confetti-party'): BrokenProject {
  return {
    name,
    files: vanillaApp(
      name,
      'Confetti party',
      `import './style.css'
import confetti from 'canvas-confetti'

document.querySelector('#app').innerHTML = '<h1>Hello from the confetti party</h1><button id="go">Celebrate</button>'
document.querySelector('#go').addEventListener('click', () => confetti({ particleCount: 120, spread: 70 }))
`,
    ),
    expected: {
      toolError: /failed to resolve import "canvas-confetti"/,
      diagnosis: { code: 'MISSING_PACKAGE', file: 'src/main.js', subjects: ['canvas-confetti'] },
      repair: 'ADD_MISSING_PACKAGES',
      repairedFiles: ['package.json'],
    },
  };
}

/**
 * 2. vite.config.js imports @vitejs/plugin-react, which package.json does not declare: Vite cannot
 * even load its config. RepairBot adds it as a devDependency (a config file's import is a build tool).
 */
export function missingVitePlugin(name = 'react-no-plugin'): BrokenProject {
  return {
    name,
    files: reactApp(
      name,
      'React without its plugin',
      `export default function App() {
  return <h1>Hello from React without its plugin</h1>
}
`,
      { devDependencies: { vite: BROKEN_VERSIONS.vite } },
    ),
    expected: {
      toolError:
        /Could not resolve '@vitejs\/plugin-react'|Cannot find (package|module) '@vitejs\/plugin-react'/,
      diagnosis: { code: 'MISSING_PACKAGE', file: 'vite.config.js', subjects: ['@vitejs/plugin-react'] },
      repair: 'ADD_MISSING_PACKAGES',
      repairedFiles: ['package.json'],
    },
  };
}

/**
 * 3. src/App.jsx imports './components/header' but the file is Header.jsx: fine on a Mac's
 * case-insensitive disk, "Module not found" on Linux. RepairBot rewrites the import to the file's case.
 */
export function importCaseMismatch(name = 'case-header'): BrokenProject {
  const files = reactApp(
    name,
    'Case of the header',
    `import Header from './components/header'

export default function App() {
  return (
    <>
      <Header title="Hello from the case of the header" />
      <p>Imported as ./components/header, written as Header.jsx.</p>
    </>
  )
}
`,
  );
  files['src/components/Header.jsx'] = `export default function Header({ title }) {
  return <h1>{title}</h1>
}
`;
  return {
    name,
    files,
    expected: {
      toolError: /'\.\/components\/header'/,
      diagnosis: {
        code: 'IMPORT_CASE_MISMATCH',
        file: 'src/App.jsx',
        line: 1,
        subjects: ['./components/header'],
      },
      repair: 'FIX_IMPORT_CASE',
      repairedFiles: ['src/App.jsx'],
    },
  };
}

/** The fixed text of importCaseMismatch's App.jsx after the repair: the import in the file's case. */
export const CASE_FIXED_IMPORT = "import Header from './components/Header'";

/**
 * 4. package-lock.json was written for an older package.json; clsx was added to package.json (and
 * used) afterwards without installing, so `npm ci` refuses. RepairBot installs without the frozen
 * lockfile, which brings package-lock.json up to date. The lockfile is made by the real npm.
 */
export async function driftedLockfile(name = 'drifted-lock'): Promise<BrokenProject> {
  const before = manifest(name, {});
  const after = manifest(name, { dependencies: { clsx: `^${BROKEN_VERSIONS.clsx}` } });
  const files = vanillaApp(
    name,
    'Drifted lockfile',
    `import './style.css'
import clsx from 'clsx'

document.querySelector('#app').innerHTML = \`<h1 class="\${clsx('title', { lit: true })}">Hello from the drifted lockfile</h1>\`
`,
  );
  files['package.json'] = json(after);
  files['package-lock.json'] = await npmLockfile(before);
  return {
    name,
    files,
    expected: {
      toolError: /can only install packages when your package\.json and package-lock\.json .*are in sync/,
      diagnosis: { code: 'LOCKFILE_OUT_OF_SYNC', subjects: ['clsx'] },
      repair: 'REINSTALL_UNFROZEN',
      repairedFiles: ['package-lock.json'],
    },
  };
}

/**
 * 5. React 19 with react-helmet-async 2, whose peers stop at React 18. The lockfile was written with
 * legacy peer deps (as on a machine with legacy-peer-deps=true in its .npmrc), so `npm ci` refuses
 * with ERESOLVE. The registry has a react-helmet-async whose peers accept React 19 (3.x): RepairBot
 * asks for it in package.json and installs unlocked; legacy peer mode is only the last resort.
 */
export async function peerConflict(name = 'helmet-peers'): Promise<BrokenProject> {
  const pkg = manifest(name, {
    dependencies: { ...REACT_DEPS, 'react-helmet-async': BROKEN_VERSIONS.reactHelmetAsync },
    devDependencies: REACT_DEV_DEPS,
  });
  const files = reactApp(
    name,
    'Helmet peers',
    `import { Helmet, HelmetProvider } from 'react-helmet-async'

export default function App() {
  return (
    <HelmetProvider>
      <Helmet>
        <title>Helmet peers</title>
      </Helmet>
      <h1>Hello from the helmet peers</h1>
    </HelmetProvider>
  )
}
`,
  );
  files['package.json'] = json(pkg);
  files['package-lock.json'] = await npmLockfile(pkg, { legacyPeerDeps: true });
  return {
    name,
    files,
    expected: {
      toolError: /ERESOLVE/,
      diagnosis: { code: 'PEER_DEPENDENCY_CONFLICT', subjects: ['react-helmet-async'] },
      repair: 'USE_PEER_COMPATIBLE_VERSION',
      repairedFiles: ['package.json', 'package-lock.json'],
    },
  };
}

/** The first bytes of a 64-bit arm64 Mach-O file (an executable or a bundle such as a `.node`). */
function machO(fileType: 'execute' | 'bundle', size = 4096): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.writeUInt32LE(0xfeedfacf, 0); // MH_MAGIC_64
  bytes.writeUInt32LE(0x0100000c, 4); // CPU_TYPE_ARM64
  bytes.writeUInt32LE(0, 8); // CPU_SUBTYPE_ARM64_ALL
  bytes.writeUInt32LE(fileType === 'execute' ? 2 : 8, 12); // MH_EXECUTE | MH_BUNDLE
  return bytes;
}

/**
 * 6. A Vite app zipped on an Apple Silicon Mac with its node_modules: rolldown's and esbuild's darwin
 * binaries, fsevents' native addon. Nothing in it can run on Linux; Forge must leave it out and
 * install afresh, and say so.
 */
export function foreignNodeModules(name = 'mac-modules'): BrokenProject {
  const files = vanillaApp(
    name,
    'Zipped on a Mac',
    `import './style.css'

document.querySelector('#app').innerHTML = '<h1>Hello from a Mac</h1>'
`,
  );
  const pkgJson = (pkgName: string, version: string, extra: object = {}) =>
    json({ name: pkgName, version, ...extra });
  Object.assign(files, {
    'node_modules/.package-lock.json': json({ name, lockfileVersion: 3, requires: true, packages: {} }),
    'node_modules/vite/package.json': pkgJson('vite', BROKEN_VERSIONS.vite, { bin: { vite: 'bin/vite.js' } }),
    'node_modules/vite/bin/vite.js': "#!/usr/bin/env node\nimport('../dist/node/cli.js')\n",
    'node_modules/@rolldown/binding-darwin-arm64/package.json': pkgJson(
      '@rolldown/binding-darwin-arm64',
      '1.0.0',
      {
        os: ['darwin'],
        cpu: ['arm64'],
        main: 'rolldown-binding.darwin-arm64.node',
      },
    ),
    'node_modules/@rolldown/binding-darwin-arm64/rolldown-binding.darwin-arm64.node': machO('bundle'),
    'node_modules/@esbuild/darwin-arm64/package.json': pkgJson('@esbuild/darwin-arm64', '0.25.12', {
      os: ['darwin'],
      cpu: ['arm64'],
    }),
    'node_modules/@esbuild/darwin-arm64/bin/esbuild': machO('execute'),
    'node_modules/fsevents/package.json': pkgJson('fsevents', '2.3.3', {
      os: ['darwin'],
      main: 'fsevents.js',
    }),
    'node_modules/fsevents/fsevents.node': machO('bundle'),
  } satisfies ProjectFiles);
  return {
    name,
    files,
    expected: { toolError: null, diagnosis: null, repair: 'DROP_FOREIGN_NODE_MODULES', repairedFiles: [] },
  };
}

/**
 * 7. A missing `]` in src/totals.js (imported by src/main.js): Rolldown's parser stops at line 3,
 * column 24. Nothing to repair: the diagnosis names the file and the place.
 */
export function syntaxError(name = 'syntax-slip'): BrokenProject {
  const slip = 'const prices = [1, 2, 3;';
  return {
    name,
    files: {
      ...vanillaApp(
        name,
        'Syntax slip',
        `import './style.css'
import { total } from './totals.js'

document.querySelector('#app').innerHTML = \`<h1>Hello from the syntax slip: \${total}</h1>\`
`,
      ),
      'src/totals.js': `// Prices of the week.

${slip}
export const total = prices.reduce((sum, price) => sum + price, 0)
`,
    },
    expected: {
      toolError: /Expected `,` or `]` but found `;`/,
      // 1-based, as Rolldown prints it: the `;` where the `]` should be.
      diagnosis: { code: 'SYNTAX_ERROR', file: 'src/totals.js', line: 3, column: slip.indexOf(';') + 1 },
      repair: null,
      repairedFiles: [],
    },
  };
}

/**
 * 8. src/main.js imports './utils/format', which exists in no case (src/utils/ holds only date.js):
 * the diagnosis names the import and the file that imports it.
 */
export function missingLocalFile(name = 'missing-format'): BrokenProject {
  return {
    name,
    files: {
      ...vanillaApp(
        name,
        'Missing format',
        `import './style.css'
import { formatPrice } from './utils/format'
import { today } from './utils/date.js'

document.querySelector('#app').innerHTML = \`<h1>Hello on \${today()}: \${formatPrice(3)}</h1>\`
`,
      ),
      'src/utils/date.js': 'export const today = () => new Date().toISOString().slice(0, 10)\n',
    },
    expected: {
      toolError: /'\.\/utils\/format'/,
      diagnosis: { code: 'MISSING_FILE', file: 'src/main.js', line: 2, subjects: ['./utils/format'] },
      repair: null,
      repairedFiles: [],
    },
  };
}

/** package.json and tsconfig.json of `npm create vite`'s vanilla-ts template: `tsc --noEmit && vite build`. */
function viteTsFiles(name: string): Record<string, string> {
  return {
    'package.json': json(
      manifest(name, {
        scripts: { dev: 'vite', build: 'tsc --noEmit && vite build', preview: 'vite preview' },
        devDependencies: { typescript: BROKEN_VERSIONS.typescript, vite: BROKEN_VERSIONS.vite },
      }),
    ),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['src'],
    }),
  };
}

/**
 * 9. A TypeScript app whose build is `tsc --noEmit && vite build` (as `npm create vite` writes the
 * vanilla-ts template): src/main.ts assigns a string to a number at line 5, column 7.
 */
export function typeError(name = 'ts-mismatch'): BrokenProject {
  return {
    name,
    files: {
      ...viteTsFiles(name),
      'index.html': indexHtml('Type mismatch', '/src/main.ts'),
      'src/greet.ts': "export function greet(name: string): string {\n  return 'Hello, ' + name\n}\n",
      'src/main.ts': `import { greet } from './greet'

const app = document.querySelector<HTMLDivElement>('#app')!

const count: number = greet('Forge')
app.textContent = String(count)
`,
      '.gitignore': 'node_modules\ndist\n*.local\n',
    },
    expected: {
      toolError: /src\/main\.ts\(5,7\): error TS2322/,
      diagnosis: { code: 'TYPE_ERROR', file: 'src/main.ts', line: 5, column: 7 },
      repair: null,
      repairedFiles: [],
    },
  };
}

/**
 * 10. A Vite app whose package.json has only a `dev` script: Forge builds it with the framework's
 * own `vite build` and says so.
 */
export function missingBuildScript(name = 'no-build-script'): BrokenProject {
  return {
    name,
    files: vanillaApp(
      name,
      'No build script',
      `import './style.css'

document.querySelector('#app').innerHTML = '<h1>Hello without a build script</h1>'
`,
      { scripts: { dev: 'vite' } },
    ),
    expected: { toolError: null, diagnosis: null, repair: 'USE_FRAMEWORK_BUILD', repairedFiles: [] },
  };
}

/**
 * 11. Three errors at once, as `tsc` prints them all before Vite runs: two imports whose case differs
 * from their files (./Greeting, ./Cart) and a package the code imports but package.json does not
 * declare (clsx). RepairBot repairs all three in one pass: two imports corrected, clsx added.
 */
export function severalErrors(name = 'three-slips'): BrokenProject {
  return {
    name,
    files: {
      ...viteTsFiles(name),
      'index.html': indexHtml('Three slips', '/src/main.ts'),
      'src/greeting.ts': "export function greet(name: string): string {\n  return 'Hello, ' + name\n}\n",
      'src/cart.ts':
        'export function total(items: { price: number; quantity: number }[]): number {\n  return items.reduce((sum, i) => sum + i.price * i.quantity, 0)\n}\n',
      'src/main.ts': SEVERAL_ERRORS_MAIN,
      '.gitignore': 'node_modules\ndist\n*.local\n',
    },
    expected: {
      toolError: /src\/main\.ts\(1,23\): error TS2307/,
      diagnosis: { code: 'MISSING_PACKAGE', file: 'src/main.ts', subjects: ['clsx'] },
      repair: 'ADD_MISSING_PACKAGES',
      repairedFiles: ['package.json', 'src/main.ts'],
    },
  };
}

export const SEVERAL_ERRORS_MAIN = `import { greet } from './Greeting'
import { total } from './Cart'
import clsx from 'clsx'

const app = document.querySelector<HTMLDivElement>('#app')!
app.className = clsx('cart', { empty: false })
app.textContent = greet('Forge') + ': ' + total([{ price: 10, quantity: 3 }])
`;

/**
 * 12. A build script written as CommonJS (require) in a package.json that says "type": "module": Node
 * stops at "require is not defined in ES module scope". RepairBot renames it to build.cjs and the
 * build script with it. No registry needed.
 */
export function commonJsInEsm(name = 'cjs-in-esm'): BrokenProject {
  return {
    name,
    files: {
      'package.json': json(manifest(name, { scripts: { build: 'node build.js' }, devDependencies: {} })),
      'build.js': COMMONJS_BUILD,
      '.gitignore': 'node_modules\ndist\n',
    },
    expected: {
      toolError: /require is not defined in ES module scope/,
      diagnosis: { code: 'MODULE_FORMAT_MISMATCH', file: 'build.js', line: 1, subjects: ['build.js'] },
      repair: 'USE_COMMONJS_EXTENSION',
      repairedFiles: ['build.cjs', 'build.js', 'package.json'],
    },
  };
}

const COMMONJS_BUILD = `const fs = require('node:fs')

fs.mkdirSync('dist', { recursive: true })
fs.writeFileSync('dist/index.html', '<!doctype html><title>CommonJS</title><h1>built by build.cjs</h1>')
`;

/**
 * 13. A build that reads API_URL from the environment and stops without it; .env.example declares it
 * (with no value). ScanBot names the variable and the line that reads it; no repair invents a value.
 */
export function missingEnvVariable(name = 'needs-api-url'): BrokenProject {
  return {
    name,
    files: {
      'package.json': json(manifest(name, { scripts: { build: 'node build.js' }, devDependencies: {} })),
      'build.js': `import fs from 'node:fs'

const api = process.env.API_URL
if (!api) throw new Error('API_URL is not set')
fs.mkdirSync('dist', { recursive: true })
fs.writeFileSync('dist/index.html', \`<!doctype html><title>API</title><p>\${api}</p>\`)
`,
      '.env.example': '# Where the site fetches its data from.\nAPI_URL=\n',
      '.gitignore': 'node_modules\ndist\n.env\n',
    },
    expected: {
      toolError: /Error: API_URL is not set/,
      diagnosis: { code: 'MISSING_ENV', file: 'build.js', line: 3, subjects: ['API_URL'] },
      repair: null,
      repairedFiles: [],
    },
  };
}

/**
 * 14. A Vite app whose release-notes script uses commander 15, which asks for Node >=22.12.0 in its
 * engines; the team's .npmrc sets engine-strict, so npm refuses to install it on Node 20 (EBADENGINE).
 * The project states no Node of its own. RepairBot declares the dependency's range as engines.node in
 * package.json, where BlueprintBot reads it, so DependencyBot provides that Node and the install passes.
 */
export function nodeVersionNeeded(name = 'needs-node-22'): BrokenProject {
  return {
    name,
    files: {
      ...vanillaApp(
        name,
        'Needs Node 22',
        `import './style.css'

document.querySelector('#app').innerHTML = '<h1>Hello from a project that needs Node 22</h1>'
`,
        {
          scripts: { dev: 'vite', build: 'vite build', 'release-notes': 'node scripts/release-notes.js' },
          dependencies: { commander: BROKEN_VERSIONS.commander },
        },
      ),
      '.npmrc': 'engine-strict=true\n',
      'scripts/release-notes.js': `import { program } from 'commander'

program.option('--since <tag>', 'the last release', 'v0.0.0').parse()
console.log(\`Changes since \${program.opts().since}\`)
`,
    },
    expected: {
      toolError: /EBADENGINE/,
      diagnosis: { code: 'NODE_VERSION_MISMATCH', file: 'package.json', subjects: ['commander'] },
      repair: 'PIN_NODE_VERSION',
      repairedFiles: ['package.json'],
    },
  };
}

/**
 * 15. A Vite app whose config computes its output folder (the team's layout, dist/apps/<name>/browser,
 * from the package name): BlueprintBot cannot read it without running the config, so it plans Vite's
 * default dist, and the site lands three folders below it, deeper than the output check looks for a
 * site's root. RepairBot names the folder the build wrote, the one index.html it found, in
 * forge.config.json.
 */
export function outputElsewhere(name = 'nested-output'): BrokenProject {
  return {
    name,
    files: {
      ...vanillaApp(
        name,
        'Nested output',
        `import './style.css'

document.querySelector('#app').innerHTML = '<h1>Hello from a nested output folder</h1>'
`,
      ),
      'vite.config.js': `import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

// Every app of the team deploys from dist/apps/<name>/browser.
export default defineConfig({
  build: { outDir: \`dist/apps/\${pkg.name}/browser\` },
})
`,
    },
    expected: {
      toolError: null,
      diagnosis: {
        code: 'OUTPUT_MISSING',
        file: 'vite.config.js',
        subjects: ['dist', `dist/apps/${name}/browser`],
      },
      repair: 'SET_OUTPUT_DIR',
      repairedFiles: ['forge.config.json'],
    },
  };
}

/**
 * 16. A Node build script (ESM) that imports './lib/page' without its extension: Node's ESM loader
 * resolves no extension and stops with ERR_MODULE_NOT_FOUND, "Did you mean to import
 * "./lib/page.js"?". RepairBot writes the import with the extension of the one file Node names.
 */
export function esmMissingExtension(name = 'esm-no-extension'): BrokenProject {
  return {
    name,
    files: {
      'package.json': json(
        manifest(name, { scripts: { build: 'node scripts/build.js' }, devDependencies: {} }),
      ),
      'scripts/build.js': ESM_NO_EXTENSION_BUILD,
      'scripts/lib/page.js':
        'export const page = (title) => `<!doctype html><title>${title}</title><h1>${title}</h1>`\n',
      '.gitignore': 'node_modules\ndist\n',
    },
    expected: {
      toolError: /ERR_MODULE_NOT_FOUND/,
      diagnosis: { code: 'MISSING_FILE', file: 'scripts/build.js', line: 2, subjects: ['./lib/page'] },
      repair: 'ADD_IMPORT_EXTENSION',
      repairedFiles: ['scripts/build.js'],
    },
  };
}

export const ESM_NO_EXTENSION_BUILD = `import fs from 'node:fs'
import { page } from './lib/page'

fs.mkdirSync('dist', { recursive: true })
fs.writeFileSync('dist/index.html', page('Built without an extension'))
`;

/**
 * 17. A package.json from `npm init -y` (npm 11 writes "type": "commonjs") and a build script written
 * with import: Node stops at "Cannot use import statement outside a module". RepairBot renames it to
 * build.mjs (bytes unchanged) and the script that runs it; the type field is never flipped.
 */
export function esmInCommonJs(name = 'esm-in-cjs'): BrokenProject {
  return {
    name,
    files: {
      'package.json': json({
        name,
        version: '1.0.0',
        main: 'index.js',
        scripts: { build: 'node build.js' },
        keywords: [],
        author: '',
        license: 'ISC',
        description: '',
        type: 'commonjs',
      }),
      'build.js': `import fs from 'node:fs'

fs.mkdirSync('dist', { recursive: true })
fs.writeFileSync('dist/index.html', '<!doctype html><title>ESM</title><h1>built by build.mjs</h1>')
`,
      '.gitignore': 'node_modules\ndist\n',
    },
    expected: {
      toolError: /Cannot use import statement outside a module/,
      diagnosis: { code: 'MODULE_FORMAT_MISMATCH', file: 'build.js', line: 1, subjects: ['build.js'] },
      repair: 'USE_ESM_EXTENSION',
      repairedFiles: ['build.js', 'build.mjs', 'package.json'],
    },
  };
}

/**
 * 18. src/main.js imports formatPrice from ./format.js, which exports only formatCurrency: Rolldown
 * stops with MISSING_EXPORT at the import. Which name was meant only the author knows: explained at
 * src/main.js:2, no repair.
 */
export function missingExport(name = 'missing-export'): BrokenProject {
  return {
    name,
    files: {
      ...vanillaApp(
        name,
        'Missing export',
        `import './style.css'
import { formatPrice } from './format.js'

document.querySelector('#app').innerHTML = \`<h1>Total: \${formatPrice(12.5)}</h1>\`
`,
      ),
      'src/format.js':
        "export const formatCurrency = (n) => new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(n)\n",
    },
    expected: {
      toolError: /"formatPrice" is not exported by "src\/format\.js"/,
      diagnosis: { code: 'MISSING_EXPORT', file: 'src/main.js', line: 2, subjects: ['formatPrice'] },
      repair: null,
      repairedFiles: [],
    },
  };
}

/**
 * 19. A TypeScript app (`tsc --noEmit && vite build`) whose tsconfig asks for Node's types and whose
 * src/env.ts reads process.env, but @types/node is not declared: tsc stops with TS2688 "Cannot find
 * type definition file for 'node'" before it checks any file. RepairBot adds @types/node to devDependencies.
 */
export function missingNodeTypes(name = 'needs-node-types'): BrokenProject {
  const files = viteTsFiles(name);
  const tsconfig = JSON.parse(files['tsconfig.json']!) as { compilerOptions: Record<string, unknown> };
  // TypeScript 6 reads only the @types packages "types" names: this one names Node's.
  tsconfig.compilerOptions.types = ['node'];
  return {
    name,
    files: {
      ...files,
      'tsconfig.json': json(tsconfig),
      'index.html': indexHtml('Node types', '/src/main.ts'),
      'src/env.ts': "export const mode: string = process.env.NODE_ENV ?? 'development'\n",
      'src/main.ts': `import { mode } from './env'

document.querySelector<HTMLDivElement>('#app')!.textContent = \`Hello in \${mode} mode\`
`,
      '.gitignore': 'node_modules\ndist\n*.local\n',
    },
    expected: {
      toolError: /error TS2688: Cannot find type definition file for 'node'/,
      // tsc prints no place for TS2688: the diagnosis points at the tsconfig's "types" entry.
      diagnosis: { code: 'MISSING_PACKAGE', file: 'tsconfig.json', line: 12, subjects: ['@types/node'] },
      repair: 'ADD_MISSING_PACKAGES',
      repairedFiles: ['package.json'],
    },
  };
}

/**
 * 20. The build script cleans with rimraf, which package.json does not declare (it was installed
 * globally on the author's machine): "sh: 1: rimraf: not found". RepairBot adds it to devDependencies.
 */
export function commandNotInstalled(name = 'rimraf-missing'): BrokenProject {
  return {
    name,
    files: vanillaApp(
      name,
      'Clean build',
      `import './style.css'

document.querySelector('#app').innerHTML = '<h1>Hello from a clean build</h1>'
`,
      { scripts: { dev: 'vite', build: 'rimraf dist && vite build', preview: 'vite preview' } },
    ),
    expected: {
      toolError: /rimraf: not found/,
      diagnosis: { code: 'MISSING_PACKAGE', file: 'package.json', subjects: ['rimraf'] },
      repair: 'ADD_MISSING_PACKAGES',
      repairedFiles: ['package.json'],
    },
  };
}

/**
 * 21. A package.json edited by hand with a trailing comma after the last script: no tool can read it.
 * The upload is refused with the place (line and column of the comma); RepairBot never rewrites a
 * manifest it cannot parse (a build of it, after an edit in the workspace, is diagnosed the same way).
 */
export function invalidPackageJson(name = 'json-slip'): BrokenProject {
  const files = vanillaApp(
    name,
    'JSON slip',
    `import './style.css'

document.querySelector('#app').innerHTML = '<h1>Hello from a JSON slip</h1>'
`,
  );
  // The comma after the last script: line 9, column 30.
  files['package.json'] = String(files['package.json']).replace(
    '"preview": "vite preview"',
    '"preview": "vite preview",',
  );
  return {
    name,
    files,
    expected: {
      toolError: null,
      // Refused at the upload: BlueprintBot cannot plan what it cannot read.
      diagnosis: null,
      refusedUpload: { code: 'BLUEPRINT_INVALID_PACKAGE_JSON', file: 'package.json', line: 9, column: 30 },
      repair: null,
      repairedFiles: [],
    },
  };
}

/**
 * 22. src/main.js imports './styles/theme.css', a stylesheet that was never committed: Vite cannot
 * resolve it. Explained with the importing file and line; what the stylesheet held only its author knows.
 */
export function missingStylesheet(name = 'missing-theme'): BrokenProject {
  return {
    name,
    files: vanillaApp(
      name,
      'Missing theme',
      `import './style.css'
import './styles/theme.css'

document.querySelector('#app').innerHTML = '<h1>Hello without a theme</h1>'
`,
    ),
    expected: {
      toolError: /'\.\/styles\/theme\.css'|styles\/theme\.css/,
      diagnosis: { code: 'MISSING_FILE', file: 'src/main.js', line: 2, subjects: ['./styles/theme.css'] },
      repair: null,
      repairedFiles: [],
    },
  };
}

/** Every broken project, by the kind of breakage (the lockfile ones are made with the real npm). */
export async function brokenProjects(): Promise<Record<BrokenKind, BrokenProject>> {
  const [drifted, peers] = await Promise.all([driftedLockfile(), peerConflict()]);
  return {
    undeclaredPackage: undeclaredPackage(),
    missingVitePlugin: missingVitePlugin(),
    importCaseMismatch: importCaseMismatch(),
    driftedLockfile: drifted,
    peerConflict: peers,
    foreignNodeModules: foreignNodeModules(),
    syntaxError: syntaxError(),
    missingLocalFile: missingLocalFile(),
    typeError: typeError(),
    missingBuildScript: missingBuildScript(),
    severalErrors: severalErrors(),
    commonJsInEsm: commonJsInEsm(),
    missingEnvVariable: missingEnvVariable(),
    nodeVersionNeeded: nodeVersionNeeded(),
    outputElsewhere: outputElsewhere(),
    esmMissingExtension: esmMissingExtension(),
    esmInCommonJs: esmInCommonJs(),
    missingExport: missingExport(),
    missingNodeTypes: missingNodeTypes(),
    commandNotInstalled: commandNotInstalled(),
    invalidPackageJson: invalidPackageJson(),
    missingStylesheet: missingStylesheet(),
  };
}

export type BrokenKind =
  | 'undeclaredPackage'
  | 'missingVitePlugin'
  | 'importCaseMismatch'
  | 'driftedLockfile'
  | 'peerConflict'
  | 'foreignNodeModules'
  | 'syntaxError'
  | 'missingLocalFile'
  | 'typeError'
  | 'missingBuildScript'
  | 'severalErrors'
  | 'commonJsInEsm'
  | 'missingEnvVariable'
  | 'nodeVersionNeeded'
  | 'outputElsewhere'
  | 'esmMissingExtension'
  | 'esmInCommonJs'
  | 'missingExport'
  | 'missingNodeTypes'
  | 'commandNotInstalled'
  | 'invalidPackageJson'
  | 'missingStylesheet';

const lockfiles = new Map<string, Promise<string>>();

/**
 * package-lock.json for a manifest, written by the real npm (`npm install --package-lock-only`:
 * registry metadata only, no tarballs), once per manifest and options in this process.
 */
export function npmLockfile(pkg: object, options: { legacyPeerDeps?: boolean } = {}): Promise<string> {
  const key = JSON.stringify([pkg, options]);
  let lock = lockfiles.get(key);
  if (!lock) {
    lock = writeLockfile(pkg, options);
    lockfiles.set(key, lock);
    // A failed run is not remembered: the next caller tries again.
    lock.catch(() => lockfiles.delete(key));
  }
  return lock;
}

async function writeLockfile(pkg: object, options: { legacyPeerDeps?: boolean }): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-npm-lock-'));
  try {
    fs.writeFileSync(path.join(scratch, 'package.json'), json(pkg));
    const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'];
    if (options.legacyPeerDeps) args.push('--legacy-peer-deps');
    try {
      await run('npm', args, { cwd: scratch, maxBuffer: 16 * 1024 * 1024 });
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      throw new Error(`npm ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
    }
    return fs.readFileSync(path.join(scratch, 'package-lock.json'), 'utf8');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
