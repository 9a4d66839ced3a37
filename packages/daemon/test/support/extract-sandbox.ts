/**
 * Test-only helpers: a throw-away sandbox per test and a byte-exact snapshot of a folder tree, so a
 * test can assert that a refused extraction changed nothing anywhere under the sandbox.
 */
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Sandbox {
  /** Everything a test creates lives under here. */
  root: string;
  workDir: string;
  targetDir: string;
  /** Where test archives are written (outside workDir and targetDir). */
  zipDir: string;
  zip(name: string, bytes: Buffer): string;
  cleanup(): void;
}

const REAL_TMP = os.tmpdir();

export async function createSandbox(): Promise<Sandbox> {
  const root = await mkdtemp(path.join(REAL_TMP, 'forge-extract-test-'));
  const workDir = path.join(root, 'data', 'work');
  const targetDir = path.join(root, 'data', 'projects', 'app');
  const zipDir = path.join(root, 'zips');
  for (const dir of [workDir, path.dirname(targetDir), zipDir]) mkdirSync(dir, { recursive: true });
  return {
    root,
    workDir,
    targetDir,
    zipDir,
    zip(name, bytes) {
      const file = path.join(zipDir, name);
      writeFileSync(file, bytes);
      return file;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A small existing project, with a nested folder and an executable, to prove it survives refusals. */
export function seedProject(dir: string): void {
  mkdirSync(path.join(dir, 'src', 'lib'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "old-project" }\n', { mode: 0o644 });
  writeFileSync(path.join(dir, 'src', 'index.js'), 'console.log("old");\n', { mode: 0o644 });
  writeFileSync(path.join(dir, 'src', 'lib', 'run.sh'), '#!/bin/sh\necho old\n', { mode: 0o755 });
}

/**
 * Every path under `dir` with its type, permission bits and (for files) a SHA-256 of the content.
 * Sorted, so two snapshots compare with toEqual and a diff shows the exact path that changed.
 */
export function snapshotTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const childAbs = path.join(abs, name);
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(childAbs);
      const perms = (st.mode & 0o7777).toString(8);
      if (st.isDirectory()) {
        out.push(`${childRel}/ d${perms}`);
        walk(childAbs, childRel);
      } else if (st.isSymbolicLink()) {
        out.push(`${childRel} -> ${readlinkSync(childAbs)}`);
      } else {
        const hash = createHash('sha256').update(readFileSync(childAbs)).digest('hex').slice(0, 16);
        out.push(`${childRel} f${perms} ${st.size} ${hash}`);
      }
    }
  };
  walk(dir, '');
  return out;
}

/**
 * Names in the sandbox's parent (the system temp dir) that look like extraction leftovers: staging
 * folders or replaced copies. Only those: other test files create temp dirs there concurrently.
 */
export function strayTempEntries(): string[] {
  return readdirSync(REAL_TMP).filter((name) => name.startsWith('.extract-') || /\.old-\d+-/.test(name));
}
