import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type Blueprint } from '@forge/shared';
import { detectBlueprint } from '../detect/index.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { diagnose } from './index.ts';

/**
 * A project BlueprintBot found no way to build fails before anything runs (PROJECT_NOT_BUILDABLE).
 * ScanBot's diagnosis must agree with the files: "no build script" only when there is none.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-not-planned-'));
});
afterEach(() => cleanup());

async function planned(files: Record<string, object | string>): Promise<Blueprint> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return detectBlueprint(dir);
}

/** What the pipeline does with a plan of kind unknown, then ScanBot. */
async function diagnosePlan(bp: Blueprint): Promise<Diagnosis> {
  expect(bp.kind).toBe('unknown');
  const why = bp.decisions.findLast((d) => d.field === 'kind')!.rule;
  const diagnosis = await diagnose({
    step: 'detect',
    status: 'failed',
    error: {
      code: 'PROJECT_NOT_BUILDABLE',
      message: `Forge does not know how to build this project: ${why}.`,
    },
    lines: [],
    blueprint: bp,
    projectDir: dir,
  });
  expect(Diagnosis.parse(diagnosis)).toEqual(diagnosis);
  return diagnosis;
}

describe('the diagnosis of a project Forge could not plan', () => {
  it('never says "no build script" of a package.json that has one; it gives the plan’s reason', async () => {
    // An Angular workspace whose angular.json (or nx.json) is not in the upload.
    const bp = await planned({
      'package.json': {
        name: 'shop',
        scripts: { start: 'nx serve', build: 'nx build' },
        dependencies: { '@angular/core': '~20.3.0' },
      },
    });
    const d = await diagnosePlan(bp);
    expect(d.code).toBe('UNKNOWN');
    expect(d.summary).toContain('no angular.json');
    expect(d.summary).not.toMatch(/no "build" script/);
    expect(d.file).toBe('package.json');
    expect(d.repair).toBeUndefined();
    expect(d.suggestion).toContain('"build" and "outputDir"');
  });

  it('says a build script is missing when package.json has none', async () => {
    const bp = await planned({
      'package.json': { name: 'tool', scripts: { start: 'vite' }, dependencies: { lodash: '^4' } },
    });
    const d = await diagnosePlan(bp);
    expect(d).toMatchObject({ code: 'MISSING_SCRIPT', file: 'package.json', subjects: ['build'] });
  });
});
