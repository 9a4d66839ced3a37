import { Blueprint, ScanReport } from '@forge/shared';
import { writeZip } from '@forge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './helpers.ts';

// The current project from the terminal: forge use chooses it (the daemon keeps the choice across a
// restart), an accepted upload chooses it, and --project names another one for a single command.

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
});
afterAll(async () => {
  await sandbox.dispose();
});

const site = (title: string) => ({ 'index.html': `<!doctype html><h1>${title}</h1>` });

describe('forge use and --project', () => {
  it('an upload becomes current; forge use switches; the choice survives a daemon restart', async () => {
    for (const name of ['alpha', 'beta']) {
      const up = await sandbox.run(['upload', writeZip(sandbox.cwd, `${name}.zip`, site(name)), '--wait']);
      expect(up.code, up.stderr).toBe(0);
    }
    expect((await sandbox.run(['use'])).stdout.trim()).toBe('beta');

    const use = await sandbox.run(['use', 'alpha']);
    expect(use.code, use.stderr).toBe(0);
    expect(use.stderr).toContain('Current project: alpha');
    expect(JSON.parse((await sandbox.run(['use', '--json'])).stdout)).toEqual({ name: 'alpha' });

    const unknown = await sandbox.run(['use', 'gamma']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no project named "gamma".');

    expect((await sandbox.run(['daemon', 'stop'])).code).toBe(0);
    expect((await sandbox.run(['daemon', 'start'])).code).toBe(0);
    expect((await sandbox.run(['use'])).stdout.trim()).toBe('alpha');

    // Commands without a project act on the current one.
    const plan = Blueprint.parse(JSON.parse((await sandbox.run(['plan', '--json'])).stdout));
    expect(plan.kind).toBe('static');
    const scan = ScanReport.parse(JSON.parse((await sandbox.run(['scan', '--json'])).stdout));
    expect(scan.projectName).toBe('alpha');
  });

  it('--project names the project of one command, without changing the current one', async () => {
    const scan = await sandbox.run(['scan', '--project', 'beta', '--json']);
    expect(scan.code, scan.stderr).toBe(0);
    expect(ScanReport.parse(JSON.parse(scan.stdout)).projectName).toBe('beta');

    const chat = await sandbox.run(['chat', 'status', '--project', 'beta']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('Current project: beta');

    const fix = await sandbox.run(['fix', '--project', 'beta']);
    expect(fix.code).toBe(1);
    expect(fix.stderr).toContain('beta');

    const plan = await sandbox.run(['plan', '--project', 'nope']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('There is no project named "nope".');

    expect((await sandbox.run(['use'])).stdout.trim()).toBe('alpha');
  });
});
