import { childObject, scanObjects, stringProp, type ConfigObject } from './config-text.ts';
import {
  decide,
  depRule,
  projectDir,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';

const ANGULAR_JSON = 'angular.json';

/** The project `ng build` builds: defaultProject, else the only or first application. */
function pickProject(
  projects: ConfigObject,
  defaultProject: string | undefined,
): { name: string; why: string } | null {
  if (defaultProject && childObject(projects, defaultProject)) {
    return { name: defaultProject, why: `defaultProject "${defaultProject}"` };
  }
  const names = [...projects.props.keys()].filter((name) => childObject(projects, name));
  if (names.length === 1) return { name: names[0]!, why: `the only project, "${names[0]}"` };
  const app = names.find((name) => stringProp(childObject(projects, name), 'projectType') === 'application');
  if (app) return { name: app, why: `the first application project, "${app}"` };
  return names[0] ? { name: names[0], why: `the first project, "${names[0]}"` } : null;
}

/** An Angular build target's outputPath: a folder, or `{ base, browser }`, as written. */
export type AngularOutputPath =
  string | { base?: string | undefined; browser?: string | undefined } | undefined;

/**
 * The folder an Angular build target writes the site to (project-relative), with the rule. The
 * application builder (Angular 17+, `…:application`) writes the browser files to <outputPath>/browser,
 * or to outputPath.base/outputPath.browser when outputPath is an object; the older builders write to
 * outputPath itself. No outputPath: Angular's default dist/<project>. Null when it leaves the project.
 */
export function angularOutputDir(
  outputPath: AngularOutputPath,
  builder: string,
  project: string,
): { outputDir: string | null; rule: string } {
  if (typeof outputPath === 'object') {
    const base = outputPath.base ?? `dist/${project}`;
    const browser = outputPath.browser ?? 'browser';
    return {
      outputDir: projectDir(base, browser),
      rule: `outputPath { base: "${base}", browser: "${browser}" } of project "${project}"`,
    };
  }
  const applicationBuilder = builder.endsWith(':application');
  const path = outputPath ?? `dist/${project}`;
  const given = outputPath !== undefined ? `outputPath "${path}"` : `no outputPath: the default "${path}"`;
  return {
    outputDir: applicationBuilder ? projectDir(path, 'browser') : projectDir(path),
    rule: applicationBuilder
      ? `${given} of project "${project}"; the application builder writes the site to <outputPath>/browser`
      : `${given} of project "${project}"`,
  };
}

/**
 * Angular: the output folder is the build target's outputPath in angular.json (read as JSON with
 * comments, as the Angular CLI does). The application builder (Angular 17+) writes the browser files
 * to <outputPath>/browser, or to outputPath.base/outputPath.browser when outputPath is an object.
 */
export async function detectAngular(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@angular/core');
  if (!dep) return null;
  const content = await ctx.files.read(ANGULAR_JSON);
  const unknown = (rule: string): FrameworkPlan => {
    decide(ctx, 'angular', 'unknown', content ? ANGULAR_JSON : 'package.json', rule);
    return { framework: 'angular', kind: 'unknown', outputDir: null, build: null, start: null };
  };
  if (!content) return unknown(`${dep} but no angular.json, so Forge cannot tell what ng build would build`);

  const root = scanObjects(content.text)[0];
  const projects = childObject(root, 'projects');
  const picked = projects ? pickProject(projects, stringProp(root, 'defaultProject')) : null;
  if (!projects || !picked) return unknown('angular.json has no projects');

  const project = childObject(projects, picked.name);
  const target = childObject(childObject(project, 'architect') ?? childObject(project, 'targets'), 'build');
  const builder = stringProp(target, 'builder') ?? '';
  const options = childObject(target, 'options');

  const outputPath = options?.props.get('outputPath');
  const { outputDir, rule } = angularOutputDir(
    outputPath?.kind === 'object'
      ? { base: stringProp(outputPath.object, 'base'), browser: stringProp(outputPath.object, 'browser') }
      : outputPath?.kind === 'string'
        ? outputPath.value
        : undefined,
    builder,
    picked.name,
  );
  if (outputDir === null) return unknown(`the outputPath of project "${picked.name}" is outside the project`);
  decide(
    ctx,
    'angular',
    'static-build',
    ANGULAR_JSON,
    `${dep} and angular.json (${picked.why}, builder ${builder || 'none'})`,
  );
  ctx.log.add('outputDir', outputDir, ANGULAR_JSON, rule);
  return withBuild(
    ctx,
    { framework: 'angular', kind: 'static-build', outputDir, start: null },
    { bin: 'ng', args: ['build'], label: 'Angular CLI' },
  );
}
