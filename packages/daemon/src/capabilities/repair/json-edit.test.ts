import { describe, expect, it } from 'vitest';
import { addMember, detectIndent, isSorted, setMember } from './json-edit.ts';

describe('addMember', () => {
  it('inserts in sorted position when the object is sorted, keeping the rest of the text as it was', () => {
    const text =
      '{\n  "name": "app",\n  "files": ["dist", "src"],\n  "dependencies": {\n    "a": "^1.0.0",\n    "c": "^1.0.0"\n  }\n}\n';
    const out = addMember(text, ['dependencies'], 'b', '^2.0.0', { keepSorted: true });
    expect(out).toBe(
      '{\n  "name": "app",\n  "files": ["dist", "src"],\n  "dependencies": {\n    "a": "^1.0.0",\n    "b": "^2.0.0",\n    "c": "^1.0.0"\n  }\n}\n',
    );
  });

  it('inserts before the first member and after the last when sorting says so', () => {
    const text = '{\n  "dependencies": {\n    "m": "1"\n  }\n}';
    expect(addMember(text, ['dependencies'], 'a', '2', { keepSorted: true })).toBe(
      '{\n  "dependencies": {\n    "a": "2",\n    "m": "1"\n  }\n}',
    );
    expect(addMember(text, ['dependencies'], 'z', '2', { keepSorted: true })).toBe(
      '{\n  "dependencies": {\n    "m": "1",\n    "z": "2"\n  }\n}',
    );
  });

  it('appends to an unsorted object, with its tabs and CRLF line endings', () => {
    const text =
      '{\r\n\t"devDependencies": {\r\n\t\t"vite": "^5.0.0",\r\n\t\t"@types/node": "^20.0.0"\r\n\t}\r\n}\r\n';
    expect(addMember(text, ['devDependencies'], 'canvas-confetti', '^1.9.3', { keepSorted: true })).toBe(
      '{\r\n\t"devDependencies": {\r\n\t\t"vite": "^5.0.0",\r\n\t\t"@types/node": "^20.0.0",\r\n\t\t"canvas-confetti": "^1.9.3"\r\n\t}\r\n}\r\n',
    );
  });

  it('adds a new field laid out like the file, next to the key asked for', () => {
    const text = '{\n    "name": "app",\n    "devDependencies": {\n        "vite": "^5.0.0"\n    }\n}\n';
    expect(
      addMember(text, [], 'dependencies', { a: '^1.0.0', b: '^2.0.0' }, { before: 'devDependencies' }),
    ).toBe(
      '{\n    "name": "app",\n    "dependencies": {\n        "a": "^1.0.0",\n        "b": "^2.0.0"\n    },\n    "devDependencies": {\n        "vite": "^5.0.0"\n    }\n}\n',
    );
    expect(addMember(text, [], 'scripts', { build: 'vite build' }, { before: 'missing' })).toBe(
      '{\n    "name": "app",\n    "devDependencies": {\n        "vite": "^5.0.0"\n    },\n    "scripts": {\n        "build": "vite build"\n    }\n}\n',
    );
  });

  it('fills an empty object and edits a one-line file on its line', () => {
    expect(addMember('{\n  "scripts": {}\n}\n', ['scripts'], 'build', 'vite build')).toBe(
      '{\n  "scripts": {\n    "build": "vite build"\n  }\n}\n',
    );
    expect(addMember('{"name":"x","dependencies":{"a":"1"}}', ['dependencies'], 'b', '2')).toBe(
      '{"name":"x","dependencies":{"a":"1", "b": "2"}}',
    );
  });

  it('skips strings with braces and escaped quotes while finding the object', () => {
    const text =
      '{\n  "description": "a \\"{quoted}\\" [thing]",\n  "scripts": {\n    "dev": "vite"\n  }\n}\n';
    const out = addMember(text, ['scripts'], 'build', 'vite build');
    expect(JSON.parse(out)).toEqual({
      description: 'a "{quoted}" [thing]',
      scripts: { dev: 'vite', build: 'vite build' },
    });
  });

  it('refuses a key that is there already and a path that is not an object', () => {
    expect(() => addMember('{"a":{"b":1}}', ['a'], 'b', 2)).toThrow(/already/);
    expect(() => addMember('{"a":1}', ['x'], 'b', 2)).toThrow(/no "x"/);
  });
});

describe('addMember and setMember on files a JSON parser would refuse', () => {
  it('edits past comments, keeping them, and after a byte-order mark', () => {
    const text =
      '\uFEFF{\n  // the app\n  "name": "app", /* scripts below */\n  "scripts": {\n    "dev": "vite"\n  }\n}\n';
    expect(addMember(text, ['scripts'], 'build', 'vite build')).toBe(
      '\uFEFF{\n  // the app\n  "name": "app", /* scripts below */\n  "scripts": {\n    "dev": "vite",\n    "build": "vite build"\n  }\n}\n',
    );
    expect(setMember(text, [], 'name', 'shop')).toBe(text.replace('"app"', '"shop"'));
  });

  it('refuses broken JSON rather than guess where the member goes', () => {
    expect(() => addMember('{\n  "a": 1,\n}', [], 'b', 2)).toThrow(SyntaxError);
    expect(() => addMember('{\n  "a": 1\n  "b": 2\n}', [], 'c', 3)).toThrow(/CommaExpected at offset 13/);
    expect(() => setMember('{"a": {"b": 1}}', ['a', 'b'], 'c', 2)).toThrow(/expected an object/);
  });
});

describe('helpers', () => {
  it('detects the indentation unit and npm sort order', () => {
    expect(detectIndent('{\n\t"a": 1\n}')).toBe('\t');
    expect(detectIndent('{"a":1}')).toBe('  ');
    expect(isSorted(['@types/node', 'react', 'react-dom'])).toBe(true);
    expect(isSorted(['vite', '@types/node'])).toBe(false);
  });
});
