import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProject as writeFixture } from '@forge/testing';
import { Sandbox } from './helpers.ts';

// forge ci --provenance writes the signed statement, the SBOM and the key beside the artifact;
// forge verify checks them offline with --key, and fails on any change to either file.

let sandbox: Sandbox;
let artifact: string;
beforeAll(async () => {
  sandbox = await Sandbox.create();
  const zip = writeFixture(sandbox.cwd, 'node-build', 'app');
  const run = await sandbox.run(['ci', zip, '-o', 'app.zip', '--provenance', '--json']);
  expect(run.code, run.stderr).toBe(0);
  const result = CliResult.parse(JSON.parse(run.stdout));
  artifact = join(sandbox.cwd, 'app.zip');
  expect(result.provenance).toEqual({
    statement: `${artifact}.intoto.jsonl`,
    sbom: join(sandbox.cwd, 'app.cdx.json'),
    publicKey: `${artifact}.pub.pem`,
  });
}, 300_000);
afterAll(async () => {
  await sandbox.dispose();
});

const verify = (...args: string[]) => sandbox.run(['verify', 'app.zip', '--key', 'app.zip.pub.pem', ...args]);

describe('forge verify', () => {
  it('accepts the artifact forge ci wrote, with its SBOM beside it', async () => {
    const run = await verify();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✓ signature: Ed25519 signature by key');
    expect(run.stdout).toMatch(/✓ subject: sha256 [0-9a-f]{64} is the statement's subject app\.zip/);
    expect(run.stdout).toContain('Built by Forge');
    const sbom = JSON.parse(readFileSync(join(sandbox.cwd, 'app.cdx.json'), 'utf8')) as { bomFormat: string };
    expect(sbom.bomFormat).toBe('CycloneDX');
  });

  it('fails on a changed artifact, a changed statement, and a missing statement', async () => {
    const original = readFileSync(artifact);
    const statement = readFileSync(`${artifact}.intoto.jsonl`, 'utf8');
    try {
      writeFileSync(artifact, Buffer.concat([original, Buffer.from('x')]));
      const changed = await verify('--json');
      expect(changed.code).toBe(1);
      const out = JSON.parse(changed.stdout) as {
        ok: boolean;
        checks: Array<{ name: string; ok: boolean }>;
      };
      expect(out.ok).toBe(false);
      expect(out.checks.find((c) => c.name === 'subject')?.ok).toBe(false);
      expect(out.checks.find((c) => c.name === 'signature')?.ok).toBe(true);
      writeFileSync(artifact, original);

      // A statement rewritten to name another digest: its signature no longer checks out.
      const envelope = JSON.parse(statement) as { payload: string };
      const body = JSON.parse(Buffer.from(envelope.payload, 'base64').toString()) as {
        subject: Array<{ digest: { sha256: string } }>;
      };
      body.subject[0]!.digest.sha256 = '0'.repeat(64);
      envelope.payload = Buffer.from(JSON.stringify(body)).toString('base64');
      writeFileSync(`${artifact}.intoto.jsonl`, JSON.stringify(envelope));
      const forged = await verify();
      expect(forged.code).toBe(1);
      expect(forged.stdout).toContain('✗ signature');
      expect(forged.stderr).toContain('does not match its provenance');

      rmSync(`${artifact}.intoto.jsonl`);
      const missing = await verify('--json');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('No provenance statement at');
      expect(missing.stderr).toContain('--statement <file>');
    } finally {
      writeFileSync(artifact, original);
      writeFileSync(`${artifact}.intoto.jsonl`, statement);
    }
    expect((await verify()).code).toBe(0);
  });
});
