import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCHEMA = fileURLToPath(new URL('./junit.xsd', import.meta.url));

/**
 * Check a JUnit report against the schema CI servers read (junit.xsd beside this file) with
 * libxml2's xmllint: throws with xmllint's own words when the file is not valid. `npm test`
 * installs xmllint (libxml2-utils) with the other tools the tests need.
 */
export function validateJunit(file: string): void {
  const run = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8' });
  if (run.error) {
    throw new Error(
      `xmllint could not run (${run.error.message}): install libxml2-utils (Debian: apt-get install -y libxml2-utils)`,
    );
  }
  if (run.status !== 0) throw new Error(`${file} is not valid JUnit:\n${run.stderr}`);
}
