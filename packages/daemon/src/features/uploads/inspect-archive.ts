import { inspectArchive as inspectInThread } from '../../capabilities/extract/index.ts';

/**
 * What an upload's archive holds, read from its listing alone (nothing is written): every check
 * ExtractBot makes before writing — names, links, sizes, ratios, encryption, duplicates — applies,
 * and a refusal throws the same ArchiveRefusedError (422). For an upload that must wait its turn.
 * Read in the extraction thread, so a 10,000-entry listing never holds up the event loop.
 */
export async function inspectArchive(zipPath: string): Promise<{ hasPackageJson: boolean }> {
  const { hasPackageJson } = await inspectInThread(zipPath);
  return { hasPackageJson };
}
