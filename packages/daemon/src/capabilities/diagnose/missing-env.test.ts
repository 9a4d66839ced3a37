import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type Blueprint, type StepName } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose } from './index.ts';

/**
 * MISSING_ENV from what real programs printed (fixtures/cases.ts, captured by fixtures/capture.ts):
 * a Node server and a Nitro server (as SolidStart builds one) that stop for SESSION_SECRET, a helper
 * that names what is missing, a Vite config, t3-env over zod 4 and zod 3, envalid, a Python step. The
 * claim needs the output to name the variable; a plain sentence needs the files to confirm it.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-env-'));
});
afterEach(() => cleanup());

async function write(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

async function fixture(name: string): Promise<string[]> {
  const text = await readFile(path.join(FIXTURES, `${name}.txt`), 'utf8');
  return text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n');
}

interface Run {
  step?: StepName;
  blueprint?: Blueprint;
  /** Files written instead of the case's (undefined: the case's own). */
  files?: Record<string, string>;
  lines?: string[];
}

async function diagnoseCase(name: string, { step = 'build', blueprint, files, lines }: Run = {}) {
  await write(files ?? caseNamed(name).files);
  const d = await diagnose({
    step,
    status: 'failed',
    error: {
      code: step === 'preview' ? 'PREVIEW_FAILED' : 'BUILD_FAILED',
      message:
        step === 'preview'
          ? 'The server exited with code 1 before it listened'
          : 'npm run build exited with code 1',
    },
    lines: lines ?? (await fixture(name)),
    blueprint: blueprint ?? makeBlueprint(),
    projectDir: dir,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

/** The case's files without the ones named. */
function without(name: string, ...drop: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(caseNamed(name).files).filter(([f]) => !drop.includes(f)));
}

const SECRET_ADVICE =
  /not production secrets: the config travels with the upload, and a real secret is never committed\./;

describe('MISSING_ENV', () => {
  it('a Nitro server that stops at start for SESSION_SECRET, documented in .env.example', async () => {
    const d = await diagnoseCase('nitro-env-secret', { step: 'preview' });
    // Where the code reads it: what a developer opens to see what it is for.
    expect(d).toMatchObject({
      code: 'MISSING_ENV',
      subjects: ['SESSION_SECRET'],
      file: 'server/utils/session.js',
      line: 1,
    });
    expect(d.summary).toBe(
      `The app's server needs the environment variable SESSION_SECRET, which is not set: "SESSION_SECRET must be set and at least 32 characters long".`,
    );
    expect(d.suggestion).toBe(
      'Set SESSION_SECRET in the "env" of a forge config (forge.config.json): { "env": { "SESSION_SECRET": "…" } }. server/utils/session.js:1 reads SESSION_SECRET from the environment. .env.example documents it. ' +
        "Forge passes none of the daemon's own variables to builds. Use values meant for builds and previews, not production secrets: the config travels with the upload, and a real secret is never committed.",
    );
    expect(d.repair).toBeUndefined();
  });

  it('the line as the SolidStart preview printed it ("[error] …") reads the same', async () => {
    const d = await diagnoseCase('nitro-env-secret', {
      step: 'preview',
      lines: ['[error] SESSION_SECRET must be set and at least 32 characters long'],
    });
    expect(d).toMatchObject({
      code: 'MISSING_ENV',
      subjects: ['SESSION_SECRET'],
      file: 'server/utils/session.js',
    });
    expect(d.summary).toContain('"SESSION_SECRET must be set and at least 32 characters long"');
  });

  it('a plain sentence with nothing in the files to confirm it is not claimed', async () => {
    // The built server is not there and no template names the variable: "must be set" alone could be anything.
    const d = await diagnoseCase('nitro-env-secret', {
      step: 'preview',
      files: without('nitro-env-secret', '.env.example'),
    });
    expect(d.code).toBe('UNKNOWN');
  });

  it('a variable only the template names, that the output does not, is not claimed', async () => {
    await write({ '.env.example': 'SESSION_SECRET=\nDATABASE_URL=\n' });
    const d = await diagnoseCase('node-missing-entry', {
      step: 'preview',
      files: caseNamed('node-missing-entry').files,
    });
    expect(d.code).not.toBe('MISSING_ENV');
  });

  it('a Node server whose own source (the file the stack names) reads it from process.env', async () => {
    const d = await diagnoseCase('node-env-secret', { step: 'preview' });
    expect(d).toMatchObject({
      code: 'MISSING_ENV',
      subjects: ['SESSION_SECRET'],
      file: 'server.js',
      line: 1,
    });
    expect(d.suggestion).toMatch(/^Set SESSION_SECRET in the "env" of a forge config/);
    expect(d.suggestion).toContain('server.js:1 reads SESSION_SECRET from the environment.');
    expect(d.suggestion).not.toContain('documents');
  });

  it('names the forge config the project already has', async () => {
    const d = await diagnoseCase('node-env-secret', {
      step: 'preview',
      blueprint: makeBlueprint({
        decisions: [
          {
            field: 'forgeConfig',
            value: '.forgerc.json',
            file: '.forgerc.json',
            rule: "the project's forge config",
          },
        ],
      }),
    });
    expect(d.suggestion).toMatch(
      /^Set SESSION_SECRET in the "env" of the forge config \(\.forgerc\.json\): /,
    );
  });

  it('a variable the forge config sets but the app refuses: says so, quotes nothing, echoes no value', async () => {
    const value = 'too-short-value-12345';
    const d = await diagnoseCase('node-env-secret', {
      step: 'preview',
      blueprint: makeBlueprint({
        env: { SESSION_SECRET: value },
        decisions: [
          {
            field: 'forgeConfig',
            value: 'forge.config.json',
            file: 'forge.config.json',
            rule: "the project's forge config",
          },
        ],
      }),
    });
    expect(d.summary).toBe(
      "The app's server refused the value of SESSION_SECRET, which the forge config (forge.config.json) sets.",
    );
    expect(d.suggestion).toMatch(
      /^Change SESSION_SECRET in the forge config \(forge\.config\.json\) to a value the app accepts/,
    );
    expect(JSON.stringify(d)).not.toContain(value);
  });

  it('"Missing environment variable: X" needs no confirmation', async () => {
    const d = await diagnoseCase('node-missing-env-helper');
    expect(d).toMatchObject({ code: 'MISSING_ENV', subjects: ['CMS_API_TOKEN'], file: 'build.js', line: 3 });
    expect(d.summary).toBe(
      'The build needs the environment variable CMS_API_TOKEN, which is not set: "Missing environment variable: CMS_API_TOKEN".',
    );
  });

  it('"X is not defined" from an env helper, confirmed by .env.sample', async () => {
    const d = await diagnoseCase('node-env-not-defined');
    // The call that reads it, not the helper's throw.
    expect(d).toMatchObject({ code: 'MISSING_ENV', subjects: ['PUBLIC_API_URL'], file: 'build.js', line: 6 });
    expect(d.suggestion).toContain('.env.sample documents it.');
  });

  it('"X is not defined", confirmed by the helper call in the file the stack names', async () => {
    const d = await diagnoseCase('node-env-not-defined', {
      files: without('node-env-not-defined', '.env.sample'),
    });
    expect(d).toMatchObject({ code: 'MISSING_ENV', subjects: ['PUBLIC_API_URL'], file: 'build.js', line: 6 });
  });

  it('"X is not defined" that no file ties to the environment is not claimed', async () => {
    const files = without('node-env-not-defined', '.env.sample');
    files['build.js'] = files['build.js']!.replace(
      "env('PUBLIC_API_URL')",
      "env(['PUBLIC', 'API', 'URL'].join('_'))",
    );
    const d = await diagnoseCase('node-env-not-defined', { files });
    expect(d.code).toBe('UNKNOWN');
  });

  it('a ReferenceError is a missing global, not a variable', async () => {
    await write({ '.env.example': 'API_BASE=\n' });
    const d = await diagnoseCase('node-env-secret', {
      files: {},
      lines: ['ReferenceError: API_BASE is not defined', '    at file:///x/build.js:1:1'],
    });
    expect(d.code).not.toBe('MISSING_ENV');
  });

  it('a warning about a variable is not the cause of a failure after it', async () => {
    const lines = [
      '[sentry-vite-plugin] Warning: environment variable SENTRY_AUTH_TOKEN is not set, skipping source map upload.',
      ...(await fixture('vite-syntax-error')),
    ];
    const d = await diagnoseCase('vite-syntax-error', { lines });
    expect(d.code).toBe('SYNTAX_ERROR');
  });

  it('a Vite config that requires a variable', async () => {
    const d = await diagnoseCase('vite-config-env');
    expect(d).toMatchObject({ code: 'MISSING_ENV', subjects: ['VITE_API_URL'] });
    expect(d.summary).toBe(
      'The build needs the environment variable VITE_API_URL, which is not set: "Environment variable VITE_API_URL is required".',
    );
  });

  it.each(['t3-env-zod4', 't3-env-zod3'])('%s: every variable zod reports', async (name) => {
    const d = await diagnoseCase(name);
    expect(d).toMatchObject({
      code: 'MISSING_ENV',
      subjects: ['DATABASE_URL', 'AUTH_SECRET'],
      file: '.env.example',
    });
    expect(d.summary).toBe(
      'The build needs the environment variables DATABASE_URL and AUTH_SECRET, which are not set (t3-env).',
    );
    expect(d.suggestion).toContain('{ "env": { "DATABASE_URL": "…", "AUTH_SECRET": "…" } }');
    expect(d.suggestion).toContain('.env.example documents them.');
    expect(d.suggestion).toMatch(SECRET_ADVICE);
  });

  it('t3-env: a value zod refused is refused, not missing', async () => {
    const lines = (await fixture('t3-env-zod3')).map((l) =>
      l.replace(
        "AUTH_SECRET: [ \u001b[32m'Required'\u001b[39m ]",
        "AUTH_SECRET: [ \u001b[32m'String must contain at least 32 character(s)'\u001b[39m ]",
      ),
    );
    const d = await diagnoseCase('t3-env-zod3', { lines });
    expect(d.summary).toBe(
      'The build needs the environment variable DATABASE_URL, which is not set, and refused the value of AUTH_SECRET (t3-env).',
    );
  });

  it("an app's own zod check: the variable the code reads, not the schema's key", async () => {
    const d = await diagnoseCase('zod-flatten-env');
    // The schema's key is API_URL; the code fills it from NEXT_PUBLIC_API_URL, which is what to set.
    expect(d).toMatchObject({
      code: 'MISSING_ENV',
      subjects: ['NEXT_PUBLIC_API_URL'],
      file: 'src/config/env.js',
      line: 10,
    });
    expect(d.summary).toBe(
      "The build needs the environment variable NEXT_PUBLIC_API_URL, which is not set (the app's env check).",
    );
    expect(d.suggestion).toContain('{ "env": { "NEXT_PUBLIC_API_URL": "…" } }');
    expect(d.suggestion).toContain('src/config/env.js:10 reads NEXT_PUBLIC_API_URL from the environment.');
    expect(d.suggestion).toContain('.env.example documents it.');
  });

  it('envalid, in a server that stops at start', async () => {
    const d = await diagnoseCase('envalid-missing', { step: 'preview' });
    expect(d).toMatchObject({ code: 'MISSING_ENV', subjects: ['DATABASE_URL', 'SESSION_SECRET'] });
    expect(d.summary).toBe(
      "The app's server needs the environment variables DATABASE_URL and SESSION_SECRET, which are not set (envalid).",
    );
  });

  it("Python's KeyError under os.environ", async () => {
    const d = await diagnoseCase('python-environ-keyerror');
    expect(d).toMatchObject({
      code: 'MISSING_ENV',
      subjects: ['DATABASE_URL'],
      file: 'scripts/gen.py',
      line: 3,
    });
  });

  it('a KeyError of a plain dict is not an environment variable', async () => {
    const d = await diagnoseCase('python-environ-keyerror', {
      lines: [
        'Traceback (most recent call last):',
        '  File "x.py", line 2, in <module>',
        '    row["DATABASE_URL"]',
        "KeyError: 'DATABASE_URL'",
      ],
    });
    expect(d.code).toBe('UNKNOWN');
  });

  it('never reads a real .env: a secret there appears nowhere in the diagnosis', async () => {
    const secret = 'b7f3c1e9a2d4f6081b3c5e7a9d1f2e4c';
    await write({ '.env': `SESSION_SECRET=${secret}\n` });
    const d = await diagnoseCase('node-env-secret', { step: 'preview' });
    expect(d.code).toBe('MISSING_ENV');
    expect(d.file).toBe('server.js');
    expect(JSON.stringify(d)).not.toContain(secret);
  });
});
