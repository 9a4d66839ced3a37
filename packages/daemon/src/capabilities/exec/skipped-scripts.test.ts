import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NPM_SKIPPED_LINES } from '../diagnose/fixtures/cases.ts';
import { readSkippedScripts, skippedScriptsOf, writeSkippedScripts } from './skipped-scripts.ts';

describe('the install scripts npm skipped', () => {
  it("are read from npm's list at the end of an install", () => {
    const skipped = readSkippedScripts(NPM_SKIPPED_LINES);
    expect(skipped.map((s) => `${s.name}@${s.version}`)).toEqual([
      '@prisma/client@4.16.2',
      '@prisma/engines@4.16.2',
      '@swc/core@1.3.101',
      'esbuild@0.19.10',
      'nx@17.2.6',
      'prisma@4.16.2',
    ]);
    expect(skipped[0]).toEqual({
      name: '@prisma/client',
      version: '4.16.2',
      script: 'postinstall: node scripts/postinstall.js',
    });
    expect(readSkippedScripts(['added 3 packages in 1s'])).toEqual([]);
  });

  it('are kept beside node_modules, and forgotten when an install skips none', () => {
    const nodeModules = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-skipped-'));
    writeSkippedScripts(nodeModules, readSkippedScripts(NPM_SKIPPED_LINES));
    expect(skippedScriptsOf(nodeModules)).toHaveLength(6);
    writeSkippedScripts(nodeModules, []);
    expect(skippedScriptsOf(nodeModules)).toEqual([]);
  });
});
