import { describe, expect, it } from 'vitest';
import type { PackageManager } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';
import { scriptSegments } from './script-commands.ts';
import { ciTestCommand, matchRunner, runScriptWithArgs } from './test-command.ts';
import { decision, useProjects } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();

const plan = (
  test: string,
  pm: PackageManager = 'npm',
  extra: Record<string, string> = {},
  builder?: string,
) => ciTestCommand(pm, { test, ...extra }, builder ?? null)!;

describe('the runner table', () => {
  it.each([
    // script, what runs (npm), the runner
    [
      'ng test',
      ['npm', 'exec', '--no', '--', 'ng', 'test', '--watch=false', '--browsers=ChromeHeadless'],
      'angular-karma',
    ],
    ['vitest', ['npm', 'exec', '--no', '--', 'vitest', 'run'], 'vitest'],
    ['vitest --coverage', ['npm', 'exec', '--no', '--', 'vitest', 'run', '--coverage'], 'vitest'],
    ['jest', ['npm', 'exec', '--no', '--', 'jest', '--ci', '--watchAll=false'], 'jest'],
    [
      'react-scripts test',
      ['npm', 'exec', '--no', '--', 'react-scripts', 'test', '--watchAll=false'],
      'react-scripts',
    ],
    ['craco test', ['npm', 'exec', '--no', '--', 'craco', 'test', '--watchAll=false'], 'react-scripts'],
    [
      'karma start karma.conf.js',
      ['npm', 'exec', '--no', '--', 'karma', 'start', 'karma.conf.js', '--single-run'],
      'karma',
    ],
  ])('%s, the whole script, runs the runner itself once: %j', (script, argv, runner) => {
    const command = plan(script);
    expect(command.argv).toEqual(argv);
    expect(command.runner?.id).toBe(runner);
    expect(command.rule).toContain(`"test" script is exactly ${script}: Forge runs`);
  });

  it.each([
    ['node --test'],
    ['mocha'],
    ['tap test/*.js'],
    ['bun test'],
    ['vitest bench'],
    ['ng lint'],
    ['node scripts/test.js'],
  ])('%s runs as it is: it ends by itself (or Forge cannot tell it watches)', (script) => {
    expect(plan(script)).toEqual({
      argv: ['npm', 'run', 'test'],
      rule: `"test" script: ${script}`,
      runner: null,
    });
  });

  it('passes the flags through the script when it does more than start the runner', () => {
    expect(plan('tsc -p . && ng test').argv).toEqual([
      'npm',
      'run',
      'test',
      '--',
      '--watch=false',
      '--browsers=ChromeHeadless',
    ]);
    expect(plan('cross-env NODE_ENV=test jest').argv).toEqual([
      'npm',
      'run',
      'test',
      '--',
      '--ci',
      '--watchAll=false',
    ]);
    expect(plan('NODE_OPTIONS=--expose-gc vitest').argv).toEqual(['npm', 'run', 'test', '--', '--run']);
    expect(plan('npx jest').argv).toEqual(['npm', 'run', 'test', '--', '--ci', '--watchAll=false']);
    expect(plan('./node_modules/.bin/vitest').argv).toEqual(['npm', 'run', 'test', '--', '--run']);
    // A pretest hook only runs through the script.
    expect(plan('vitest', 'npm', { pretest: 'node gen.js' }).argv).toEqual([
      'npm',
      'run',
      'test',
      '--',
      '--run',
    ]);
  });

  it.each([
    ['npm', ['npm', 'run', 'test', '--', '--run']],
    ['pnpm', ['pnpm', 'run', 'test', '--run']],
    ['yarn', ['yarn', 'run', 'test', '--run']],
    ['bun', ['bun', 'run', 'test', '--run']],
  ] as const)('passes flags the way %s forwards them to a script', (pm, argv) => {
    expect(runScriptWithArgs(pm, 'test', ['--run'])).toEqual(argv);
    expect(plan('tsc && vitest', pm).argv).toEqual(argv);
  });

  it.each([
    ['pnpm', ['pnpm', 'exec', 'vitest', 'run']],
    ['yarn', ['yarn', 'run', 'vitest', 'run']],
    ['bun', ['bun', 'run', 'vitest', 'run']],
  ] as const)('runs the runner itself through %s', (pm, argv) => {
    expect(plan('vitest', pm).argv).toEqual(argv);
  });

  it('keeps what the script already says, and says so', () => {
    expect(plan('vitest run').argv).toEqual(['npm', 'run', 'test']);
    expect(plan('vitest run').rule).toContain('already runs once (vitest run runs once)');
    expect(plan('jest --ci --watchAll=false').argv).toEqual(['npm', 'run', 'test']);
    const browsers = plan('ng test --browsers=Firefox');
    expect(browsers.argv).toEqual([
      'npm',
      'exec',
      '--no',
      '--',
      'ng',
      'test',
      '--browsers=Firefox',
      '--watch=false',
    ]);
    expect(browsers.rule).toContain('the script sets --browsers itself, and that stands');
    const watching = plan('vitest watch');
    expect(watching.argv).toEqual(['npm', 'run', 'test']);
    expect(watching.rule).toContain('watch mode as the script asks');
  });

  it('cannot pass flags to a runner that is not the last command, and says what happens instead', () => {
    const command = plan('ng test && node report.js');
    expect(command.argv).toEqual(['npm', 'run', 'test']);
    expect(command.rule).toContain(
      'not as its last command, so Forge cannot pass --watch=false --browsers=ChromeHeadless',
    );
    expect(command.rule).toContain('TestBot stops it if it waits for changes');
  });

  it('gives Karma CHROME_BIN, and runs ng test without a browser when angular.json names another builder', () => {
    expect(plan('ng test').rule).toContain("CHROME_BIN: the machine's Chromium, found when the tests run");
    const unit = plan('ng test', 'npm', {}, '@angular/build:unit-test');
    expect(unit.argv).toEqual(['npm', 'exec', '--no', '--', 'ng', 'test', '--watch=false']);
    expect(unit.rule).toContain('(angular.json: @angular/build:unit-test)');
    expect(unit.rule).not.toContain('CHROME_BIN');
    expect(plan('ng test', 'npm', {}, '@angular-devkit/build-angular:karma').runner?.id).toBe(
      'angular-karma',
    );
  });

  it('knows a runner by its words', () => {
    expect(matchRunner(['ng', 't'])?.runner.id).toBe('angular-karma');
    expect(matchRunner(['ng', 'build'])).toBeNull();
    expect(matchRunner(['karma', 'run'])).toBeNull();
    expect(matchRunner(['vitest', 'run', 'src'])).toMatchObject({
      args: ['src'],
      alreadyOnce: expect.any(String),
    });
    expect(matchRunner(['react-scripts', 'start'])).toBeNull();
    expect(matchRunner([])).toBeNull();
  });

  it('splits a script at the shell separators outside quotes', () => {
    expect(scriptSegments('a && b || c; d | e & f')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(scriptSegments(`echo "a && b" && jest`)).toEqual(['echo "a && b"', 'jest']);
    // A script Forge cannot read as words (substitution) runs as it is.
    expect(plan('jest $(cat args)').argv).toEqual(['npm', 'run', 'test']);
  });
});

describe('the plan', () => {
  it('records the CI-style command with its evidence', async () => {
    const bp = await detectBlueprint(
      await makeProject({
        'package.json': {
          name: 'a',
          scripts: { build: 'x', test: 'vitest' },
          devDependencies: { vitest: '^3' },
        },
      }),
    );
    expect(bp.test).toEqual(['npm', 'exec', '--no', '--', 'vitest', 'run']);
    expect(decision(bp, 'test')).toMatchObject({
      value: 'npm exec --no -- vitest run',
      file: 'package.json',
      rule: expect.stringContaining('Vitest given --run so it runs once instead of watching for changes'),
    });
  });

  it('reads the test builder of an Angular project from angular.json', async () => {
    const angular = (builder: string) => ({
      'package.json': {
        name: 'ng-app',
        scripts: { build: 'ng build', test: 'ng test' },
        dependencies: { '@angular/core': '^20' },
      },
      'angular.json': `{
        // comments are allowed, as the Angular CLI allows them
        "projects": { "ng-app": { "projectType": "application", "architect": {
          "build": { "builder": "@angular/build:application", "options": { "outputPath": "dist/ng-app" } },
          "test": { "builder": "${builder}" } } } } }`,
    });
    const karma = await detectBlueprint(await makeProject(angular('@angular/build:karma')));
    expect(karma.test).toEqual([
      'npm',
      'exec',
      '--no',
      '--',
      'ng',
      'test',
      '--watch=false',
      '--browsers=ChromeHeadless',
    ]);
    expect(decision(karma, 'test').rule).toMatch(
      /^"test" script is exactly ng test: Forge runs ng test --watch=false --browsers=ChromeHeadless itself, Karma via ng test \(angular\.json: @angular\/build:karma\) given --watch=false --browsers=ChromeHeadless so it runs once in headless Chromium and ends/,
    );
    const vitest = await detectBlueprint(await makeProject(angular('@angular/build:unit-test')));
    expect(vitest.test).toEqual(['npm', 'exec', '--no', '--', 'ng', 'test', '--watch=false']);
  });
});
