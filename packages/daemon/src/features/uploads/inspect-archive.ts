import { readFile } from 'node:fs/promises';
import { ArchiveRefusedError } from '../../pipeline/extract/index.ts';
import { resolveLimits } from '../../pipeline/extract/limits.ts';
import { planExtraction } from '../../pipeline/extract/plan.ts';
import { readCentralDirectory } from '../../pipeline/extract/zip-reader.ts';
import { Refusal } from '../../pipeline/extract/refusal.ts';

/**
 * What an upload's archive holds, read from its listing alone (nothing is written): every check
 * ExtractBot makes before writing — names, links, sizes, ratios, encryption, duplicates — applies,
 * and a refusal throws the same ArchiveRefusedError (422). For an upload that must wait its turn.
 */
export async function inspectArchive(zipPath: string): Promise<{ hasPackageJson: boolean }> {
  try {
    const plan = planExtraction(readCentralDirectory(await readFile(zipPath)), resolveLimits());
    return { hasPackageJson: plan.files.some((file) => file.path === 'package.json') };
  } catch (error) {
    if (error instanceof Refusal) throw new ArchiveRefusedError(error.code, error.entry, error.message);
    throw error;
  }
}
