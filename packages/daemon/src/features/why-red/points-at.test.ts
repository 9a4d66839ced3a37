import { describe, expect, it } from 'vitest';
import type { BuildDiff } from '@forge/shared';
import { pointsAt, summaryOf, type PointsAtInput } from './points-at.ts';

const NONE: BuildDiff['dependencies'] = {
  lockfile: { from: 'package-lock.json', to: 'package-lock.json' },
  added: [],
  removed: [],
  changed: [],
  more: 0,
};

const input = (over: Partial<PointsAtInput>): PointsAtInput => ({
  build: { error: null, diagnosis: null, steps: [] },
  greenId: 'b3-aaaaaa',
  changedFiles: new Map(),
  dependencies: NONE,
  toolchain: [],
  plan: [],
  env: { added: [], removed: [] },
  ...over,
});

describe('what a failure points at', () => {
  it('names the failing package when the lockfile upgraded it, and leaves out the packages that did not change', () => {
    const pointers = pointsAt(
      input({
        build: {
          error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
          diagnosis: {
            code: 'MISMATCHED_PACKAGE_VERSIONS',
            summary: 'react and react-dom differ',
            subjects: ['react@19.1.0', 'react-dom@18.3.1'],
          },
          steps: [],
        },
        dependencies: { ...NONE, changed: [{ name: 'react', from: '18.3.1', to: '19.1.0', upgrade: true }] },
      }),
    );
    expect(pointers).toEqual([
      {
        kind: 'dependency',
        name: 'react',
        reason:
          'react was upgraded from 18.3.1 to 19.1.0 since b3-aaaaaa, and the failure (MISMATCHED_PACKAGE_VERSIONS) names it.',
      },
    ]);
  });

  it('finds a changed package named under node_modules in an error, and an added one named as an import', () => {
    const pointers = pointsAt(
      input({
        build: {
          error: {
            code: 'BUILD_FAILED',
            message: 'vite build exited with code 1',
            firstLine:
              '"default" is not exported by "node_modules/@scope/ui/dist/index.js", imported by "src/App.jsx"',
            errors: [{ message: 'Could not resolve "left-pad/lib"', tool: 'vite' }],
          },
          diagnosis: null,
          steps: [],
        },
        dependencies: {
          ...NONE,
          changed: [{ name: '@scope/ui', from: '1.0.0', to: '2.0.0', upgrade: true }],
          added: [{ name: 'left-pad', version: '1.3.0' }],
        },
      }),
    );
    expect(pointers.map((p) => p.name)).toEqual(['@scope/ui', 'left-pad']);
    expect(pointers[1]!.reason).toBe('left-pad was added at 1.3.0 since b3-aaaaaa, and the error names it.');
  });

  it("points at the plan's command of the step that failed, a tool for a toolchain failure, and a variable the plan dropped", () => {
    const pointers = pointsAt(
      input({
        build: {
          error: { code: 'BUILD_FAILED', message: 'exited with code 1' },
          diagnosis: { code: 'NODE_VERSION_MISMATCH', summary: 'needs Node 22', subjects: [] },
          steps: [
            { name: 'install', status: 'succeeded' },
            { name: 'build', status: 'failed' },
          ] as never,
        },
        toolchain: [{ name: 'node', from: '22.1.0', to: '20.20.0' }],
        plan: [
          { name: 'build', from: 'npm run build', to: 'npm run compile' },
          { name: 'test', from: null, to: 'npm test' },
        ],
      }),
    );
    expect(pointers.map((p) => `${p.kind}:${p.name}`)).toEqual(['toolchain:node', 'plan:build']);

    const env = pointsAt(
      input({
        build: {
          error: { code: 'PREVIEW_FAILED', message: 'the app stopped' },
          diagnosis: {
            code: 'MISSING_ENV',
            summary: 'DATABASE_URL is not set',
            subjects: ['DATABASE_URL', 'PORT'],
          },
          steps: [],
        },
        env: { added: [], removed: ['DATABASE_URL'] },
      }),
    );
    expect(env).toEqual([
      {
        kind: 'env',
        name: 'DATABASE_URL',
        reason:
          'The app stopped for want of DATABASE_URL, which the plan set for b3-aaaaaa and no longer sets.',
      },
    ]);
  });

  it('says plainly when the error is in none of the changes', () => {
    const diff = {
      buildId: 'b4-bbbbbb',
      projectName: 'shop',
      greenBuildId: 'b3-aaaaaa',
      greenEndedAt: null,
      failure: { code: 'BUILD_FAILED', message: 'x', diagnosis: 'TYPE_ERROR', file: 'src/a.ts', line: 7 },
      pointsAt: [],
      files: { changes: [], added: 1, removed: 0, modified: 2, more: 0 },
      dependencies: NONE,
      toolchain: [],
      plan: [],
      env: { added: ['API_KEY'], removed: [] },
    };
    expect(summaryOf(diff)).toBe(
      'Points at: none of the changes — the error (src/a.ts:7) is not in what changed since b3-aaaaaa, the last green build: 3 file(s), 0 package(s), 0 tool(s), 0 plan field(s), 1 environment name(s) changed.',
    );
  });
});
