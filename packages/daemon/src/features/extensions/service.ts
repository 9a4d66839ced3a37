import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Extension, ExtensionManifest } from '@forge/shared';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { Logger } from '../../logging/logger.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import type { Store } from '../../store/store.ts';
import { EXTENSION_EXTRACT_LIMITS, RESERVED_ROUTE_SEGMENTS } from './limits.ts';
import { readManifest } from './manifest.ts';
import { createExtensionRegistry, type ExtensionRecord } from './registry.ts';
import { readBundle, readBundledSeen, writeBundledSeen, type BundledExtension } from './bundled.ts';
import { startExtensionServer, type ExtensionServer } from './server.ts';

/**
 * ExtensionBot: installs, serves and removes extensions. Files live under
 * FORGE_HOME/extensions/<name>/<version>/ (the current version and the one before it); the registry
 * is the store's `extensions` table; each installed extension is served by its own static server
 * (server.ts) on its own loopback origin. Nothing of an extension ever runs inside the daemon.
 *
 * Installs and removals run one at a time (two uploads of the same name never interleave), each as
 * a job of ExtensionBot on the fleet, so its card shows what it did.
 */

export interface ExtensionServiceDeps {
  /** FORGE_HOME/extensions */
  extensionsDir: string;
  /** Scratch space on the same file system (FORGE_HOME/tmp): staging, folders set aside. */
  tmpDir: string;
  store: Store;
  fleet: Fleet;
  logger: Logger;
  /**
   * The `extensions/` folder an installed archive of Forge carries (bundled.ts): its extensions are
   * registered at start, each once. null or absent: none.
   */
  bundledDir?: string | null;
}

export interface InstallResult {
  extension: Extension;
  /** The version this install replaced, or null for a first install. */
  upgradedFrom: string | null;
}

/** Folders of ExtensionBot in tmpDir (the daemon clears tmp at every start: see fs/atomic-write.ts sweepScratch). */
const SCRATCH_PREFIX = 'extension-';

const scratch = (tmpDir: string, what: string) =>
  path.join(tmpDir, `${SCRATCH_PREFIX}${what}-${randomBytes(6).toString('hex')}`);

const segmentsOf = (route: string) => route.split('/').filter(Boolean);

/** Whether one route is the other or lies under it ("/ext/a" and "/ext/a/b" would shadow each other). */
const overlaps = (a: string, b: string): boolean => {
  const [x, y] = [segmentsOf(a), segmentsOf(b)];
  const n = Math.min(x.length, y.length);
  return x.slice(0, n).join('/') === y.slice(0, n).join('/');
};

/** Who already answers at `route`, in words; null when it is free. */
export function routeOwner(route: string, others: readonly ExtensionRecord[]): string | null {
  const first = segmentsOf(route)[0];
  if (first === undefined) return 'the workspace itself (/)';
  if (RESERVED_ROUTE_SEGMENTS.has(first)) return `the workspace (/${first})`;
  const other = others.find((o) => overlaps(o.route, route));
  return other ? `the extension "${other.name}" (${other.route})` : null;
}

const entryUrl = (origin: string, entry: string) =>
  `${origin}/${entry.split('/').map(encodeURIComponent).join('/')}`;

export function createExtensionService(deps: ExtensionServiceDeps) {
  const { extensionsDir, tmpDir, fleet, logger } = deps;
  const registry = createExtensionRegistry(deps.store);
  const records = new Map<string, ExtensionRecord>();
  const servers = new Map<string, ExtensionServer>();
  let closed = false;

  const versionDir = (name: string, version: string) => path.join(extensionsDir, name, version);

  const serve = async (record: ExtensionRecord): Promise<void> => {
    const dir = versionDir(record.name, record.version);
    try {
      const server = await startExtensionServer(dir);
      if (closed) await server.close();
      else servers.set(record.name, server);
    } catch (err) {
      logger.warn({ extension: record.name, err: (err as Error).message }, 'extension server did not start');
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn);
    queue = next.catch(() => {});
    return next;
  };

  const toExtension = (record: ExtensionRecord): Extension => {
    const server = servers.get(record.name);
    return {
      name: record.name,
      displayName: record.displayName,
      route: record.route,
      url: server ? entryUrl(server.origin, record.entry) : null,
      version: record.version,
      description: record.description,
      installedAt: record.installedAt,
      previousVersion: record.previousVersion,
    };
  };

  /** Keep only the current and the previous version's folders. */
  const prune = async (record: ExtensionRecord) => {
    const keep = new Set([record.version, record.previousVersion].filter((v): v is string => v !== null));
    const dir = path.join(extensionsDir, record.name);
    for (const version of await readdir(dir).catch(() => [] as string[])) {
      if (!keep.has(version)) await rm(path.join(dir, version), { recursive: true, force: true });
    }
  };

  /** ROUTE_TAKEN when another extension (or the workspace) answers at the manifest's route. */
  const checkRoute = (manifest: ExtensionManifest, what: string) => {
    const owner = routeOwner(
      manifest.route,
      [...records.values()].filter((r) => r.name !== manifest.name),
    );
    if (owner) {
      throw new ForgeError('ROUTE_TAKEN', `The route ${manifest.route} ${what} ${owner}.`, {
        route: manifest.route,
      });
    }
  };

  /** The registry row of a version, from its own manifest. */
  const recordOf = (manifest: ExtensionManifest, previousVersion: string | null): ExtensionRecord => ({
    name: manifest.name,
    displayName: manifest.displayName,
    route: manifest.route,
    description: manifest.description,
    version: manifest.version,
    entry: manifest.entry,
    previousVersion,
    installedAt: new Date().toISOString(),
  });

  /** `record` is current, served by `server` (already started); the server it replaces stops. */
  const activate = async (record: ExtensionRecord, server: ExtensionServer) => {
    records.set(record.name, record);
    const old = servers.get(record.name);
    servers.set(record.name, server);
    await old?.close();
    if (closed) await server.close();
  };

  /** Install or upgrade from the files `fill` puts into a fresh scratch folder. */
  const installFrom = async (fill: (incoming: string) => Promise<void>): Promise<InstallResult> => {
    const incoming = scratch(tmpDir, 'incoming');
    let aside: string | null = null;
    try {
      await fill(incoming);
      const manifest = await readManifest(incoming);
      checkRoute(manifest, 'is already taken by');
      const previous = records.get(manifest.name) ?? null;
      const target = versionDir(manifest.name, manifest.version);
      await mkdir(path.dirname(target), { recursive: true });
      // Reinstalling the same version replaces it: the old copy is set aside until the new one is in.
      if (existsSync(target)) {
        aside = scratch(tmpDir, 'replaced');
        await rename(target, aside);
      }
      await rename(incoming, target);
      const record = recordOf(
        manifest,
        previous === null
          ? null
          : previous.version !== manifest.version
            ? previous.version
            : previous.previousVersion,
      );
      let server: ExtensionServer;
      try {
        server = await startExtensionServer(target);
        registry.save(record);
      } catch (err) {
        // Back to how it was: the new folder out, the replaced copy (if any) back in.
        await rm(target, { recursive: true, force: true });
        if (aside) await rename(aside, target).catch(() => {});
        aside = null;
        throw err;
      }
      await activate(record, server);
      await prune(record);
      return { extension: toExtension(record), upgradedFrom: previous?.version ?? null };
    } finally {
      await rm(incoming, { recursive: true, force: true });
      if (aside) await rm(aside, { recursive: true, force: true });
    }
  };

  const install = async (zipPath: string): Promise<InstallResult> => {
    await ready;
    // The same defences as a project upload: traversal and bombs are refused with their codes. An
    // extension is Forge's own code served by the daemon: it takes no links at all.
    return installFrom((incoming) =>
      extractArchive(zipPath, {
        targetDir: incoming,
        workDir: tmpDir,
        limits: EXTENSION_EXTRACT_LIMITS,
        links: 'refuse',
        logger,
      }).then(() => undefined),
    );
  };

  /**
   * The extensions an installed archive carries, registered once each: one never offered before is
   * installed (unless the user already has one of that name); one offered before is left alone,
   * so an extension the user removed stays removed; a newer bundled version upgrades only the
   * bundled version the user still has unchanged. What was offered is kept in `.bundled.json`.
   */
  const registerBundled = async (): Promise<void> => {
    const dir = deps.bundledDir;
    if (!dir) return;
    const bundle = await readBundle(dir);
    if (bundle.length === 0) return;
    const seen = await readBundledSeen(extensionsDir);
    for (const ext of bundle) {
      const offered = seen[ext.name];
      const current = records.get(ext.name);
      const fresh = offered === undefined && current === undefined;
      const upgrade = offered !== undefined && offered !== ext.version && current?.version === offered;
      if (fresh || upgrade) await installBundled(ext, dir);
      seen[ext.name] = ext.version;
    }
    await writeBundledSeen(extensionsDir, seen, tmpDir);
  };

  const installBundled = async (ext: BundledExtension, dir: string): Promise<void> => {
    try {
      await fleet.run(
        'ExtensionBot',
        { label: `install bundled ${ext.name} ${ext.version}` },
        () =>
          installFrom((incoming) => cp(path.join(dir, ext.name, ext.version), incoming, { recursive: true })),
        { slot: false, summary: (r) => `installed bundled ${r.extension.name} ${r.extension.version}` },
      );
    } catch (err) {
      logger.warn(
        { extension: ext.name, err: (err as Error).message },
        'a bundled extension was not installed',
      );
    }
  };

  /**
   * The previous version becomes current again and the current one becomes the previous: a second
   * rollback undoes the first. Its manifest is read again from its folder (its route or entry may
   * differ from the current version's), and the route is checked as for an install.
   */
  const rollback = async (name: string): Promise<{ record: ExtensionRecord; from: string }> => {
    await ready;
    const current = records.get(name);
    if (!current) throw notFound(name);
    const previous = current.previousVersion;
    const dir = previous === null ? null : versionDir(name, previous);
    if (previous === null || dir === null || !existsSync(dir)) throw noPrevious(current);
    // Its folder is named by the version its manifest declares: what install put there.
    const manifest = await readManifest(dir);
    checkRoute(manifest, `of ${name} ${previous} is now taken by`);
    const record = recordOf(manifest, current.version);
    const server = await startExtensionServer(dir);
    try {
      registry.save(record);
    } catch (err) {
      await server.close();
      throw err;
    }
    await activate(record, server);
    return { record, from: current.version };
  };

  const uninstall = async (name: string): Promise<void> => {
    await ready;
    const record = records.get(name);
    if (!record) throw notFound(name);
    const server = servers.get(name);
    servers.delete(name);
    await server?.close();
    registry.remove(name);
    records.delete(name);
    // Out of sight at once (one rename), then removed.
    const gone = scratch(tmpDir, 'removed');
    await mkdir(tmpDir, { recursive: true });
    await rename(path.join(extensionsDir, name), gone).catch(() => {});
    await rm(gone, { recursive: true, force: true });
  };

  /**
   * Every installed extension is served from the start, then the bundled ones are registered; the
   * list answers without waiting for it.
   */
  const ready = (async () => {
    for (const record of registry.list()) records.set(record.name, record);
    await Promise.all([...records.values()].map(serve));
    await registerBundled();
  })().catch((err: unknown) => logger.error({ err }, 'extensions could not be loaded'));

  return {
    /** Installed extensions, by name (in memory: the web app polls every 5 s). */
    list: (): Extension[] => [...records.values()].map(toExtension),
    /** Resolves once the extensions installed before this start are served (or failed to be). */
    ready: (): Promise<void> => ready,
    /** Install or upgrade from a received ZIP (the caller removes the ZIP), as a job of ExtensionBot. */
    install: (zipPath: string, fileName: string): Promise<InstallResult> =>
      fleet.run('ExtensionBot', { label: `install ${fileName}` }, () => exclusive(() => install(zipPath)), {
        slot: false,
        summary: (r) =>
          r.upgradedFrom === null
            ? `installed ${r.extension.name} ${r.extension.version}`
            : `upgraded ${r.extension.name} ${r.upgradedFrom} → ${r.extension.version}`,
      }),
    /** Roll back to the previous version (NO_PREVIOUS_VERSION when none is kept), as a job of ExtensionBot. */
    async rollback(name: string): Promise<{ extension: Extension; rolledBackFrom: string }> {
      await ready;
      // Nothing to roll back to is the caller's mistake, not a failed job of the bot.
      const current = records.get(name);
      if (!current) throw notFound(name);
      if (current.previousVersion === null) throw noPrevious(current);
      const { record, from } = await fleet.run(
        'ExtensionBot',
        { label: `roll back ${name}` },
        () => exclusive(() => rollback(name)),
        { slot: false, summary: (r) => `rolled back ${name} ${r.from} → ${r.record.version}` },
      );
      return { extension: toExtension(record), rolledBackFrom: from };
    },
    /** Uninstall: its server stops, its files and registry row go. EXTENSION_NOT_FOUND when absent. */
    async uninstall(name: string): Promise<void> {
      // A name that is not installed is the caller's mistake, not a failed job of the bot.
      await ready;
      if (!records.has(name)) throw notFound(name);
      await fleet.run(
        'ExtensionBot',
        { label: `uninstall ${name}` },
        () => exclusive(() => uninstall(name)),
        {
          slot: false,
          summary: () => `uninstalled ${name}`,
        },
      );
    },
    async close(): Promise<void> {
      closed = true;
      await ready;
      await queue;
      await Promise.all([...servers.values()].map((s) => s.close()));
      servers.clear();
    },
  };
}

export type ExtensionService = ReturnType<typeof createExtensionService>;

const notFound = (name: string) =>
  new ForgeError('EXTENSION_NOT_FOUND', `There is no installed extension named "${name}".`, { name });

const noPrevious = (record: ExtensionRecord) =>
  new ForgeError(
    'NO_PREVIOUS_VERSION',
    `${record.name} ${record.version} has no previous version to roll back to: Forge keeps the version an upgrade replaced.`,
    { name: record.name },
  );
