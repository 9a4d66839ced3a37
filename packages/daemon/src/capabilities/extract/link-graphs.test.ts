import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { forgeZip, S_IFLNK, type ForgedEntry } from '@forge/testing';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACT_LIMITS } from './limits.ts';
import { planExtraction } from './plan.ts';
import { Refusal } from './refusal.ts';
import { writePlannedFiles } from './write-files.ts';
import { readCentralDirectory } from './zip-reader.ts';

/**
 * Arbitrary graphs of links (to each other, up, down, out, through files) among a few files and
 * folders: whatever the planner keeps, written to disk, resolves inside the project to something that
 * does not hold it, and nothing is written anywhere else.
 */

const SEED = 2107;
const RUNS = 150;

const names = ['a', 'b', 'l1', 'l2', 'l3', 'd/l4', 'd/e/l5'];
const part = fc.constantFrom('..', '.', 'a', 'b', 'l1', 'l2', 'l3', 'd', 'e', 'l4', 'l5', 'f.txt', 'x', '');
const target = fc.oneof(
  { weight: 8, arbitrary: fc.array(part, { minLength: 1, maxLength: 6 }).map((p) => p.join('/')) },
  { weight: 1, arbitrary: fc.constantFrom('/etc', 'C:/x', 'a\\b', '../../../../../tmp') },
);
const graph = fc.array(fc.tuple(fc.constantFrom(...names), target), { minLength: 1, maxLength: 8 });

describe('fuzz: link graphs (links.ts)', () => {
  it(`keeps only links that resolve inside, writes nothing outside (seed ${SEED}, ${RUNS} runs)`, async () => {
    let kept = 0;
    let dropped = 0;
    await fc.assert(
      fc.asyncProperty(graph, async (links) => {
        const base = mkdtempSync(path.join(os.tmpdir(), 'forge-link-graph-'));
        try {
          const staging = path.join(base, 'deep', 'project');
          mkdirSync(staging, { recursive: true });
          const entries: ForgedEntry[] = [
            { name: 'f.txt', data: 'file' },
            { name: 'd/e/f.txt', data: 'nested' },
            { name: 'a/f.txt', data: 'in a' },
            ...links.map(([name, to]) => ({ name, data: to, unixMode: S_IFLNK | 0o777 })),
          ];
          let plan;
          try {
            plan = planExtraction(readCentralDirectory(forgeZip(entries)), DEFAULT_EXTRACT_LIMITS);
          } catch (error) {
            // Only a catalogued refusal (two links on one name is a refusal of neither: one is left out).
            return error instanceof Refusal;
          }
          await writePlannedFiles(plan, staging, DEFAULT_EXTRACT_LIMITS, () => {});
          kept += plan.links.length;
          dropped += plan.droppedLinks.length;
          const root = realpathSync(staging);
          for (const link of plan.links) {
            const real = realpathSync(path.join(staging, link.path));
            if (!real.startsWith(root + path.sep)) return false;
            if (path.join(root, link.path).startsWith(real + path.sep)) return false;
          }
          // Nothing beside the project.
          return (
            readdirSync(base).join() === 'deep' && readdirSync(path.join(base, 'deep')).join() === 'project'
          );
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Both outcomes are reached, or the property proves little.
    expect(kept).toBeGreaterThan(RUNS / 10);
    expect(dropped).toBeGreaterThan(RUNS / 10);
  });
});
