import path from 'node:path';

/**
 * Committed secrets, found and named — never quoted. A finding carries the file, the line and what
 * it is (the variable it is assigned to, the kind of token); no part of the value is ever copied
 * into it, so a scan report can be shown, logged and sent anywhere.
 */

export interface SecretFinding {
  line: number;
  /** What it is: "AWS access key id", "a private key", "the value of API_KEY". */
  kind: string;
  /** The variable or key it is assigned to, when the line says. */
  name: string | null;
  /** Whether it is a credential for sure (a token's shape, a private key, a secret-looking name). */
  certain: boolean;
}

/** Tokens recognisable by their shape alone. */
const TOKENS: ReadonlyArray<{ kind: string; pattern: RegExp; accept?: (token: string) => boolean }> = [
  { kind: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  { kind: 'a GitHub token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'an OpenAI API key',
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g,
    // A key mixes cases and digits; CSS class names such as "sk-fading-circle-…" do not.
    accept: (token) => /[0-9]/.test(token) && /[A-Z]/.test(token) && /[a-z]/.test(token.slice(3)),
  },
  { kind: 'a Stripe secret key', pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}\b/g },
];

const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/** Names that say their value is a credential. */
const SECRET_NAME =
  /(SECRET|TOKEN|PASSW(?:OR)?D|PWD|PRIVATE|API[_-]?KEY|ACCESS[_-]?KEY|AUTH|CREDENTIAL|DSN|DATABASE_URL|CONNECTION_STRING|(?:^|_)KEY$)/i;

/** .env files meant to be committed: they document the names, their values are placeholders. */
const TEMPLATE_PARTS = new Set(['example', 'examples', 'sample', 'template', 'dist', 'defaults', 'schema']);

/** Whether a file name is a dotenv file with real values (`.env`, `.env.local`; not `.env.example`). */
export function isEnvFile(fileRel: string): boolean {
  const base = path.posix.basename(fileRel);
  if (!/^\.env(?:\.[\w.-]+)?$/i.test(base)) return false;
  return !base
    .toLowerCase()
    .split('.')
    .some((part) => TEMPLATE_PARTS.has(part));
}

/** Whether a file name is a dotenv template that documents names (`.env.example`, `.env.sample`, `.env.defaults`). */
export function isEnvTemplate(fileRel: string): boolean {
  const base = path.posix.basename(fileRel);
  return /^\.env\.[\w.-]+$/i.test(base) && !isEnvFile(base);
}

/** Key files that hold a private key whatever their content looks like (binary stores). */
export function isKeyStore(fileRel: string): boolean {
  return /\.(?:p12|pfx|jks|keystore)$/i.test(fileRel);
}

/** The variable or key a secret on `line` at `index` is assigned to: `API_KEY = "…"`, `token: '…'`. */
function assignedName(line: string, index: number): string | null {
  const before = line.slice(0, index);
  const match = /([A-Za-z_$][\w$.-]*)["']?\s*(?::=|=>|[:=])\s*[("'`]*\s*$/.exec(before);
  return match ? match[1]! : null;
}

/** Secrets in a dotenv file: every variable with a non-empty value, by name. */
export function envSecrets(text: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const match = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*=\s*(.*)$/.exec(raw);
    if (!match) return;
    const name = match[1]!;
    let value = match[2]!.trim();
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      const close = value.indexOf(quote, 1);
      value = close === -1 ? value.slice(1) : value.slice(1, close);
    } else value = value.replace(/\s+#.*$/, '');
    if (value.trim() === '') return;
    const token = TOKENS.find(({ pattern, accept }) =>
      [...value.matchAll(pattern)].some((m) => !accept || accept(m[0])),
    );
    found.push({
      line: i + 1,
      kind: token ? token.kind : `the value of ${name}`,
      name,
      certain: token !== undefined || SECRET_NAME.test(name),
    });
  });
  return found;
}

/** Tokens and private keys in any text file. */
export function textSecrets(text: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (PRIVATE_KEY.test(line)) {
      found.push({ line: i + 1, kind: 'a private key', name: null, certain: true });
      return;
    }
    // Minified lines can be megabytes long: shapes are checked on them, names looked up nearby.
    for (const { kind, pattern, accept } of TOKENS) {
      for (const m of line.matchAll(pattern)) {
        if (accept && !accept(m[0])) continue;
        const index = m.index ?? 0;
        const near = line.slice(Math.max(0, index - 200), index);
        found.push({ line: i + 1, kind, name: assignedName(near, near.length), certain: true });
      }
    }
  });
  return found;
}
