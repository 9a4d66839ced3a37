import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ARTIFACT_SBOM_ENTRY,
  dssePae,
  DsseEnvelope,
  InTotoStatement,
  ProvenanceKey,
  type UploadResult,
} from '@forge/shared';
import { makeZip, upload, watch } from './build-helpers.ts';
import { cleanup, startTestApp } from './helpers.ts';

/**
 * Reproducible artifacts, their SBOM and their signed provenance, through a real daemon building a
 * project with real npm dependencies (docs/artifacts.md).
 */

afterEach(cleanup);

const LOCK = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/artifacts-package-lock.json'), 'utf8');
const PROJECT = {
  'package.json': JSON.stringify({
    name: 'artifacts-fixture',
    version: '1.2.3',
    private: true,
    license: 'MIT',
    scripts: { build: 'node build.js' },
    dependencies: { debug: '4.3.4' },
    devDependencies: { 'is-number': '7.0.0' },
  }),
  'package-lock.json': LOCK,
  'build.js': `const fs = require('node:fs');
const debug = require('debug');
fs.mkdirSync('dist/assets', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><h1>' + typeof debug + '</h1><script src="assets/app.js"></script>');
fs.writeFileSync('dist/assets/app.js', 'console.log(1)');
fs.writeFileSync('dist/run.sh', '#!/bin/sh\\necho hi\\n');
fs.chmodSync('dist/run.sh', 0o775);
`,
};

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const bytesOf = async (res: Response) => {
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('build artifacts', () => {
  it('two builds of the same source give the same bytes, with a valid SBOM and signed provenance', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('artifacts-fixture.zip', PROJECT);
    const build = async (query = '') => {
      const { buildId } = (await (await upload(app, zip, query)).json()) as UploadResult;
      const done = await live.finished(buildId!, 240_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      return done;
    };

    const first = await build();
    const second = await build('?noCache=1');
    expect(second.cacheHit).toBe(false);
    const a1 = await bytesOf(await fetch(`${app.url}/api/builds/${first.id}/artifact`));
    const a2 = await bytesOf(await fetch(`${app.url}/api/builds/${second.id}/artifact`));
    expect(sha256(a2)).toBe(sha256(a1));
    expect(a2.equals(a1)).toBe(true);
    // "Download App" of the project is the recorded artifact itself.
    expect(
      (await bytesOf(await fetch(`${app.url}/api/projects/artifacts-fixture/artifact`))).equals(a2),
    ).toBe(true);
    const s1 = await bytesOf(await fetch(`${app.url}/api/builds/${first.id}/source`));
    const s2 = await bytesOf(await fetch(`${app.url}/api/builds/${second.id}/source`));
    expect(s2.equals(s1)).toBe(true);
    expect(new AdmZip(s1).getEntries().map((e) => e.entryName)).toContain('package-lock.json');

    // Fetched before the slow schema validation below: an idle keep-alive socket may be closed meanwhile.
    const sbomText = (await bytesOf(await fetch(`${app.url}/api/builds/${second.id}/sbom`))).toString();
    const key = ProvenanceKey.parse(await (await fetch(`${app.url}/api/provenance/key`)).json());
    const envelope = DsseEnvelope.parse(
      await (await fetch(`${app.url}/api/builds/${second.id}/provenance`)).json(),
    );

    // Sorted names, one fixed date, normalised modes, the SBOM inside.
    const entries = new AdmZip(a2).getEntries();
    const names = entries.map((e) => e.entryName);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(['.forge/sbom.cdx.json', 'assets/app.js', 'index.html', 'run.sh']);
    for (const e of entries) {
      expect(e.header.time.getFullYear()).toBe(1980);
      expect(e.header.time.getMonth()).toBe(0);
      expect(e.header.time.getDate()).toBe(1);
    }
    const mode = (name: string) => (entries.find((e) => e.entryName === name)!.attr >>> 16) & 0o7777;
    expect(mode('run.sh')).toBe(0o755);
    expect(mode('index.html')).toBe(0o644);

    // The SBOM: valid CycloneDX, every package of the lockfile with its integrity, the graph, the tools.
    expect(new AdmZip(a2).readAsText(ARTIFACT_SBOM_ENTRY)).toBe(sbomText);
    const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
    expect(await validator.validate(sbomText)).toBeNull();
    const sbom = JSON.parse(sbomText) as {
      specVersion: string;
      metadata: {
        component: { name: string; version: string };
        tools: { components: Array<{ name: string; version: string }> };
      };
      components: Array<{
        name: string;
        version: string;
        purl: string;
        'bom-ref': string;
        hashes?: Array<{ alg: string; content: string }>;
        licenses?: Array<{ license?: { id?: string } }>;
        properties?: Array<{ name: string; value: string }>;
      }>;
      dependencies: Array<{ ref: string; dependsOn?: string[] }>;
    };
    expect(sbom.specVersion).toBe('1.6');
    expect(sbom.metadata.component).toMatchObject({ name: 'artifacts-fixture', version: '1.2.3' });
    const lock = JSON.parse(LOCK) as { packages: Record<string, { version: string; integrity: string }> };
    const locked = Object.entries(lock.packages).filter(([k]) => k.startsWith('node_modules/'));
    expect(sbom.components).toHaveLength(locked.length);
    for (const [key, entry] of locked) {
      const name = key.slice('node_modules/'.length);
      const component = sbom.components.find((c) => c.name === name);
      expect(component, name).toMatchObject({
        version: entry.version,
        purl: `pkg:npm/${name}@${entry.version}`,
      });
      const hex = Buffer.from(entry.integrity.slice('sha512-'.length), 'base64').toString('hex');
      expect(component!.hashes).toEqual([{ alg: 'SHA-512', content: hex }]);
      expect(component!.licenses).toEqual([{ license: { id: 'MIT' } }]);
    }
    const debugRef = sbom.components.find((c) => c.name === 'debug')!['bom-ref'];
    expect(sbom.dependencies.find((d) => d.ref === debugRef)?.dependsOn).toEqual(['pkg:npm/ms@2.1.2']);
    expect(sbom.components.find((c) => c.name === 'is-number')!.properties).toEqual([
      { name: 'cdx:npm:package:development', value: 'true' },
    ]);
    const tools = sbom.metadata.tools.components.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['forge', 'node']));

    // The provenance: signed by this installation's key, its subject the artifact's digest.
    const payload = Buffer.from(envelope.payload, 'base64');
    expect(envelope.signatures[0]!.keyid).toBe(key.keyid);
    const ok = crypto.verify(
      null,
      dssePae(envelope.payloadType, payload),
      crypto.createPublicKey(key.publicKey),
      Buffer.from(envelope.signatures[0]!.sig, 'base64'),
    );
    expect(ok).toBe(true);
    const statement = InTotoStatement.parse(JSON.parse(payload.toString()));
    expect(statement.subject).toEqual([{ name: 'artifacts-fixture.zip', digest: { sha256: sha256(a2) } }]);
    expect(statement.predicateType).toBe('https://slsa.dev/provenance/v1');
    const predicate = statement.predicate as {
      buildDefinition: {
        externalParameters: { source: { digest: { sha256: string } } };
        internalParameters: { commands: { build: string[] }; plan: { decisions: unknown[] } };
      };
      runDetails: { builder: { version: { forge: string } }; metadata: { invocationId: string } };
    };
    expect(predicate.buildDefinition.externalParameters.source.digest.sha256).toBe(sha256(s2));
    expect(predicate.buildDefinition.internalParameters.commands.build.join(' ')).toContain('build');
    expect(predicate.buildDefinition.internalParameters.plan.decisions.length).toBeGreaterThan(0);
    expect(predicate.runDetails.metadata.invocationId).toBe(second.id);
    expect(payload.toString()).not.toContain(app.home);
  }, 600_000);

  it('answers with an error code for a build without an artifact', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const missing = await fetch(`${app.url}/api/builds/no-such-build/sbom`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('BUILD_NOT_FOUND');
    const zip = makeZip('broken.zip', {
      'package.json': JSON.stringify({ name: 'broken', scripts: { build: 'node -e "process.exit(3)"' } }),
    });
    const { buildId } = (await (await upload(app, zip)).json()) as UploadResult;
    expect((await live.finished(buildId!, 120_000)).status).toBe('failed');
    const res = await fetch(`${app.url}/api/builds/${buildId}/provenance`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('NO_BUILD_ARTIFACT');
    expect(body.error).toContain('did not succeed');
  }, 300_000);
});
