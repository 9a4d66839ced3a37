import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { STACK_LABELS, type Blueprint, type StackRuntime } from '@forge/shared';
import { archiveVersion, installCommand, type SystemPackages } from './system-packages.ts';
import { stackPackages } from '../detect/stacks.ts';

/** A stack's tool as found on this machine. */
export interface FoundTool {
  /** Its full path on PATH, or the real interpreter behind a shim (Python's sys.executable). */
  path: string;
  /** Its version, e.g. "3.11.2", "1.19.8". */
  version: string;
}

/** Why the tool a stack needs cannot run the build, in one sentence, and the one thing to do. */
export interface MissingTool {
  message: string;
  hint: string;
}

/** How each tool tells its version (some print it on stderr; Python also names its real executable). */
const VERSION_ARGS: Record<string, string[]> = {
  python3: ['-c', 'import sys; print(sys.executable); print("%d.%d.%d" % sys.version_info[:3])'],
  go: ['env', 'GOVERSION'],
  php: ['-r', 'echo PHP_VERSION, "\\n";'],
  hugo: ['version'],
  java: ['-version'],
};

/** The first executable file named `tool` in the folders of `pathEnv`. */
export function onPath(tool: string, pathEnv: string): string | null {
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, tool);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const compare = (a: string, b: string): number => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/** Whether `version` is at least `minimum`, compared on the parts `minimum` states ("1.22" ≤ "1.22.0"). */
export const satisfiesMinimum = (version: string, minimum: string): boolean =>
  compare(version.split('.').slice(0, minimum.split('.').length).join('.'), minimum) >= 0;

function run(file: string, args: string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 15_000, signal, encoding: 'utf8' }, (_err, stdout, stderr) =>
      resolve(`${stdout ?? ''}\n${stderr ?? ''}`),
    );
  });
}

/**
 * The tool a stack's plan needs, on the daemon's PATH, at the version the project asks for — or why
 * not: missing, or older than asked for, naming the stack, its evidence, the version and the command
 * that installs it on this OS.
 */
export async function findStackTool(
  bp: Pick<Blueprint, 'stack' | 'runtime' | 'decisions'>,
  pathEnv: string,
  signal?: AbortSignal,
): Promise<FoundTool | MissingTool> {
  const runtime = bp.runtime as StackRuntime;
  const stack = bp.stack ?? 'javascript';
  const evidence = bp.decisions.find((d) => d.field === 'stack')?.file ?? runtime.versionFile ?? 'its files';
  const name = `${STACK_LABELS[stack]} (${evidence})`;
  const need = runtime.minimum ? `${runtime.tool} ${runtime.minimum} or newer` : runtime.tool;
  const asked =
    runtime.wanted && runtime.versionFile ? ` (${runtime.versionFile} asks for ${runtime.wanted})` : '';
  const hint = `Install it with \`${runtime.installCommand}\` on the machine that runs Forge (or put ${runtime.tool} on the daemon's PATH), then build again.`;
  // The OS's own package is the advice only when it is new enough: "apt-get install golang-go" on a
  // Debian whose golang-go is 1.19 would not give the 1.22 the project asks for.
  const packages = stack === 'javascript' || stack === 'static' ? null : stackPackages(stack);
  const archive = runtime.minimum && packages ? await archiveVersion(packages, signal) : null;
  const otherWay =
    packages && archive && runtime.minimum && !satisfiesMinimum(archive, runtime.minimum)
      ? {
          said: `this OS's package carries ${archive}. Install ${need} another way: ${packages.otherwise}`,
          hint: `This OS's ${runtime.tool} package is ${archive}, older than ${runtime.minimum}: install ${need} another way (${packages.otherwise}) on the machine that runs Forge`,
        }
      : null;
  const found = onPath(runtime.tool, pathEnv);
  if (!found && otherWay) {
    return {
      message: `${name} needs ${need}${asked}; ${runtime.tool} is not on this machine's PATH, and ${otherWay.said}`,
      hint: `${otherWay.hint}, then build again.`,
    };
  }
  if (!found) {
    return {
      message: `${name} needs ${need}${asked}; ${runtime.tool} is not on this machine's PATH. Install it with: ${runtime.installCommand}`,
      hint,
    };
  }
  const out = await run(found, VERSION_ARGS[runtime.tool] ?? ['--version'], signal);
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(out.replace(/^\/\S*$/m, ''))?.[1];
  const real = runtime.tool === 'python3' ? out.split('\n')[0]?.trim() : undefined;
  if (!version) {
    return {
      message: `${name} needs ${need}${asked}; ${found} did not tell its version (${out.trim().split('\n')[0] || 'no output'}).`,
      hint,
    };
  }
  if (runtime.minimum && !satisfiesMinimum(version, runtime.minimum)) {
    if (otherWay) {
      return {
        message: `${name} needs ${need}${asked}; this machine has ${runtime.tool} ${version} (${found}), and ${otherWay.said}`,
        hint: `${otherWay.hint}, or ask for the ${runtime.tool} ${version} this machine has in ${runtime.versionFile ?? 'the project'}, then build again.`,
      };
    }
    return {
      message: `${name} needs ${need}${asked}; this machine has ${runtime.tool} ${version} (${found}). Install a newer one with: ${runtime.installCommand}`,
      hint: `Install ${runtime.tool} ${runtime.minimum} or newer (\`${runtime.installCommand}\` where the OS carries it) on the machine that runs Forge, or ask for the ${runtime.tool} ${version} this machine has in ${runtime.versionFile ?? 'the project'}, then build again.`,
    };
  }
  return { path: real && path.isAbsolute(real) ? real : found, version };
}

/** Tools a project's own files ask to install with, besides its stack's tool, and what carries them. */
const INSTALL_TOOLS: Record<string, { file: string; packages: SystemPackages }> = {
  pipenv: {
    file: 'Pipfile',
    packages: {
      apt: ['pipenv'],
      dnf: ['pipenv'],
      apk: null,
      brew: ['pipenv'],
      otherwise: 'python3 -m pip install --user pipenv',
    },
  },
  bundle: {
    file: 'Gemfile',
    packages: {
      apt: ['ruby-bundler'],
      dnf: ['rubygem-bundler'],
      apk: ['ruby-bundler'],
      brew: null,
      otherwise: 'gem install bundler',
    },
  },
};

/**
 * The tool the plan's install runs (pipenv for a Pipfile, Bundler for a Gemfile) when it is not on
 * PATH: why, naming the stack, the file that asks for it and the command that installs it on this OS.
 */
export function missingInstallTool(
  bp: Pick<Blueprint, 'stack' | 'install'>,
  pathEnv: string,
): MissingTool | null {
  const argv = bp.install ?? [];
  const tool = Object.keys(INSTALL_TOOLS).find(
    (name) => argv[0] === name || (argv[0] === 'sh' && new RegExp(`^${name} `).test(argv[2] ?? '')),
  );
  if (!tool || onPath(tool, pathEnv)) return null;
  const { file, packages } = INSTALL_TOOLS[tool]!;
  const command = installCommand(packages);
  return {
    message: `${STACK_LABELS[bp.stack ?? 'javascript']} (${file}) installs with ${tool}; ${tool} is not on this machine's PATH. Install it with: ${command}`,
    hint: `Install it with \`${command}\` on the machine that runs Forge (or put ${tool} on the daemon's PATH), then build again.`,
  };
}
