import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dssePae, type Build, type DsseEnvelope, type ProvenanceKey } from '@forge/shared';
import {
  coordinatorApi,
  hasRedis,
  PROJECTS,
  startDaemon,
  startRedis,
  startWorker,
  type TestDaemon,
  type TestRedis,
} from '@forge/testing';

/**
 * A build a `forge worker` ran records its artifact, SBOM, source ZIP and signed provenance as an
 * in-process build does: served by the coordinator, its builder naming the worker, its statement
 * verified by the coordinator's key.
 */
describe.skipIf(!hasRedis())('scale-out: artifacts of builds run by a worker', () => {
  let redis: TestRedis;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
    execFileSync('redis-cli', ['-p', String(redis.port), 'FLUSHALL']);
  });

  it('the coordinator serves the worker build’s artifact, SBOM, source and provenance, signed by its key', async () => {
    const daemon: TestDaemon = await startDaemon({ env: { FORGE_QUEUE_URL: redis.url } });
    stops.push(() => daemon.stop());
    const api = coordinatorApi(daemon.url);
    const worker = await startWorker({ name: 'w-art', queueUrl: redis.url, coordinatorUrl: daemon.url });
    stops.push(() => worker.stop());
    await api.until('the worker online', async () => (await api.workers()).workers.length === 1);

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
