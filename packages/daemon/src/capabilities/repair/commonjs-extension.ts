import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { CJS_SYNTAX, ESM_SYNTAX } from '../diagnose/module-format-rules.ts';
import { unifiedDiff } from './diff.ts';
import { setMember } from './json-edit.ts';
import { fileInside, readInside } from './project.ts';
import type { PlanResult, RepairTarget } from './types.ts';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * USE_COMMONJS_EXTENSION: rename a CommonJS `.js` file that a "type": "module" package.json makes an
 * ES module to `.cjs` (the bytes unchanged), and every script of that package.json that names it.
 * Declined when the file uses import/export too (it is neither), when the `.cjs` name is taken, or
 * when another project file imports it by name (a rename would break that import). The trial on a
 * copy then shows whether the renamed file runs (a require of another ESM .js file still fails).
 */
export function planCommonJsExtension(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  return planRename(diagnosis, target, {
    code: 'USE_COMMONJS_EXTENSION',
    ext: '.cjs',
    other: ESM_SYNTAX,
    otherName: 'import/export',
    runs: 'CommonJS',
  });
}

/**
 * USE_ESM_EXTENSION, the same the other way round: an ES module `.js` file that a "type": "commonjs"
 * package.json (or none) makes CommonJS is renamed to `.mjs`. Declined when it uses CommonJS too.
 */
export function planEsmExtension(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  return planRename(diagnosis, target, {
    code: 'USE_ESM_EXTENSION',
    ext: '.mjs',
    other: CJS_SYNTAX,
    otherName: 'require/module.exports',
    runs: 'an ES module',
  });
}

async function planRename(
  diagnosis: Diagnosis,
  target: RepairTarget,
  how: {
    code: 'USE_COMMONJS_EXTENSION' | 'USE_ESM_EXTENSION';
    ext: '.cjs' | '.mjs';
    other: RegExp;
    otherName: string;
    runs: string;
  },
): Promise<PlanResult> {
  const [file, manifest] = diagnosis.subjects ?? [];
  if (!file || !manifest || !file.endsWith('.js')) {
    return { plan: null, reason: 'the diagnosis does not name a .js file and its package.json' };
  }
  const source = await readInside(target.projectDir, file);
  if (source === null) return { plan: null, reason: `${file} is not a file in the project` };
  if (how.other.test(source)) {
    return { plan: null, reason: `${file} also uses ${how.otherName}: renaming it would not make it run` };
  }
  const renamed = file.replace(/\.js$/, how.ext);
  if (await fileInside(target.projectDir, renamed)) {
    return { plan: null, reason: `${renamed} already exists: RepairBot does not overwrite it` };
  }
  const pkgText = await readInside(target.projectDir, manifest);
  if (pkgText === null) return { plan: null, reason: `${manifest} is not a file in the project` };
  let pkg: { scripts?: Record<string, unknown> };
  try {
    pkg = JSON.parse(pkgText) as typeof pkg;
  } catch {
    return { plan: null, reason: `${manifest} is not valid JSON` };
  }
  // The file as a script names it, from the package.json's folder: build.js, ./build.js, scripts/build.js.
  const fromPkg = path.posix.relative(path.posix.dirname(manifest), file);
  const named = new RegExp(`(^|[\\s"'=])(\\./)?${escapeRegExp(fromPkg)}(?=$|[\\s"';&|])`, 'g');
  let nextPkg = pkgText;
  for (const [name, command] of Object.entries(pkg.scripts ?? {})) {
    if (typeof command !== 'string' || !named.test(command)) continue;
    named.lastIndex = 0;
    const rewritten = command.replace(
      named,
      (_m, lead: string, dot: string | undefined) =>
        `${lead}${dot ?? ''}${fromPkg.replace(/\.js$/, how.ext)}`,
    );
    nextPkg = setMember(nextPkg, ['scripts'], name, rewritten);
  }
  const files = [file, renamed, ...(nextPkg !== pkgText ? [manifest] : [])];
  return {
    plan: {
      code: how.code,
      summary: `RepairBot renamed ${file} to ${renamed} so Node runs it as ${how.runs}${nextPkg !== pkgText ? `, and the ${manifest} scripts that run it` : ''}`,
      files,
      diff: unifiedDiff([
        { file, before: source, after: null },
        { file: renamed, before: null, after: source },
        ...(nextPkg !== pkgText ? [{ file: manifest, before: pkgText, after: nextPkg }] : []),
      ]),
      writes: [
        { file: renamed, content: source },
        { file, content: null },
        ...(nextPkg !== pkgText ? [{ file: manifest, content: nextPkg }] : []),
      ],
      backup: [],
    },
  };
}
