import AdmZip from 'adm-zip';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Write a ZIP of the given text files into a temp dir and return its path. */
export function writeZip(name: string, files: Record<string, string>): string {
  const zip = new AdmZip();
  for (const [file, content] of Object.entries(files)) zip.addFile(file, Buffer.from(content));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-zip-'));
  const out = path.join(dir, name);
  zip.writeZip(out);
  return out;
}
