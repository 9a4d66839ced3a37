import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dssePae, type Build, type DsseEnvelope, type ProvenanceKey } from '@forge/shared';
import { hasRedis, PROJECTS } from '@forge/testing';
import { oneWorkerCluster } from './one-worker.ts';

/**
 * A build a `forge worker` ran records its artifact, SBOM, source ZIP and signed provenance as an
 * in-process build does: served by the coordinator, its builder naming the worker, its statement
 * verified by the coordinator's key.
 */
describe.skipIf(!hasRedis())('scale-out: artifacts of builds run by a worker', () => {
  const cluster = oneWorkerCluster();

  it('the coordinator serves the worker build’s artifact, SBOM, source and provenance, signed by its key', async () => {
    const { daemon, api } = await cluster.start('w-art');

    const { buildId } = await api.upload('node-build.zip', PROJECTS['node-build']);
    const build: Build = await api.until(`build ${buildId} to end`, async () => {
      const b = await api.build(buildId);
      return b.status !== 'queued' && b.status !== 'running' ? b : null;
    });
    expect(build).toMatchObject({ status: 'succeeded', worker: 'w-art' });

    const get = (what: string) => fetch(`${daemon.url}/api/builds/${buildId}/${what}`);
    const artifact = await get('artifact');
    expect(artifact.status).toBe(200);
    const zip = Buffer.from(await artifact.arrayBuffer());
    const sbom = (await (await get('sbom')).json()) as { bomFormat: string; specVersion: string };
    expect(sbom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
    expect((await get('source')).status).toBe(200);

    const envelope = (await (await get('provenance')).json()) as DsseEnvelope;
    const payload = Buffer.from(envelope.payload, 'base64');
    const statement = JSON.parse(payload.toString()) as {
      subject: Array<{ digest: { sha256: string } }>;
      predicate: { runDetails: { builder: { id: string }; metadata: { invocationId: string } } };
    };
    expect(statement.predicate.runDetails.builder.id).toBe('https://forge.local/builders/w-art');
    expect(statement.predicate.runDetails.metadata.invocationId).toBe(buildId);
    expect(statement.subject[0]!.digest.sha256).toBe(crypto.createHash('sha256').update(zip).digest('hex'));

    // The coordinator's key verifies it; the worker's own signature stays beside its countersignature.
    const key = (await (await fetch(`${daemon.url}/api/provenance/key`)).json()) as ProvenanceKey;
    expect(envelope.signatures).toHaveLength(2);
    const mine = envelope.signatures.find((s) => s.keyid === key.keyid);
    expect(mine).toBeDefined();
    const pae = dssePae(envelope.payloadType, payload);
    expect(crypto.verify(null, pae, key.publicKey, Buffer.from(mine!.sig, 'base64'))).toBe(true);
  }, 180_000);
});
