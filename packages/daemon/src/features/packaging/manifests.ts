import { PACKAGED } from './source.ts';

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
 * archive does not carry are dropped (@forge/shared is bundled into the daemon and CLI by tsup,
 * @forge/tui is loaded only by `forge tui`). The web app's dist is a self-contained static bundle, so
 * it installs nothing. `exports` keeps only package.json, the one path resolved at run time (the CLI
 * finds the daemon, the daemon finds the web app through it).
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
    exports: { './package.json': './package.json' },
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
    description: 'Forge, packaged by PackageBot: run `sh install.sh`, then `./forge daemon run`.',
    engines: { node: NODE_RANGE },
    workspaces: PACKAGED.map((p) => `packages/${p.dir}`),
    scripts: { start: 'node packages/cli/bin/forge.js daemon run' },
  };
}

/**
 * install.sh: checks Node, installs the production dependencies from the npm registry (extra
 * arguments go to npm, e.g. `--prefer-offline`), writes the `forge` launcher, and copies the bundled
 * extensions into the FORGE_HOME the installed daemon will use (never over an existing one).
 */
export const INSTALL_SH = `#!/bin/sh
# Installs this Forge. Usage: sh install.sh [extra npm install arguments]
set -eu
cd "$(dirname "$0")"
ROOT=$(pwd)

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
if ! command -v npm >/dev/null 2>&1; then
  echo "error: npm is required (it comes with Node.js) and is not on the PATH." >&2
  exit 1
fi

echo "Installing Forge's dependencies from the npm registry..."
npm install --omit=dev --no-audit --no-fund "$@"

cat > forge <<'LAUNCHER'
#!/bin/sh
# The forge command of this installed Forge.
DIR=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
exec node "$DIR/packages/cli/bin/forge.js" "$@"
LAUNCHER
chmod +x forge

if [ -d extensions ] && [ -n "$(ls -A extensions 2>/dev/null)" ]; then
  HOME_DIR=$(node packages/daemon/dist/main.js print-config | sed -n 's/^home  *//p')
  if [ -n "$HOME_DIR" ]; then
    mkdir -p "$HOME_DIR/extensions"
    for ext in extensions/*; do
      name=$(basename "$ext")
      if [ -e "$HOME_DIR/extensions/$name" ]; then
        echo "Extension $name is already in $HOME_DIR/extensions: left as it is."
      else
        cp -R "$ext" "$HOME_DIR/extensions/$name"
        echo "Extension $name installed into $HOME_DIR/extensions."
      fi
    done
  fi
fi

echo "Forge is installed in $ROOT. Start it with: ./forge daemon run"
`;

export function readme(name: string, version: string, createdAt: string): string {
  return `# ${name}

Forge ${version}, packaged by PackageBot on ${createdAt}.

## Install and run

Needs Node.js ${NODE_RANGE} (with npm) and access to the npm registry.

    unzip ${name}.zip
    cd ${name}
    sh install.sh
    ./forge daemon run

\`./forge daemon run\` prints the URL it serves (default http://127.0.0.1:4317). Options: \`--port N\`
(0 picks a free port), \`--host H\`; environment: FORGE_HOME (where projects, builds and extensions
live), FORGE_PORT, FORGE_HOST, FORGE_TOKEN. \`./forge --help\` lists every command.

## What is inside

- packages/daemon: the daemon (dist/main.js), packages/cli: the forge command, packages/web: the
  browser workspace the daemon serves. An npm workspace: \`npm install --omit=dev\` links them.
- extensions/: the extensions installed where this was packaged; install.sh copies them into the
  FORGE_HOME of this machine (an extension already there is left alone).
- install.sh: checks Node, runs \`npm install --omit=dev\` (extra arguments go to npm), writes ./forge.
`;
}
