import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Content hash of a project tree (CacheBot): every regular file's path, mode bit for execute and
 * bytes, in sorted order. Links are hashed by their target text, never followed. `skip` gets the
 * project-relative path (forward slashes) of each directory entry.
 */
export function hashTree(root: string, skip: (rel: string, isDir: boolean) => boolean): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string, rel: string) => {
    const entries = fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      if (skip(childRel, entry.isDirectory())) continue;
      if (entry.isDirectory()) {
        hash.update(`d ${childRel}\n`);
        walk(full, childRel);
      } else if (entry.isSymbolicLink()) {
        hash.update(`l ${childRel} ${fs.readlinkSync(full)}\n`);
      } else if (entry.isFile()) {
        const data = fs.readFileSync(full);
        const exec = (fs.statSync(full).mode & 0o111) !== 0 ? 'x' : '-';
        hash.update(`f ${childRel} ${exec} ${data.length}\n`);
        hash.update(data);
      }
    }
  };
  walk(root, '');
  return hash.digest('hex');
}
