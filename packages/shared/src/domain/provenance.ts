import { z } from 'zod';

/** DSSE payload type of an in-toto statement (docs/artifacts.md). */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** in-toto statement and SLSA provenance versions Forge writes. */
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const SLSA_PROVENANCE_TYPE = 'https://slsa.dev/provenance/v1';
/** The SLSA buildType of a Forge build: what externalParameters and internalParameters hold. */
export const FORGE_BUILD_TYPE = 'https://forge.local/buildtypes/project-zip/v1';
/** Where the SBOM sits inside an artifact ZIP. */
export const ARTIFACT_SBOM_ENTRY = '.forge/sbom.cdx.json';

/** A DSSE envelope: the statement (base64) and its signatures. */
export const DsseEnvelope = z.object({
  payloadType: z.string(),
  /** The statement's JSON, base64. */
  payload: z.string(),
  signatures: z
    .array(
      z.object({
        /** sha256 of the public key's SPKI DER, hex. */
        keyid: z.string().default(''),
        /** Ed25519 signature of the PAE, base64. */
        sig: z.string(),
      }),
    )
    .min(1),
});
export type DsseEnvelope = z.infer<typeof DsseEnvelope>;

/** The part of an in-toto statement verification reads; the predicate stays as written. */
export const InTotoStatement = z.object({
  _type: z.string(),
  subject: z.array(z.object({ name: z.string(), digest: z.record(z.string(), z.string()) })).min(1),
  predicateType: z.string(),
  predicate: z.record(z.string(), z.unknown()),
});
export type InTotoStatement = z.infer<typeof InTotoStatement>;

/** GET /api/provenance/key: this installation's public signing key. */
export const ProvenanceKey = z.object({
  algorithm: z.literal('ed25519'),
  /** sha256 of the SPKI DER, hex: the keyid of every envelope this installation signs. */
  keyid: z.string(),
  /** SPKI PEM. */
  publicKey: z.string(),
});
export type ProvenanceKey = z.infer<typeof ProvenanceKey>;

/**
 * DSSE's pre-authentication encoding: what is signed, so neither the payload type nor the payload
 * can be swapped. "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes.
 */
export function dssePae(payloadType: string, payload: Uint8Array): Uint8Array {
  const enc = new TextEncoder();
  const type = enc.encode(payloadType);
  const head = enc.encode(`DSSEv1 ${type.length} ${payloadType} ${payload.length} `);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}
