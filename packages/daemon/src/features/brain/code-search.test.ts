import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODE_SEARCH_LIMITS, searchCode } from './code-search.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string | Buffer>): { root: string; files: string[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-code-search-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { root, files: Object.keys(files) };
}

describe('searchCode', () => {
  it('finds a word inside identifiers and names the declaring file and line first', async () => {
    const p = project({
      'src/App.tsx': "import { LoginForm } from './LoginForm';\nexport const App = () => <LoginForm />;\n",
      'src/auth.ts': '// helpers\n\nexport async function handleLogin(email: string) {\n  return email;\n}\n',
      'src/other.ts': 'export const nothing = 1;\n',
    });
    const result = await searchCode(p.root, p.files, ['login']);
    expect(result.matches.map((m) => m.file)).toEqual(['src/auth.ts', 'src/App.tsx']);
    expect(result.matches[0]!.hits[0]).toEqual({
      file: 'src/auth.ts',
      line: 3,
      text: 'export async function handleLogin(email: string) {',
    });
  });

  it('finds the imports of a package, not its mentions', async () => {
    const p = project({
      'src/a.ts': "import { format } from 'date-fns';\n",
      'src/b.ts': "const fp = require('date-fns/fp');\n",
      'README.md': 'We use date-fns for dates.\n',
    });
    const result = await searchCode(p.root, p.files, ['date-fns'], { importsOf: 'date-fns' });
    expect(result.matches.map((m) => `${m.hits[0]!.file}:${m.hits[0]!.line}`).sort()).toEqual([
      'src/a.ts:1',
      'src/b.ts:1',
    ]);
  });

  it('needs every word, and skips lockfiles, binaries and files over the size limit', async () => {
    const p = project({
      'src/users.ts': 'export const usersRoute = "/users";\n',
      'src/route.ts': 'export const route = 1;\n',
      'package-lock.json': '{"users": "route"}\n',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
      'src/big.ts': `// users route\n${'x'.repeat(CODE_SEARCH_LIMITS.fileBytes)}\n`,
    });
    const result = await searchCode(p.root, p.files, ['users', 'route']);
    expect(result.matches.map((m) => m.file)).toEqual(['src/users.ts']);
  });
});
