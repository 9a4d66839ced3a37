import { existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync, crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACT_LIMITS } from './limits.ts';
import type { ExtractionPlan, PlannedFile, PlannedLink } from './plan.ts';
import { createSandbox, type Sandbox } from '../../../test/support/extract-sandbox.ts';
import { writePlannedFiles } from './write-files.ts';
import type { ArchiveEntry } from './zip-reader.ts';

/**
 * The writer's own lines behind the planner (plan.ts, links.ts): handed a plan the planner would never
 * make, it still writes nothing outside staging and nothing through a link.
 */

let sb: Sandbox;
let staging: string;
beforeEach(async () => {
  sb = await createSandbox();
  staging = path.join(sb.workDir, 'staging');
  mkdirSync(staging);
});
afterEach(() => sb.cleanup());

const fileNode = (p: string, text: string): PlannedFile => {
  const data = Buffer.from(text);
  const compressed = deflateRawSync(data);
  const entry: ArchiveEntry = {
    rawName: Buffer.from(p),
    flags: 0,
    method: 8,
    crc: crc32(data),
    compressedSize: compressed.length,
    size: data.length,
    attr: 0,
    compressedData: () => compressed,
  };
  return { isDir: false, kind: 'file', entry, rawName: p, path: p, size: data.length, executable: false };
};
const linkNode = (p: string, target: string): PlannedLink => ({
  isDir: false,
  kind: 'link',
  rawName: p,
  path: p,
  target,
});

function planOf(order: Array<PlannedFile | PlannedLink>): ExtractionPlan {
  return {
    files: order.filter((n): n is PlannedFile => n.kind === 'file'),
    order,
    dropped: [],
    links: order.filter((n): n is PlannedLink => n.kind === 'link'),
    droppedLinks: [],
    strippedPrefix: null,
    totalBytes: 0,
  };
}

const write = (plan: ExtractionPlan) => writePlannedFiles(plan, staging, DEFAULT_EXTRACT_LIMITS, () => {});

describe('links are made after every file', () => {
  it('a file planned under a link lands nowhere the link leads (the link does not exist yet)', async () => {
    const outside = path.join(sb.root, 'outside');
    mkdirSync(outside);
    // Listed first, leading out: made first, the file after it would be written into `outside`.
    const plan = planOf([linkNode('a', '../../../outside'), fileNode('a/passwd', 'root::0:0\n')]);
    await expect(write(plan)).rejects.toThrow();
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a link whose target, read as text, leaves staging, and makes no link at all', async () => {
    const plan = planOf([fileNode('index.html', '<p>hi</p>'), linkNode('escape', '../../../etc')]);
    await expect(write(plan)).rejects.toThrow(/link out of staging/);
    expect(existsSync(path.join(staging, 'escape'))).toBe(false);
    expect(lstatSync(path.join(staging, 'index.html')).isFile()).toBe(true);
  });

  it('writes a link inside staging as a link, once the file it names is there', async () => {
    await write(planOf([linkNode('CLAUDE.md', 'AGENTS.md'), fileNode('AGENTS.md', '# agents\n')]));
    expect(lstatSync(path.join(staging, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
  });
});
