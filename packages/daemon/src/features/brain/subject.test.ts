import { describe, expect, it } from 'vitest';
import { parseSubject } from './subject.ts';

const PROJECTS = ['shop', 'shop-admin', 'broken-all', 'docs'];
const parse = (q: string) => parseSubject(q, PROJECTS);

describe('parseSubject', () => {
  it('finds the project a question names, the longest name first, wherever it stands', () => {
    expect(parse('what is the plan of broken-all?')).toMatchObject({ project: 'broken-all', topic: 'plan' });
    expect(parse('is shop-admin passing its tests')).toMatchObject({ project: 'shop-admin', topic: 'tests' });
    expect(parse("shop's dependencies")).toMatchObject({ project: 'shop', topic: 'dependencies' });
    // The project's name is not read as a topic word: "broken" in broken-all is not a failure.
    expect(parse('what is the plan of broken-all').topic).toBe('plan');
  });

  it('reads a plain word as a project only where the question names one', () => {
    // "docs" is a project here, but "the docs folder" is a folder.
    expect(parse('which files are in the docs folder?').project).toBe('docs');
    expect(parse('what are the scripts of docs?').project).toBe('docs');
    expect(parse('what did RepairBot do?').project).toBeNull();
  });

  it('keeps a name given as a project that Forge does not hold', () => {
    expect(parse('why did project shopp fail?')).toMatchObject({
      project: null,
      named: 'shopp',
      namedAsProject: true,
      topic: 'failure',
    });
    expect(parse('what is the plan of broken-alll?')).toMatchObject({ project: null, named: 'broken-alll' });
  });

  it('finds build ids, bots, paths and folders', () => {
    expect(parse('what happened in b12-3fa9c1?')).toMatchObject({ buildId: 'b12-3fa9c1', topic: 'builds' });
    expect(parse('what did RepairBot do to broken-all?')).toMatchObject({
      bot: 'RepairBot',
      project: 'broken-all',
      topic: 'repairs',
    });
    expect(parse('what did the test bot say?')).toMatchObject({ bot: 'TestBot', topic: 'tests' });
    expect(parse('where is src/App.tsx?')).toMatchObject({ paths: ['src/App.tsx'], topic: 'find' });
    expect(parse('where is vite.config.ts')).toMatchObject({ paths: ['vite.config.ts'], topic: 'find' });
    expect(parse('which files are in src?')).toMatchObject({ places: ['src'], topic: 'files' });
  });

  it('tells questions about the code from questions about a record', () => {
    expect(parse('where is the login handled?')).toMatchObject({ topic: 'code', terms: ['login'] });
    expect(parse('what uses date-fns?')).toMatchObject({ topic: 'code', terms: ['date-fns'] });
    expect(parse('which framework does it use?').topic).toBe('plan');
    expect(parse('which version of react does shop use?')).toMatchObject({
      project: 'shop',
      topic: 'dependencies',
    });
    expect(parse('where is checkout')).toMatchObject({ topic: 'code', terms: ['checkout'] });
  });

  it('reads the topics a developer asks about', () => {
    expect(parse('what is the plan?').topic).toBe('plan');
    expect(parse('why did the build fail?').topic).toBe('failure');
    expect(parse('what was the last failure?').topic).toBe('failure');
    expect(parse('did the tests pass?').topic).toBe('tests');
    expect(parse('what repairs were made?').topic).toBe('repairs');
    expect(parse('show me the logs').topic).toBe('logs');
    expect(parse('how long did the install take?').topic).toBe('steps');
    expect(parse('what scripts are there?').topic).toBe('scripts');
    expect(parse('which dependencies does it have').topic).toBe('dependencies');
    expect(parse('how many files?').topic).toBe('files');
    expect(parse('which projects are there?').topic).toBe('projects');
    expect(parse('what is the meaning of life?').topic).toBe('none');
  });
});
