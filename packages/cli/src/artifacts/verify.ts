import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import {
  DsseEnvelope,
  dssePae,
  IN_TOTO_PAYLOAD_TYPE,
  InTotoStatement,
  SLSA_PROVENANCE_TYPE,
} from '@forge/shared';

/** One check of `forge verify`, as printed and as in --json. */
export interface VerifyCheck {
  name: 'statement' | 'signature' | 'subject';
  ok: boolean;
  detail: string;
}

export interface VerifyResult {
  ok: boolean;
  checks: VerifyCheck[];
  /** What the statement says, when it could be read. */
  statement: InTotoStatement | null;
}

const keyidOf = (pem: string): string =>
  createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('hex');

/**
 * Check an artifact against its DSSE envelope: the envelope is an in-toto statement with SLSA
 * provenance, one of its signatures is `publicKeyPem`'s over the DSSE PAE, and the artifact's sha256
 * is the statement's subject. Every check is reported, the first failure does not hide the others.
 */
export function verifyArtifact(artifact: Buffer, envelopeText: string, publicKeyPem: string): VerifyResult {
  const checks: VerifyCheck[] = [];
  let envelope: DsseEnvelope;
  try {
    envelope = DsseEnvelope.parse(JSON.parse(envelopeText.trim().split('\n')[0] ?? ''));
  } catch {
    checks.push({
      name: 'statement',
      ok: false,
      detail: 'the statement file is not a DSSE envelope (JSON).',
    });
    return { ok: false, checks, statement: null };
  }
  const payload = Buffer.from(envelope.payload, 'base64');
  const keyid = keyidOf(publicKeyPem);
  const key = createPublicKey(publicKeyPem);
  const signed = envelope.signatures.some((s) => {
    if (s.keyid && s.keyid !== keyid) return false;
    try {
      return verifySignature(null, dssePae(envelope.payloadType, payload), key, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
  checks.push(
    signed
      ? { name: 'signature', ok: true, detail: `Ed25519 signature by key ${keyid.slice(0, 16)}… is valid.` }
      : {
          name: 'signature',
          ok: false,
          detail: `no signature of the envelope checks out with key ${keyid.slice(0, 16)}…: the statement was changed, or signed by another key.`,
        },
  );
  let statement: InTotoStatement | null = null;
  try {
    if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
      throw new Error(`payload type ${envelope.payloadType}`);
    statement = InTotoStatement.parse(JSON.parse(payload.toString('utf8')));
    if (statement.predicateType !== SLSA_PROVENANCE_TYPE)
      throw new Error(`predicate ${statement.predicateType}`);
    checks.push({ name: 'statement', ok: true, detail: 'an in-toto statement with SLSA v1 provenance.' });
  } catch (err) {
    checks.push({
      name: 'statement',
      ok: false,
      detail: `the payload is not an in-toto statement with SLSA v1 provenance (${(err as Error).message}).`,
    });
  }
  if (statement) {
    const digest = createHash('sha256').update(artifact).digest('hex');
    const subject = statement.subject.find((s) => s.digest.sha256 === digest);
    checks.push(
      subject
        ? {
            name: 'subject',
            ok: true,
            detail: `sha256 ${digest} is the statement's subject ${subject.name}.`,
          }
        : {
            name: 'subject',
            ok: false,
            detail: `sha256 ${digest} of the artifact is not the statement's subject (${statement.subject
              .map((s) => `${s.name}: ${s.digest.sha256 ?? '?'}`)
              .join(', ')}): the artifact was changed, or it is another build's.`,
          },
    );
  }
  return { ok: checks.every((c) => c.ok) && checks.length === 3, checks, statement };
}
