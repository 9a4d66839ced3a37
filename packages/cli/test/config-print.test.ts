import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonConfigResponse, DaemonConfigView } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, Sandbox } from './helpers.ts';

// `forge config print` answers with the RUNNING daemon's configuration (GET /api/config), which may
// differ from the CLI's own directory and environment; `--local` is the file + environment view.

const DAEMON_ONLY = {
  FORGE_BRAIN_URL: 'http://127.0.0.1:9/daemon-only/v1',
  FORGE_BRAIN_MODEL: 'tiny-daemon-model',
  FORGE_BRAIN_API_KEY: 'sk-daemon-secret',
  FORGE_TOKEN: 'daemon-access-token',
};
/** The CLI is given the token on its command line; its environment has none of the above. */
const TOKEN = ['--token', DAEMON_ONLY.FORGE_TOKEN];

describe('forge config print, against a running daemon', () => {
  let sandbox: Sandbox;
  let state: { pid: number; url: string; port: number };
  let configFile: string;
  beforeAll(async () => {
    sandbox = await Sandbox.create();
    // The daemon reads a config file and an environment the later CLI runs will not have.
    configFile = join(sandbox.cwd, '.forgerc.json');
    writeFileSync(configFile, JSON.stringify({ logLevel: 'debug' }));
    const start = await sandbox.run(['daemon', 'start'], DAEMON_ONLY);
    expect(start.code, start.stderr).toBe(0);
    rmSync(configFile);
    state = sandbox.state()!;
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  it('--json: the daemon’s own settings, its real port and pid, secrets as ***', async () => {
    const { code, stdout, stderr } = await sandbox.run(['config', 'print', '--json', ...TOKEN]);
    expect(code, stderr).toBe(0);
    const view = DaemonConfigResponse.parse(JSON.parse(stdout));
    expect(view).toMatchObject({
      home: sandbox.home,
      port: state.port,
      pid: state.pid,
      logLevel: 'debug',
      configFile,
      accessToken: '***',
      brain: {
        provider: { url: 'http://127.0.0.1:9/daemon-only/v1', model: 'tiny-daemon-model', apiKey: '***' },
      },
      queue: { kind: 'in-process', url: null },
    });
    expect(state.port).not.toBe(0);
    expect(stdout).not.toContain('sk-daemon-secret');
    expect(stdout).not.toContain('sk-daemon-secret');
    expect(stdout).not.toContain('daemon-access-token');
  });

  it('text: one line per field, the daemon first', async () => {
    const { code, stdout } = await sandbox.run(['config', 'print', ...TOKEN]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^daemon +${state.url} \\(pid ${state.pid}, Forge \\S+\\)$`));
    expect(lines).toContainEqual(expect.stringMatching(/^brain\.model +tiny-daemon-model$/));
    expect(lines).toContainEqual(expect.stringMatching(/^brain\.apiKey +\*\*\*$/));
    expect(lines).toContainEqual(expect.stringMatching(/^logLevel +debug$/));
    expect(lines).toContainEqual(expect.stringMatching(/^accessToken +\*\*\*$/));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^port +${state.port}$`)));
    expect(stdout).not.toContain('sk-daemon-secret');
  });

  it('--local: this shell’s file and environment, not the daemon’s', async () => {
    const { code, stdout, stderr } = await sandbox.run(['config', 'print', '--local', '--json']);
    expect(code, stderr).toBe(0);
    const view = DaemonConfigView.parse(JSON.parse(stdout));
    expect(view).toMatchObject({
      home: sandbox.home,
      port: 0,
      logLevel: 'info',
      configFile: null,
      accessToken: null,
    });
    expect(view.brain.provider).toBeNull();
  });
});

describe('forge config print, no daemon answering', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.create();
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  it('exits 3, says so and names --local; starts no daemon', async () => {
    const { code, stdout, stderr } = await sandbox.run(['config', 'print'], { FORGE_AUTOSTART: '1' });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain(`No Forge daemon is running for ${sandbox.home}.`);
    expect(stderr).toContain('forge config print --local');
    expect(sandbox.state()).toBeUndefined();
  });

  it('--url that does not answer: exit 3', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await sandbox.run(['config', 'print', '--url', url]);
    expect(code).toBe(3);
    expect(stderr).toContain(url.replace('http://', ''));
  });

  it('--local needs no daemon', async () => {
    const { code, stdout } = await sandbox.run(['config', 'print', '--local']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^home +${sandbox.home}$`, 'm'));
  });
});
