import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, UploadResult } from '@forge/shared';
import { pythonWheelOfInstalled, type ProjectFiles } from '@forge/testing';
import { cleanup, startTestApp, tempDir } from './helpers.ts';
import { makeZip, upload, watch, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// A real Django project (made by django-admin startproject) built through a real daemon: pip installs
// Django from wheels the test makes of this machine's Debian packages (no Python index is reachable),
// collectstatic and migrate run because its settings have STATIC_ROOT and SQLite, and runserver
// serves its page on PORT.

afterEach(cleanup);

const DIST = '/usr/lib/python3/dist-packages';
const installed = (pkg: string): string | null => {
  const info = fs
    .readdirSync(DIST)
    .find((f) => new RegExp(`^${pkg}-([\\d.]+)\\.(?:egg|dist)-info$`, 'i').test(f));
  return info ? /-([\d.]+)\./.exec(info)![1]! : null;
};
const available =
  onPath('python3', process.env.PATH ?? '') !== null &&
  onPath('django-admin', process.env.PATH ?? '') !== null &&
  fs.existsSync(DIST) &&
  ['Django', 'asgiref', 'sqlparse', 'pytz'].every((p) => installed(p) !== null);

function readTree(dir: string, rel = ''): ProjectFiles {
  const out: ProjectFiles = {};
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, name));
    else out[name] = fs.readFileSync(path.join(dir, name));
  }
  return out;
}

describe.skipIf(!available)('a Django project', () => {
  it(
    'is installed with pip, collectstatic and migrate run as its settings ask, and runserver previewed',
    { timeout: 240_000 },
    async () => {
      const dir = tempDir('forge-django-');
      execFileSync('django-admin', ['startproject', 'mysite', dir], { stdio: 'pipe' });
      fs.appendFileSync(
        path.join(dir, 'mysite/settings.py'),
        '\nSTATIC_ROOT = BASE_DIR / "staticfiles"\nSTATICFILES_DIRS = [BASE_DIR / "assets"]\n',
      );
      fs.mkdirSync(path.join(dir, 'assets'));
      fs.writeFileSync(path.join(dir, 'assets/site.css'), 'h1 { color: teal; }\n');
      fs.writeFileSync(
        path.join(dir, 'mysite/urls.py'),
        `from django.http import HttpResponse
from django.urls import path
from django.contrib.auth.models import User


def home(request):
    return HttpResponse('<h1>Hello from Django</h1><p>%d users</p>' % User.objects.count())


urlpatterns = [path('', home)]
`,
      );
      const versions = {
        Django: installed('Django')!,
        asgiref: installed('asgiref')!,
        sqlparse: installed('sqlparse')!,
        pytz: installed('pytz')!,
      };
      const files: ProjectFiles = {
        ...readTree(dir),
        'requirements.txt': `--no-index\n--find-links wheels\n${Object.entries(versions)
          .map(([n, v]) => `${n}==${v}`)
          .join('\n')}\n`,
      };
      for (const [name, version] of Object.entries(versions)) {
        files[`wheels/${name}-${version}-py3-none-any.whl`] = pythonWheelOfInstalled(
          name,
          version,
          path.join(DIST, name.toLowerCase()),
        );
      }

      const app = await startTestApp();
      const live = await watch(app);
      const result = (await (await upload(app, makeZip('django-site.zip', files))).json()) as UploadResult;
      const done: Build = await live.finished(result.buildId!, 230_000);
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      const bp = done.blueprint!;
      expect(bp).toMatchObject({
        stack: 'python',
        framework: 'django',
        kind: 'server',
        build: ['sh', '-c', 'python manage.py collectstatic --noinput && python manage.py migrate --noinput'],
        start: ['python', 'manage.py', 'runserver', '127.0.0.1:{PORT}', '--noreload'],
      });
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({ field: 'collectstatic', value: 'run', file: 'mysite/settings.py' }),
      );
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({ field: 'migrate', value: 'run', file: 'mysite/settings.py' }),
      );
      const project = path.join(app.home, 'projects', 'django-site');
      expect(fs.readFileSync(path.join(project, 'staticfiles/site.css'), 'utf8')).toContain('teal');
      expect(fs.existsSync(path.join(project, 'db.sqlite3'))).toBe(true);
      // The page reads the auth tables migrate made.
      expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello from Django</h1><p>0 users</p>');
    },
  );
});
