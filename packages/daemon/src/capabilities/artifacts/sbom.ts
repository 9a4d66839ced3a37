import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Enums, Models, Serialize, SPDX, Spec } from '@cyclonedx/cyclonedx-library';
import { PackageURL } from 'packageurl-js';
import { readLockfileIntegrity, sriToHex } from './lockfile-integrity.ts';
import { addStackComponents } from './sbom-stack-components.ts';

/** A tool the build ran with, as the SBOM's metadata.tools and the provenance name it. */
export interface ToolVersion {
  name: string;
  version: string;
}

export interface SbomInput {
  /** The project's own name and version (its package.json), or the Forge project's name. */
  projectName: string;
  /** Where the app's package.json is (the build's appDir). */
  appDir: string;
  /** Where the install ran and the lockfile is (the build's installDir). */
  installDir: string;
  /** The tools that built it: Forge, Node, the package manager. */
  tools: ToolVersion[];
  /** The source tree's digest: the SBOM's serial number derives from it, so the same source gives the same SBOM. */
  sourceDigest: string;
  /** The plan's stack: Python, Go and PHP packages are read from their own files (sbom-stacks.ts). */
  stack?: string | undefined;
  /** A Python build's virtual environment (VIRTUAL_ENV), whose installed distributions are listed. */
  venv?: string | null | undefined;
}

export interface Sbom {
  /** The CycloneDX 1.6 JSON text (sorted lists, two-space indent). */
  json: string;
  /** Packages listed (the root component excluded). */
  components: number;
  /** The lockfile the integrities came from, if any. */
  lockfile: string | null;
}

interface Manifest {
  name?: unknown;
  version?: unknown;
  license?: unknown;
  licenses?: unknown;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest | null {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Manifest) : null;
  } catch {
    return null;
  }
}

/**
 * The folder Node would load `dep` from when required from `fromDir` (node_modules up the tree,
 * links followed: pnpm's .pnpm/<id>/node_modules layout resolves like npm's nested one), or null when
 * it is not installed (an optional dependency for another platform) or outside `root`.
 */
function resolveInstalled(root: string, fromDir: string, dep: string): string | null {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', dep);
    try {
      const real = fs.realpathSync(candidate);
      if (fs.existsSync(path.join(real, 'package.json'))) return real;
    } catch {
      // Not here: one level up.
    }
    if (dir === root || path.dirname(dir) === dir || !dir.startsWith(root)) return null;
  }
}

function licensesOf(manifest: Manifest): Models.License[] {
  const raw: unknown[] = [];
  if (typeof manifest.license === 'string') raw.push(manifest.license);
  else if (manifest.license && typeof manifest.license === 'object')
    raw.push((manifest.license as { type?: unknown }).type);
  if (Array.isArray(manifest.licenses)) {
    for (const l of manifest.licenses) raw.push(typeof l === 'string' ? l : (l as { type?: unknown })?.type);
  }
  const out: Models.License[] = [];
  for (const value of raw) {
    if (typeof value !== 'string' || value.trim() === '' || /^SEE LICEN[CS]E IN /i.test(value)) continue;
    const text = value.trim();
    const id = SPDX.fixupSpdxId(text);
    if (id !== undefined) out.push(new Models.SpdxLicense(id));
    else if (/\s(OR|AND|WITH)\s|[()]/.test(text)) out.push(new Models.LicenseExpression(text));
    else out.push(new Models.NamedLicense(text));
  }
  // CycloneDX allows one expression, or any number of named/SPDX licenses, not both.
  const expression = out.find((l) => l instanceof Models.LicenseExpression);
  return expression ? [expression] : out;
}

/** A deterministic urn:uuid (version 5 layout) from the source digest. */
function serialOf(seed: string): `urn:uuid:${string}` {
  const h = crypto.createHash('sha1').update(`forge-sbom:${seed}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const purlOf = (name: string, version: string): string => {
  const slash = name.startsWith('@') ? name.indexOf('/') : -1;
  const [namespace, bare] = slash > 0 ? [name.slice(0, slash), name.slice(slash + 1)] : [undefined, name];
  return new PackageURL('npm', namespace, bare, version, undefined, undefined).toString();
};

/**
 * The CycloneDX SBOM of a build: every package installed for the app (found from its package.json's
 * dependencies through node_modules as Node resolves them, so npm, pnpm, Yarn and bun trees all read
 * the same), each with its purl, the lockfile's integrity as a hash, the license its package.json
 * declares, and what it depends on; packages reached only through devDependencies carry the
 * `cdx:npm:package:development` property (as CycloneDX's npm tool marks them). No timestamp and a
 * serial number from the source digest: the SBOM ships inside the reproducible artifact.
 */
export function buildSbom(input: SbomInput): Sbom {
  const appDir = path.resolve(input.appDir);
  const installDir = path.resolve(input.installDir);
  const root = (() => {
    try {
      return fs.realpathSync(installDir);
    } catch {
      return installDir;
    }
  })();
  const lock = readLockfileIntegrity(installDir);
  const rootManifest = readManifest(appDir) ?? {};
  const rootName =
    typeof rootManifest.name === 'string' && rootManifest.name ? rootManifest.name : input.projectName;
  const rootVersion = typeof rootManifest.version === 'string' ? rootManifest.version : undefined;

  const bom = new Models.Bom();
  bom.serialNumber = serialOf(input.sourceDigest);
  const rootComponent = new Models.Component(Enums.ComponentType.Application, rootName, {
    bomRef: `root:${rootName}`,
    ...(rootVersion ? { version: rootVersion } : {}),
  });
  for (const license of licensesOf(rootManifest)) rootComponent.licenses.add(license);
  bom.metadata.component = rootComponent;
  for (const tool of input.tools) {
    bom.metadata.tools.components.add(
      new Models.Component(Enums.ComponentType.Application, tool.name, { version: tool.version }),
    );
  }
  if (lock.file) bom.metadata.properties.add(new Models.Property('forge:lockfile', lock.file));

  const byRef = new Map<string, Models.Component>();
  /** Installed folder → its component's bom-ref, and whether a production path reached it. */
  const seen = new Map<string, { ref: string; prod: boolean }>();
  const queue: Array<{ dir: string; prod: boolean; from: Models.Component }> = [];

  const enqueueDeps = (
    dir: string,
    manifest: Manifest,
    prod: boolean,
    from: Models.Component,
    withDev: boolean,
  ) => {
    const groups: Array<[Record<string, string> | undefined, boolean]> = [
      [manifest.dependencies, prod],
      [manifest.optionalDependencies, prod],
      ...(withDev
        ? ([[manifest.devDependencies, false]] as Array<[Record<string, string> | undefined, boolean]>)
        : []),
    ];
    for (const [deps, asProd] of groups) {
      for (const dep of Object.keys(deps ?? {}).sort()) {
        const found = resolveInstalled(root, dir, dep);
        if (found) queue.push({ dir: found, prod: asProd, from });
      }
    }
  };

  enqueueDeps(appDir, rootManifest, true, rootComponent, true);
  // Breadth first, production edges before development ones, so a package both reach counts as production.
  queue.sort((a, b) => Number(b.prod) - Number(a.prod));
  while (queue.length > 0) {
    const { dir, prod, from } = queue.shift()!;
    const known = seen.get(dir);
    if (known) {
      from.dependencies.add(new Models.BomRef(known.ref));
      if (prod && !known.prod) known.prod = true;
      continue;
    }
    const manifest = readManifest(dir);
    if (!manifest || typeof manifest.name !== 'string' || typeof manifest.version !== 'string') continue;
    const ref = purlOf(manifest.name, manifest.version);
    let component = byRef.get(ref);
    if (!component) {
      component = new Models.Component(Enums.ComponentType.Library, manifest.name, {
        bomRef: ref,
        version: manifest.version,
        purl: ref,
      });
      const sri = lock.integrity.get(`${manifest.name}@${manifest.version}`);
      const hash = sri ? sriToHex(sri) : null;
      if (hash) component.hashes.set(hash.alg as Enums.HashAlgorithm, hash.hex);
      for (const license of licensesOf(manifest)) component.licenses.add(license);
      byRef.set(ref, component);
      bom.components.add(component);
    }
    seen.set(dir, { ref, prod });
    from.dependencies.add(component.bomRef);
    enqueueDeps(dir, manifest, prod, component, false);
  }
  const prodRefs = new Set([...seen.values()].filter((s) => s.prod).map((s) => s.ref));
  for (const [ref, component] of byRef) {
    if (!prodRefs.has(ref))
      component.properties.add(new Models.Property('cdx:npm:package:development', 'true'));
  }

  const stack = addStackComponents(bom, rootComponent, {
    stack: input.stack,
    dir: installDir,
    venv: input.venv ?? null,
    licensesOf: (names) => licensesOf({ licenses: names }),
  });
  if (stack && !lock.file && stack.lockfile)
    bom.metadata.properties.add(new Models.Property('forge:lockfile', stack.lockfile));

  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return {
    json: `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`,
    components: byRef.size + (stack?.components ?? 0),
    lockfile: lock.file ?? stack?.lockfile ?? null,
  };
}
