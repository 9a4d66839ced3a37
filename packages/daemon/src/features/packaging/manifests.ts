import { ENTRY_FILES, PACKAGED } from './source.ts';

/** The Node versions the packaged Forge needs (the daemon and CLI target node20; 20.19 loads ESM from require). */
export const NODE_RANGE = '>=20.19';

interface PackageJson {
  name?: string;
  version?: string;
  description?: string;
  type?: string;
  bin?: unknown;
  dependencies?: Record<string, string>;
}

const packagedNames: ReadonlySet<string> = new Set(PACKAGED.map((p) => p.name));

/**
 * A package's package.json as the archive ships it: production dependencies only. Workspace links
 * become `*`, which npm resolves to the archive's own workspace of that name; workspace packages the
 * archive does not carry are dropped (@forge/shared is bundled into the daemon, CLI and TUI by tsup).
 * The web app's dist is a self-contained static bundle, so it installs nothing. `exports` keeps
 * package.json, the path the CLI and daemon resolve to find each other and the web app, and for the
 * terminal dashboard its built entry, which `forge tui` imports.
 */
export function productionManifest(dir: string, pkg: PackageJson): Record<string, unknown> {
  const dependencies: Record<string, string> = {};
  if (dir !== 'web') {
    for (const [name, spec] of Object.entries(pkg.dependencies ?? {})) {
      if (!spec.startsWith('workspace:')) dependencies[name] = spec;
      else if (packagedNames.has(name)) dependencies[name] = '*';
    }
  }
  return {
    name: pkg.name,
    version: pkg.version,
    private: true,
    type: pkg.type ?? 'module',
    ...(pkg.description ? { description: pkg.description } : {}),
    ...(pkg.bin ? { bin: pkg.bin } : {}),
    exports: {
      ...(dir === 'tui' ? { '.': `./${ENTRY_FILES.tui}` } : {}),
      './package.json': './package.json',
    },
    engines: { node: NODE_RANGE },
    dependencies,
  };
}

/** The archive's root package.json: an npm workspace of the packaged packages, so one install links them. */
export function rootManifest(version: string): Record<string, unknown> {
  return {
    name: 'forge-platform',
    version,
    private: true,
    type: 'module',
    description: 'Forge, packaged by PackageBot: `sh install.sh` installs and starts it.',
    engines: { node: NODE_RANGE },
    workspaces: PACKAGED.map((p) => `packages/${p.dir}`),
    scripts: { start: 'node packages/cli/bin/forge.js daemon run' },
  };
}

/**
 * install.sh, the one command of an unpacked archive: checks Node, installs the production
 * dependencies from the npm registry (once: a second run finds them and goes on), writes the `forge`
 * launcher, then starts the daemon in the foreground. The bundled extensions stay in the archive's
 * extensions/ folder: the daemon registers them at its first start (extensions/bundled.ts). `--no-start` stops after
 * installing; other arguments go to npm (e.g. `--prefer-offline`). FORGE_PORT, FORGE_HOST and
 * FORGE_HOME choose where the daemon listens and keeps its data.
 */
export const INSTALL_SH = `#!/bin/sh
# Installs this Forge and starts it. Usage: sh install.sh [--no-start] [extra npm install arguments]
set -eu
cd "$(dirname "$0")"
ROOT=$(pwd)

# --no-start is ours; every other argument stays in "$@" for npm, quoting intact.
START=1
for arg do
  shift
  case "$arg" in
    --no-start) START=0 ;;
    *) set -- "$@" "$arg" ;;
  esac
done

if ! command -v node >/dev/null 2>&1; then
  echo "error: Node.js ${NODE_RANGE} is required, and node is not on the PATH." >&2
  exit 1
fi
node -e '
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error("error: Node.js ${NODE_RANGE} is required; this is " + process.version + ".");
  process.exit(1);
}'

VERSION=$(node -p 'require("./package.json").version')
if [ -f node_modules/.forge-installed ] && [ "$(cat node_modules/.forge-installed)" = "$VERSION" ]; then
  echo "Forge $VERSION's dependencies are already installed."
else
  if ! command -v npm >/dev/null 2>&1; then
    echo "error: npm is required (it comes with Node.js) and is not on the PATH." >&2
    exit 1
  fi
  # better-sqlite3 is compiled when its prebuilt binary cannot be fetched, and node-gyp then
  # downloads Node's headers unless told where they are: a Node installed with them keeps them
  # beside it, so only the npm registry is needed.
  NODE_PREFIX=$(node -p 'require("path").resolve(process.execPath, "../..")')
  if [ -z "\${npm_config_nodedir:-}" ] && [ -f "$NODE_PREFIX/include/node/common.gypi" ]; then
    export npm_config_nodedir="$NODE_PREFIX"
  fi
  echo "Installing Forge's dependencies from the npm registry..."
  npm install --omit=dev --no-audit --no-fund "$@"
  echo "$VERSION" > node_modules/.forge-installed
fi

cat > forge <<'LAUNCHER'
#!/bin/sh
# The forge command of this installed Forge.
DIR=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
exec node "$DIR/packages/cli/bin/forge.js" "$@"
LAUNCHER
chmod +x forge

echo "Forge is installed in $ROOT."
if [ "$START" = 0 ]; then
  echo "Start it with: ./forge daemon run (or sh install.sh again)"
  exit 0
fi
echo "Starting Forge (Ctrl+C stops it; start it again with: ./forge daemon run)..."
exec node packages/cli/bin/forge.js daemon run
`;

export function readme(name: string, version: string, createdAt: string): string {
  return `# ${name}

Forge ${version}, packaged by PackageBot on ${createdAt}.

## Install and run

Needs Node.js ${NODE_RANGE} (with npm) and access to the npm registry.

    unzip ${name}.zip
    sh ${name}/install.sh

install.sh installs the dependencies (the first time only), then starts Forge, which prints the URL
it serves (default http://127.0.0.1:4317). Ctrl+C stops it; \`./forge daemon run\` (or install.sh
again) starts it later, \`sh install.sh --no-start\` only installs. Environment: FORGE_HOME (where
projects, builds and extensions live), FORGE_PORT (0 picks a free port), FORGE_HOST, FORGE_TOKEN.
\`./forge --help\` lists every command; \`./forge tui\` opens the terminal dashboard.

## What is inside

- packages/daemon: the daemon (dist/main.js), packages/cli: the forge command, packages/web: the
  browser workspace the daemon serves, packages/tui: the terminal dashboard (\`forge tui\`). An npm
  workspace: \`npm install --omit=dev\` links them.
- extensions/: the extensions installed where this was packaged. Forge registers each one at its
  first start (\`./forge ext ls\` shows them); one you uninstall stays uninstalled, and one of the
  same name you installed yourself is left alone.
- install.sh: checks Node, runs \`npm install --omit=dev\` once (extra arguments go to npm), writes
  ./forge, then starts the daemon (not with --no-start).
`;
}
