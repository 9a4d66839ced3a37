import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Blueprint } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

async function detect(files: Record<string, string>): Promise<Blueprint> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-extras-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return detectBlueprint(root, { machine: { git: false, registry: 'https://registry.npmjs.org/' } });
}

const decision = (bp: Blueprint, field: string) => bp.decisions.find((d) => d.field === field);
const MANAGE = `import os, sys
if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_conf.settings")
    from django.core.management import execute_from_command_line
    execute_from_command_line(sys.argv)
`;

describe('Django: collectstatic and migrate only where the project has them', () => {
  it('both, with an SQLite database and STATIC_ROOT', async () => {
    const bp = await detect({
      'requirements.txt': 'django\n',
      'manage.py': MANAGE,
      'site_conf/settings.py': `STATIC_URL = "static/"\nSTATIC_ROOT = BASE_DIR / "staticfiles"\nDATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}\n`,
    });
    expect(bp).toMatchObject({ framework: 'django', kind: 'server' });
    expect(bp.build).toEqual([
      'sh',
      '-c',
      'python manage.py collectstatic --noinput && python manage.py migrate --noinput',
    ]);
    expect(decision(bp, 'collectstatic')).toMatchObject({ value: 'run', file: 'site_conf/settings.py' });
    expect(decision(bp, 'migrate')).toMatchObject({ value: 'run', file: 'site_conf/settings.py' });
    expect(bp.start).toEqual(['python', 'manage.py', 'runserver', '127.0.0.1:{PORT}', '--noreload']);
  });

  it('neither, with a PostgreSQL database and no STATIC_ROOT, each said why', async () => {
    const bp = await detect({
      'requirements.txt': 'django\npsycopg\n',
      'manage.py': MANAGE,
      'site_conf/settings.py': `STATIC_URL = "static/"\nDATABASES = {"default": {"ENGINE": "django.db.backends.postgresql"}}\n`,
    });
    expect(bp.build).toBeNull();
    expect(decision(bp, 'collectstatic')).toMatchObject({ value: 'not run' });
    expect(decision(bp, 'migrate')!.rule).toMatch(/a server Forge does not provide/);
  });

  it('collectstatic alone as one command', async () => {
    const bp = await detect({
      'requirements.txt': 'django\n',
      'manage.py': MANAGE,
      'site_conf/settings/__init__.py': `STATIC_ROOT = "/srv/static"\n`,
    });
    expect(bp.build).toEqual(['python', 'manage.py', 'collectstatic', '--noinput']);
  });
});

describe('PHP: Composer and Laravel', () => {
  it('composer install from a composer.lock, and from composer.json alone', async () => {
    const locked = await detect({
      'composer.json': '{"require":{"php":">=8.1"}}',
      'composer.lock': '{"packages":[]}',
      'index.php': '<?php echo 1;',
    });
    expect(locked.install).toEqual(['composer', 'install', '--no-interaction', '--no-dev']);
    expect(decision(locked, 'install')).toMatchObject({ file: 'composer.lock' });
    expect(locked.runtime).toMatchObject({
      tool: 'php',
      wanted: '>=8.1',
      minimum: '8.1',
      versionFile: 'composer.json',
    });
    const unlocked = await detect({ 'composer.json': '{}', 'index.php': '<?php echo 1;' });
    expect(unlocked.install).toEqual(['composer', 'install', '--no-interaction', '--no-dev']);
    expect(decision(unlocked, 'install')).toMatchObject({ file: 'composer.json' });
  });

  it("Laravel is its artisan, served by artisan serve from public/'s app", async () => {
    const bp = await detect({
      artisan: '#!/usr/bin/env php\n<?php\n',
      'composer.json': '{"require":{"php":"^8.2","laravel/framework":"^11.0"}}',
      'composer.lock': '{"packages":[]}',
      'public/index.php': '<?php\n',
    });
    expect(bp).toMatchObject({ stack: 'php', framework: 'laravel', kind: 'server' });
    expect(bp.start).toEqual(['php', 'artisan', 'serve', '--host=127.0.0.1', '--port={PORT}']);
    expect(decision(bp, 'stack')).toMatchObject({ file: 'artisan' });
  });
});
