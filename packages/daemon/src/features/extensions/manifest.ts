import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { ExtensionManifest } from '@forge/shared';
import type { z } from 'zod';
import { ForgeError } from '../../http/forge-error.ts';
import { MANIFEST_FILE, MAX_MANIFEST_BYTES } from './limits.ts';

/**
 * Reads and checks `forge-extension.json` in an extracted extension: valid JSON, exactly the
 * manifest's fields (ExtensionManifest, strict), and an `entry` that is a file of the extension.
 * Every refusal is a 400 EXTENSION_INVALID whose message names the field at fault, so the author
 * knows what to change.
 */
export async function readManifest(dir: string): Promise<ExtensionManifest> {
  const text = await readSmallFile(path.join(dir, MANIFEST_FILE));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw invalid(`${MANIFEST_FILE} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ExtensionManifest.safeParse(raw);
  if (!parsed.success) throw manifestError(parsed.error, raw);
  const manifest = parsed.data;
  const entry = await lstat(path.join(dir, ...manifest.entry.split('/'))).catch(() => null);
  if (!entry?.isFile()) {
    throw invalid(`${MANIFEST_FILE}: "entry" names ${manifest.entry}, which is not a file in the ZIP.`, {
      field: 'entry',
    });
  }
  return manifest;
}

async function readSmallFile(file: string): Promise<string> {
  const info = await lstat(file).catch(() => null);
  if (!info) {
    throw invalid(
      `The ZIP has no ${MANIFEST_FILE} at its root (or inside its single top folder). Every extension needs one.`,
      { field: MANIFEST_FILE },
    );
  }
  if (!info.isFile()) throw invalid(`${MANIFEST_FILE} must be a plain file.`, { field: MANIFEST_FILE });
  if (info.size > MAX_MANIFEST_BYTES) {
    throw invalid(`${MANIFEST_FILE} is larger than ${MAX_MANIFEST_BYTES / 1024} KB.`, {
      field: MANIFEST_FILE,
    });
  }
  const handle = await open(file, 'r');
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

const invalid = (message: string, details?: object) => new ForgeError('EXTENSION_INVALID', message, details);

/** The first problem of the manifest, said with its field: `"route" must be a path such as …`. */
function manifestError(error: z.ZodError, raw: unknown): ForgeError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return invalid(
      `${MANIFEST_FILE} must be a JSON object with name, displayName, route, version and entry.`,
      {
        issues,
      },
    );
  }
  const first = error.issues[0]!;
  if (first.code === 'unrecognized_keys') {
    const keys = first.keys.map((k) => `"${k}"`).join(', ');
    return invalid(
      `${MANIFEST_FILE}: unknown field ${keys} (allowed: name, displayName, route, description, version, entry).`,
      {
        field: first.keys[0],
        issues,
      },
    );
  }
  const field = first.path.map(String).join('.');
  const missing = (raw as Record<string, unknown>)[field] === undefined && first.path.length === 1;
  const what = missing ? 'is required' : first.message.replace(/^Invalid input: /, '');
  return invalid(`${MANIFEST_FILE}: "${field}" ${what}.`.replace(/\.\.$/, '.'), { field, issues });
}
