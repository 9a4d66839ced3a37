import path from 'node:path';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import type { Logger } from '../../logging/logger.ts';
import { buildPlatformArchive, listArchives, type PlatformArchive } from './archive.ts';
import { findForgeRoot } from './source.ts';

/** The status texts of POST /api/package-platform (docs/packaging.md). */
export const PACKAGE_STATUS = {
  triggered: 'Build triggered',
  running: 'Build already running',
  complete: (a: { name: string; bytes: number }) => `Build complete: ${a.name} (${formatMB(a.bytes)})`,
  failed: (reason: string) => `Build failed: ${reason}`,
} as const;

const formatMB = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export interface PackagingDeps {
  fleet: Fleet;
  logger: Logger;
  home: string;
  version: string;
  /** The Forge to package; default: the one running this daemon (findForgeRoot). */
  root?: string | null;
  /** The installed extensions to bundle (name, current version); default: the newest on disk. */
  extensions?: () => ReadonlyArray<{ name: string; version: string }>;
  /** Told when an archive is made (the audit log). */
  onPackaged?: (archive: PlatformArchive, actor: string) => void;
}

export interface PackagingService {
  /**
   * The answer to POST /api/package-platform, at once. While a build runs: "Build already running".
   * When one has finished since the last answer: its result ("Build complete: …" / "Build failed:
   * …"), reported once, without starting another (the web app polls nothing, so this is how the
   * result reaches it). Otherwise a new build starts: "Build triggered".
   */
  trigger(actor: string): { started: boolean; status: string };
  /** The text of the last finished build, or null before the first. */
  lastResult(): string | null;
  running(): boolean;
  /** The newest archive in FORGE_HOME/packages, or null. */
  latest(): Promise<{ name: string; file: string; bytes: number } | null>;
  /** Resolves when the build in flight (if any) has finished. */
  idle(): Promise<void>;
}

/**
 * PackageBot's job: one build at a time, run on the fleet in the background (the request that
 * triggers it answers at once). The latest result is kept in memory for the next request's answer.
 */
export function createPackagingService(deps: PackagingDeps): PackagingService {
  const packagesDir = path.join(deps.home, 'packages');
  let inFlight: Promise<void> | null = null;
  let last: string | null = null;
  /** The last result has not been the answer to a request yet. */
  let unreported = false;

  const build = async (actor: string): Promise<void> => {
    const root = deps.root === undefined ? findForgeRoot() : deps.root;
    try {
      const archive = await deps.fleet.run(
        'PackageBot',
        { label: 'package the platform' },
        async () => {
          if (!root) {
            throw new Error(
              'Cannot find the Forge installation this daemon runs from (no @forge/daemon package.json above it).',
            );
          }
          return buildPlatformArchive({
            root,
            home: deps.home,
            version: deps.version,
            ...(deps.extensions ? { extensions: deps.extensions() } : {}),
          });
        },
        { summary: (a) => PACKAGE_STATUS.complete(a) },
      );
      last = PACKAGE_STATUS.complete(archive);
      deps.logger.info({ archive: archive.file, bytes: archive.bytes, actor }, 'platform packaged');
      try {
        deps.onPackaged?.(archive, actor);
      } catch (err) {
        deps.logger.warn({ err }, 'recording the package in the audit log failed');
      }
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      last = PACKAGE_STATUS.failed(reason);
      deps.logger.warn({ err, actor }, 'packaging the platform failed');
    }
  };

  return {
    trigger(actor) {
      if (inFlight) return { started: false, status: PACKAGE_STATUS.running };
      if (unreported && last !== null) {
        unreported = false;
        return { started: false, status: last };
      }
      inFlight = build(actor).finally(() => {
        inFlight = null;
        unreported = true;
      });
      return { started: true, status: PACKAGE_STATUS.triggered };
    },
    lastResult: () => last,
    running: () => inFlight !== null,
    async latest() {
      const [newest] = await listArchives(packagesDir);
      return newest ? { name: newest.name, file: newest.file, bytes: newest.bytes } : null;
    },
    async idle() {
      await inFlight;
    },
  };
}
