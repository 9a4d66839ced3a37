import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dssePae, type DsseEnvelope, type ProvenanceKey } from '@forge/shared';

/**
 * This installation's Ed25519 key for provenance, made on first use in FORGE_HOME/keys (private key
 * readable by the owner only). Losing it only means new statements are signed by a new key; nothing
 * else depends on it.
 */
export interface SigningKey {
  keyid: string;
  publicKeyPem: string;
  privateKey: crypto.KeyObject;
}

const PRIVATE_FILE = 'provenance-ed25519.pem';
const PUBLIC_FILE = 'provenance-ed25519.pub.pem';

export const keyidOf = (publicKey: crypto.KeyObject): string =>
  crypto
    .createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');

export function loadSigningKey(home: string): SigningKey {
  const dir = path.join(home, 'keys');
  const privateFile = path.join(dir, PRIVATE_FILE);
  let privateKey: crypto.KeyObject;
  if (fs.existsSync(privateFile)) {
    privateKey = crypto.createPrivateKey(fs.readFileSync(privateFile, 'utf8'));
  } else {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const pair = crypto.generateKeyPairSync('ed25519');
    privateKey = pair.privateKey;
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    // wx: two daemons starting at once keep the first key rather than each overwriting the other's.
    try {
      fs.writeFileSync(privateFile, pem, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      privateKey = crypto.createPrivateKey(fs.readFileSync(privateFile, 'utf8'));
    }
  }
  const publicKey = crypto.createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const publicFile = path.join(dir, PUBLIC_FILE);
  if (!fs.existsSync(publicFile) || fs.readFileSync(publicFile, 'utf8') !== publicKeyPem) {
    fs.writeFileSync(publicFile, publicKeyPem, { mode: 0o644 });
  }
  return { keyid: keyidOf(publicKey), publicKeyPem, privateKey };
}

export const publicKeyOf = (key: SigningKey): ProvenanceKey => ({
  algorithm: 'ed25519',
  keyid: key.keyid,
  publicKey: key.publicKeyPem,
});

/** A DSSE envelope of `payload` signed with `key`. */
export function signEnvelope(key: SigningKey, payloadType: string, payload: Buffer): DsseEnvelope {
  const sig = crypto.sign(null, dssePae(payloadType, payload), key.privateKey);
  return {
    payloadType,
    payload: payload.toString('base64'),
    signatures: [{ keyid: key.keyid, sig: sig.toString('base64') }],
  };
}
