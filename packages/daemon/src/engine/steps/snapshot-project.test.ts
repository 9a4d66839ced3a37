import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotProject } from './verify-repair.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-snapshot-'));
  dirs.push(dir);
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('src/main.ts', "import './Util'\n");
  write('package.json', '{"name":"p"}\n');
  write('node_modules/vite/index.js', 'export {}\n');
  write('packages/ui/node_modules/clsx/index.js', 'module.exports = 1\n');
  fs.symlinkSync('../vite', path.join(dir, 'node_modules/.bin-vite'));
  return dir;
}

describe("a repair trial's scratch copy", () => {
  it("copies the upload's files, so an edit of the copy leaves the project as it was", async () => {
    const src = project();
    const dest = path.join(src, '..', `${path.basename(src)}-copy`);
    dirs.push(dest);
    await snapshotProject(src, dest);
    fs.writeFileSync(path.join(dest, 'src/main.ts'), "import './util'\n");
    fs.writeFileSync(path.join(dest, 'package.json'), '{"name":"p","dependencies":{"clsx":"2"}}\n');
    expect(fs.readFileSync(path.join(src, 'src/main.ts'), 'utf8')).toBe("import './Util'\n");
    expect(fs.readFileSync(path.join(src, 'package.json'), 'utf8')).toBe('{"name":"p"}\n');
  });

  it('hard-links every node_modules (nested ones too), and removing the copy’s leaves the project’s', async () => {
    const src = project();
    const dest = path.join(src, '..', `${path.basename(src)}-copy`);
    dirs.push(dest);
    await snapshotProject(src, dest);
    for (const rel of ['node_modules/vite/index.js', 'packages/ui/node_modules/clsx/index.js']) {
      expect(fs.statSync(path.join(dest, rel)).ino).toBe(fs.statSync(path.join(src, rel)).ino);
    }
    expect(fs.readlinkSync(path.join(dest, 'node_modules/.bin-vite'))).toBe('../vite');
    fs.rmSync(path.join(dest, 'node_modules'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'node_modules-new'), 'x');
    expect(fs.readFileSync(path.join(src, 'node_modules/vite/index.js'), 'utf8')).toBe('export {}\n');
  });
});
