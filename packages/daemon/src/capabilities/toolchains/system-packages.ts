import { execFile } from 'node:child_process';
import fs from 'node:fs';

/** The packages that carry a tool, by the package manager of each OS family Forge names. */
export interface SystemPackages {
  /** Debian and Ubuntu (apt-get); null when their archives do not carry it. */
  apt: string[] | null;
  /** Fedora and RHEL (dnf). */
  dnf: string[] | null;
  /** Alpine (apk). */
  apk: string[] | null;
  /** macOS (Homebrew). */
  brew: string[] | null;
  /** What to do where none of those carries it (the tool's own installer, named, never run). */
  otherwise: string;
}

type Family = 'apt' | 'dnf' | 'apk' | 'brew' | null;

let family: Family | undefined;

/** The package manager family of the machine the daemon runs on, read once from /etc/os-release. */
function osFamily(): Family {
  if (family !== undefined) return family;
  if (process.platform === 'darwin') return (family = 'brew');
  let text = '';
  try {
    text = fs.readFileSync('/etc/os-release', 'utf8');
  } catch {
    return (family = null);
  }
  const ids = [/^ID=(.*)$/m, /^ID_LIKE=(.*)$/m]
    .map((re) => re.exec(text)?.[1]?.replace(/"/g, '') ?? '')
    .join(' ')
    .split(/\s+/);
  if (ids.some((id) => id === 'debian' || id === 'ubuntu')) family = 'apt';
  else if (ids.some((id) => ['fedora', 'rhel', 'centos'].includes(id))) family = 'dnf';
  else if (ids.includes('alpine')) family = 'apk';
  else family = null;
  return family;
}

/**
 * The one command that installs a tool on this machine's OS ("sudo apt-get install -y golang-go" on
 * Debian), or the tool's own instructions where the OS's archive does not carry it.
 */
export function installCommand(packages: SystemPackages): string {
  const root = process.getuid?.() === 0 ? '' : 'sudo ';
  switch (osFamily()) {
    case 'apt':
      if (packages.apt) return `${root}apt-get install -y ${packages.apt.join(' ')}`;
      break;
    case 'dnf':
      if (packages.dnf) return `${root}dnf install -y ${packages.dnf.join(' ')}`;
      break;
    case 'apk':
      if (packages.apk) return `${root}apk add ${packages.apk.join(' ')}`;
      break;
    case 'brew':
      if (packages.brew) return `brew install ${packages.brew.join(' ')}`;
      break;
    case null:
      break;
  }
  return packages.otherwise;
}

/**
 * The version of a tool this OS's archive offers ("3.11.2" for Debian bookworm's python3, read from
 * `apt-cache policy`'s candidate, epoch and Debian revision left out), or null where Forge cannot tell
 * (not an apt system, no candidate, apt-cache missing or slow): then the install command is named as is.
 */
export function archiveVersion(packages: SystemPackages, signal?: AbortSignal): Promise<string | null> {
  const first = packages.apt?.[0];
  if (osFamily() !== 'apt' || !first) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile('apt-cache', ['policy', first], { timeout: 10_000, signal, encoding: 'utf8' }, (err, stdout) => {
      const candidate = err ? undefined : /^\s*Candidate:\s*(\S+)/m.exec(stdout)?.[1];
      const version =
        candidate && candidate !== '(none)'
          ? /^(?:\d+:)?(\d+(?:\.\d+){0,2})/.exec(candidate)?.[1]
          : undefined;
      resolve(version ?? null);
    });
  });
}
