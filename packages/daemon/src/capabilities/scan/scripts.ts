import { formatCommand, type Blueprint, type ScanIssue } from '@forge/shared';
import type { Manifest } from './manifests.ts';

/**
 * Scripts a project needs: something to build or serve (a build script, a start script or an
 * index.html), and a build script when it depends on a framework that builds (the framework's own
 * command is what Forge runs without one, but `npm run build` anywhere else fails).
 */

/** Frameworks that build, by the package that brings them, with their build command. */
const FRAMEWORK_BUILDS: ReadonlyArray<{ pkg: string; name: string; command: string }> = [
  { pkg: 'next', name: 'Next.js', command: 'next build' },
  { pkg: 'nuxt', name: 'Nuxt', command: 'nuxt build' },
  { pkg: '@sveltejs/kit', name: 'SvelteKit', command: 'vite build' },
  { pkg: 'astro', name: 'Astro', command: 'astro build' },
  { pkg: 'gatsby', name: 'Gatsby', command: 'gatsby build' },
  { pkg: '@angular/cli', name: 'Angular', command: 'ng build' },
  { pkg: 'react-scripts', name: 'Create React App', command: 'react-scripts build' },
  { pkg: '@vue/cli-service', name: 'Vue CLI', command: 'vue-cli-service build' },
  { pkg: 'vite', name: 'Vite', command: 'vite build' },
  { pkg: 'parcel', name: 'Parcel', command: 'parcel build' },
  { pkg: 'webpack-cli', name: 'webpack', command: 'webpack' },
];

export interface ScriptCheckInput {
  /** The app's package.json (the blueprint's appDir), or null when it has none. */
  manifest: Manifest | null;
  /** Project-relative folder of the app ("" for the root). */
  appDir: string;
  /** Whether the app folder has an index.html (a plain static site needs nothing else). */
  hasIndexHtml: boolean;
  blueprint: Blueprint | null;
}

export function scriptIssues({ manifest, appDir, hasIndexHtml, blueprint }: ScriptCheckInput): ScanIssue[] {
  if (!manifest) {
    if (hasIndexHtml) return [];
    return [
      {
        kind: 'missing-script',
        severity: 'error',
        summary: `Nothing to build or serve${appDir ? ` in ${appDir}` : ''}: no package.json and no index.html.`,
        suggestion:
          'Upload the folder that holds package.json (or index.html for a plain site), or add a package.json with a "build" or "start" script.',
      },
    ];
  }
  const { scripts } = manifest;
  const issues: ScanIssue[] = [];
  if (scripts.build === undefined && scripts.start === undefined && !hasIndexHtml) {
    const framework = FRAMEWORK_BUILDS.find((f) => manifest.deps.has(f.pkg));
    const planned = blueprint?.build ?? blueprint?.start ?? null;
    issues.push({
      kind: 'missing-script',
      severity: planned ? 'warn' : 'error',
      summary: `${manifest.file} has no "build" or "start" script, and there is no index.html.`,
      file: manifest.file,
      suggestion: planned
        ? `Forge runs \`${formatCommand(planned)}\` instead; add it as the "build" script so every tool agrees.`
        : framework
          ? `Add "build": "${framework.command}" to its scripts.`
          : 'Add a "build" script that writes the site to a folder, or a "start" script that serves it on $PORT.',
    });
    return issues;
  }
  // A server app (a start script) may use a bundler in development only.
  if (scripts.build === undefined && scripts.start === undefined) {
    const framework = FRAMEWORK_BUILDS.find((f) => manifest.deps.has(f.pkg));
    if (framework) {
      issues.push({
        kind: 'missing-script',
        severity: 'warn',
        summary: `${manifest.file} depends on ${framework.name} (${framework.pkg}) but has no "build" script.`,
        file: manifest.file,
        suggestion: `Add "build": "${framework.command}" to its scripts (without it Forge and RepairBot use \`${framework.command}\` themselves).`,
      });
    }
  }
  return issues;
}
