import { describe, expect, it } from 'vitest';
import { useProjects } from '../../../test/support/detect-project.ts';
import { BlueprintError } from './blueprint-error.ts';
import { detectBlueprint } from './index.ts';
import { jsonErrorPlace } from './json-place.ts';

const project = useProjects();

const placeOf = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonErrorPlace(text, error);
  }
  throw new Error('valid JSON');
};

describe('where a package.json stops being JSON', () => {
  it('points at a trailing comma, not at the brace after it', () => {
    expect(placeOf('{\n  "scripts": {\n    "build": "vite build",\n  }\n}\n')).toEqual({
      line: 3,
      column: 26,
      what: 'a comma before the closing } (JSON allows no trailing comma)',
    });
  });

  it("gives the parser's words at its place otherwise", () => {
    expect(placeOf('{\n  "name": "x"\n  "private": true\n}')).toEqual({
      line: 3,
      column: 3,
      what: "Expected ',' or '}' after property value",
    });
  });
});

describe('BlueprintBot refusing a package.json it cannot read', () => {
  it('says the line and column, in the message and in the details the upload answers with', async () => {
    const dir = await project({
      'package.json': '{\n  "name": "app",\n  "scripts": { "build": "vite build", }\n}\n',
      'index.html': '<h1>x</h1>',
    });
    const error = await detectBlueprint(dir).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BlueprintError);
    expect((error as BlueprintError).message).toBe(
      'package.json is not valid JSON at 3:37: a comma before the closing } (JSON allows no trailing comma).',
    );
    expect((error as BlueprintError).details).toEqual({
      file: 'package.json',
      line: 3,
      column: 37,
      issues: [],
    });
  });
});
