import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult, MemoryCell, ScanReport, type CliBuildResult } from '@forge/shared';
import { writeZip, type ProjectFiles } from '@forge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, type RunResult } from './helpers.ts';

// The assistants' commands against the real built daemon: a failed build diagnosed, its proposed
// repair applied by forge fix and undone; the scan; memory; the brain's session kept by forge between
// runs (and used by forge chat); the code generator. The exact timelines: assistants.test.ts.

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
});
afterAll(async () => {
  await sandbox.dispose();
});

/**
 * A project whose build script imports ./lib/Helper.js while the file is lib/helper.js: it builds on
 * macOS and Windows, fails on Linux. No dependencies, so nothing is installed.
 */
const CASE_MISMATCH: ProjectFiles = {
  'package.json': `${JSON.stringify({ name: 'casefix', private: true, version: '1.0.0', scripts: { build: 'node build.js' } }, null, 2)}\n`,
  'build.js': [
    "const { greet } = require('./lib/Helper.js');",
    "const fs = require('node:fs');",
    "fs.mkdirSync('dist', { recursive: true });",
    "fs.writeFileSync('dist/index.html', `<h1>${greet()}</h1>`);",
    '',
  ].join('\n'),
  'lib/helper.js': "exports.greet = () => 'hi';\n",
};

const buildResult = (run: RunResult): CliBuildResult => {
  const result = CliResult.parse(JSON.parse(run.stdout));
  if (result.status === 'error' || result.status === 'refused') throw new Error(run.stdout + run.stderr);
  return result;
};

describe('a failed build, diagnosed and repaired with forge fix', () => {
  let failed: CliBuildResult;

  it('with autoRepair off, the failure is diagnosed and the repair proposed (--json and forge logs)', async () => {
    expect((await sandbox.run(['settings', 'set', 'autoRepair', 'false'])).code).toBe(0);
    const upload = await sandbox.run([
      'upload',
      writeZip(sandbox.cwd, 'casefix.zip', CASE_MISMATCH),
      '--wait',
      '--json',
    ]);
    expect(upload.code, upload.stderr).toBe(1);
    failed = buildResult(upload);
    expect(failed.diagnosis).toMatchObject({
      code: 'IMPORT_CASE_MISMATCH',
      file: 'build.js',
      line: 1,
      repair: 'FIX_IMPORT_CASE',
    });
    expect(failed.repairs).toEqual([
      {
        id: expect.any(String),
        code: 'FIX_IMPORT_CASE',
        summary: expect.any(String),
        files: ['build.js'],
        status: 'proposed',
        // Tried on a copy of the project before it was shown.
        verification: { status: 'passes', detail: 'verified: the build passes' },
      },
    ]);

    const logs = await sandbox.run(['logs', failed.buildId]);
    const tail = logs.stderr.trimEnd().split('\n');
    expect(tail).toContainEqual(
      expect.stringMatching(/^ {2}diagnosis {2}build\.js imports .+ \[IMPORT_CASE_MISMATCH\]$/),
    );
    expect(tail).toContainEqual(expect.stringMatching(/^ {2}at {9}build\.js:1:\d+$/));
    expect(tail.at(-1)).toMatch(new RegExp(`^ {2}repair {5}Run forge fix ${failed.buildId} to apply: `));
    expect(tail.at(-1)).toMatch(/\(verified: the build passes\)$/);
  });

  it('forge fix --wait applies it, shows the diff, and follows the build to its success', async () => {
    const fix = await sandbox.run(['fix', '--wait']);
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.stdout).toMatch(/\[FIX_IMPORT_CASE, \S+\] applied/);
    expect(fix.stdout).toContain("  -const { greet } = require('./lib/Helper.js');");
    expect(fix.stdout).toContain("  +const { greet } = require('./lib/helper.js');");
    expect(fix.stderr).toMatch(/Build succeeded: casefix, build \S+/);
    expect(fix.stderr).toMatch(/^ {2}repaired +RepairBot /m);
    // Nothing is left to fix once the newest build succeeded.
    const again = await sandbox.run(['fix', '--project', 'casefix']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Nothing to fix: build \S+ of casefix succeeded\./);
  });

  it('forge fix --undo restores the original file', async () => {
    const undo = await sandbox.run(['fix', '--undo', '--project', 'casefix']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout.split('\n')[0]).toBe('restored  build.js');
    const none = await sandbox.run(['fix', '--undo', '--project', 'casefix']);
    expect(none.code).toBe(1);
  });

  it('with autoRepair on, RepairBot repairs during the build, which succeeds and says so', async () => {
    expect((await sandbox.run(['settings', 'set', 'autoRepair', 'true'])).code).toBe(0);
    const upload = await sandbox.run([
      'upload',
      writeZip(sandbox.cwd, 'casefix2.zip', CASE_MISMATCH),
      '--wait',
      '--json',
    ]);
    expect(upload.code, upload.stderr).toBe(0);
    const result = buildResult(upload);
    expect(result.status).toBe('succeeded');
    expect(result.repairs).toEqual([
      expect.objectContaining({ code: 'FIX_IMPORT_CASE', status: 'applied', files: ['build.js'] }),
    ]);
  });
});

describe('forge scan', () => {
  it('scans a project; the exit code says whether a finding is an error', async () => {
    const json = await sandbox.run(['scan', 'casefix', '--json']);
    const report = ScanReport.parse(JSON.parse(json.stdout));
    expect(report.projectName).toBe('casefix');
    expect(json.code).toBe(report.issues.some((i) => i.severity === 'error') ? 1 : 0);
    const human = await sandbox.run(['scan', 'casefix']);
    expect(human.code).toBe(json.code);
    expect(human.stdout).toMatch(/^Scan of casefix: \d+ files, types (not )?checked/);
  });

  it('an unknown project is the daemon’s clear error', async () => {
    const { code, stderr } = await sandbox.run(['scan', 'nosuch']);
    expect(code).toBe(1);
    expect(stderr).toContain('[PROJECT_NOT_FOUND, HTTP 404]');
  });
});

describe('the brain, its memory and the chat', () => {
  // The memory cells are the university family's: forge memory needs a family account's login.
  beforeAll(async () => {
    const add = await sandbox.runWithStdin(
      ['family', 'add', 'keeper', '--password-stdin'],
      'a long family password\n',
    );
    if (add.code !== 0) throw new Error(`family add failed:\n${add.stderr}`);
    const login = await sandbox.runWithStdin(
      ['login', 'keeper', '--password-stdin'],
      'a long family password\n',
    );
    if (login.code !== 0) throw new Error(`login failed:\n${login.stderr}`);
  });

  it('a session kept between runs of forge: greeting, code phrase, remember, and the chat asks as the same user', async () => {
    expect((await sandbox.run(['brain', 'set-greeting', 'good morning forge'])).code).toBe(0);
    const code = await sandbox.runWithStdin(['brain', 'set-code'], 'correct horse battery\n');
    expect(code.code, code.stderr).toBe(0);

    const guest = await sandbox.run(['brain', 'status']);
    expect(guest.stdout).toMatch(/^Guest/);
    await sandbox.run(['brain', 'good morning forge']);
    const auth = await sandbox.run(['brain', 'correct horse battery']);
    expect(auth.stdout + auth.stderr).toContain('Authentication successful. Session established.');
    expect(statSync(join(sandbox.home, 'cli', 'brain-session.json')).mode & 0o777).toBe(0o600);
    const status = await sandbox.run(['brain', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ authenticated: true });

    const remember = await sandbox.run(['brain', 'remember colour is teal']);
    expect(remember.code).toBe(0);
    const cells = MemoryCell.array().parse(
      JSON.parse((await sandbox.run(['memory', 'ls', '--json'])).stdout),
    );
    expect(cells).toContainEqual(expect.objectContaining({ key: 'colour', value: 'teal' }));

    // forge chat sends the session along: the brain answers as to the authenticated user.
    const chat = await sandbox.run(['chat', 'brain: what is colour']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toMatch(/^brain: .*teal/);
    // The cookie's value is never printed.
    const cookie = /forge_brain=([^"]+)/.exec(
      readFileSync(join(sandbox.home, 'cli', 'brain-session.json'), 'utf8'),
    )![1]!;
    expect(auth.stdout + auth.stderr + chat.stdout + chat.stderr).not.toContain(cookie);
  });

  it('forge memory set, ls and rm', async () => {
    const set = await sandbox.run(['memory', 'set', 'deploy', 'the staging box']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('deploy = the staging box\n');
    const ls = await sandbox.run(['memory', 'ls']);
    expect(ls.stdout).toMatch(/^deploy +\S+ \S+ {2}the staging box$/m);
    expect((await sandbox.run(['memory', 'rm', 'deploy'])).code).toBe(0);
    const gone = await sandbox.run(['memory', 'rm', 'deploy']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('[MEMORY_CELL_NOT_FOUND, HTTP 404]');
  });

  it('forge chat status: the reply after who speaks', async () => {
    const chat = await sandbox.run(['chat', 'status']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toMatch(/^forge: /);
  });
});

describe('forge generate', () => {
  it('a component from a description, to stdout and to a file', async () => {
    const out = await sandbox.run(['generate', 'component', 'UserCard with name: string, age?: number']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('export function UserCard');
    expect(out.stderr).toContain('CodeGenBot: component UserCard (name: string, age?: number), typescript');
    const login = await sandbox.run(['generate', 'component', 'a login form with email and password']);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('Implemented: a form with a labelled input per field');
    expect(login.stdout).toContain("input: 'password'");
    const board = await sandbox.run(['generate', 'component', 'a drag and drop kanban board']);
    expect(board.code, board.stderr).toBe(0);
    expect(board.stderr).toContain('Skeleton, not an implementation: no recipe of the catalogue');
    expect(board.stdout).toMatch(/^\/\/ Skeleton: /);
    const file = await sandbox.run([
      'generate',
      'schema',
      'Order with id: string, total: number',
      '-o',
      'order.ts',
    ]);
    expect(file.code, file.stderr).toBe(0);
    expect(readFileSync(join(sandbox.cwd, 'order.ts'), 'utf8')).toContain('Order');
  });
});
