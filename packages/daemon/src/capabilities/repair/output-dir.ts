import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { FORGE_CONFIG_FILES } from '../detect/forge-config.ts';
import { INDEX_HTML } from '../checks/written-output.ts';
import { unifiedDiff } from './diff.ts';
import { addMember, setMember } from './json-edit.ts';
import { fileInside, readInside, readManifest } from './project.ts';
import type { PlanResult, RepairTarget } from './types.ts';

const CONFIG = 'forge.config.json';

/**
 * SET_OUTPUT_DIR: the build wrote its site to a folder the plan could not read (ScanBot found the one
 * index.html it wrote): that folder is named as "outputDir" in forge.config.json at the project's
 * root, which the output check then serves and looks nowhere else. Added to a forge.config.json that
 * exists; declined when the project's forge config is another file (the user's own choice of form).
 */
export async function planOutputDir(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const [, site] = diagnosis.subjects ?? [];
  const dir = site ? path.posix.normalize(site) : '';
  if (!dir || dir === '.' || dir.startsWith('../') || path.posix.isAbsolute(dir)) {
    return { plan: null, reason: 'the diagnosis does not name a folder inside the project' };
  }
  if (!(await fileInside(target.projectDir, `${dir}/${INDEX_HTML}`))) {
    return { plan: null, reason: `${dir} holds no ${INDEX_HTML}` };
  }
  const pkg = await readManifest(target.projectDir, 'package.json');
  if (pkg?.data.forge !== undefined) {
    return {
      plan: null,
      reason: 'the forge config is the "forge" key of package.json: set "outputDir" there',
    };
  }
  for (const file of FORGE_CONFIG_FILES) {
    if (file !== CONFIG && (await fileInside(target.projectDir, file))) {
      return { plan: null, reason: `the forge config is ${file}: set "outputDir" there` };
    }
  }
  const before = await readInside(target.projectDir, CONFIG);
  let after: string;
  if (before === null || before.trim() === '') after = `${JSON.stringify({ outputDir: dir }, null, 2)}\n`;
  else {
    const config = await readManifest(target.projectDir, CONFIG);
    if (!config) return { plan: null, reason: `${CONFIG} is not a JSON object` };
    after =
      config.data.outputDir === undefined
        ? addMember(before, [], 'outputDir', dir)
        : setMember(before, [], 'outputDir', dir);
  }
  return {
    plan: {
      code: 'SET_OUTPUT_DIR',
      summary: `RepairBot set "outputDir": "${dir}" in ${CONFIG}: the one site the build wrote (${dir}/${INDEX_HTML})`,
      files: [CONFIG],
      diff: unifiedDiff([{ file: CONFIG, before, after }]),
      writes: [{ file: CONFIG, content: after }],
      backup: [],
    },
  };
}
