import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSbom } from './sbom.ts';

interface Component {
  name: string;
  version: string;
  purl: string;
  'bom-ref': string;
  hashes?: Array<{ alg: string; content: string }>;
  licenses?: Array<{ license?: { id?: string; name?: string }; expression?: string }>;
  properties?: Array<{ name: string; value: string }>;
}
interface Bom {
  components?: Component[];
  dependencies?: Array<{ ref: string; dependsOn?: string[] }>;
  metadata: { component: { 'bom-ref': string }; properties?: Array<{ name: string; value: string }> };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-sbom-stacks-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

async function sbomOf(dir: string, stack: string, venv: string | null = null): Promise<Bom> {
  const sbom = buildSbom({
    projectName: 'app',
    appDir: dir,
    installDir: dir,
    tools: [{ name: 'forge', version: '1.0.0' }],
    sourceDigest: 'digest',
    stack,
    venv,
  });
  // Every SBOM Forge writes is valid CycloneDX 1.6, whatever the stack.
  expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(sbom.json)).toBeNull();
  return JSON.parse(sbom.json) as Bom;
}

const byPurl = (bom: Bom, purl: string) => bom.components?.find((c) => c.purl === purl);
const dependsOn = (bom: Bom, ref: string) => bom.dependencies?.find((d) => d.ref === ref)?.dependsOn ?? [];

const H1 = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

describe('the SBOM of other stacks', () => {
  it('Python: the virtual environment’s distributions with their licences and requirements, pip’s tooling left out', async () => {
    const site = 'venv/lib/python3.11/site-packages';
    const dir = tree({
      'requirements.txt':
        'Flask==3.0.0 \\\n    --hash=sha256:21128f47e4e3b9d597a3e8521a329bf56909b690fcc3fa3e477725aa81367638\nJinja2==3.1.2\n',
      [`${site}/flask-3.0.0.dist-info/METADATA`]:
        'Metadata-Version: 2.1\nName: Flask\nVersion: 3.0.0\nLicense-Expression: BSD-3-Clause\nRequires-Dist: Jinja2>=3.1.2\nRequires-Dist: asgiref>=3.2 ; extra == "async"\n\nFlask is a web framework.\n',
      [`${site}/jinja2-3.1.2.dist-info/METADATA`]:
        'Metadata-Version: 2.1\nName: Jinja2\nVersion: 3.1.2\nClassifier: License :: OSI Approved :: BSD License\nRequires-Dist: MarkupSafe (>=2.0)\n',
      [`${site}/MarkupSafe-2.1.3.dist-info/METADATA`]:
        'Metadata-Version: 2.1\nName: MarkupSafe\nVersion: 2.1.3\nLicense: BSD-3-Clause\n',
      [`${site}/pip-24.0.dist-info/METADATA`]:
        'Metadata-Version: 2.1\nName: pip\nVersion: 24.0\nLicense: MIT\n',
    });
    const bom = await sbomOf(dir, 'python', path.join(dir, 'venv'));
    expect(bom.components?.map((c) => c.purl).sort()).toEqual([
      'pkg:pypi/flask@3.0.0',
      'pkg:pypi/jinja2@3.1.2',
      'pkg:pypi/markupsafe@2.1.3',
    ]);
    const flask = byPurl(bom, 'pkg:pypi/flask@3.0.0')!;
    expect(flask.licenses).toEqual([{ license: { id: 'BSD-3-Clause' } }]);
    expect(flask.hashes).toEqual([
      { alg: 'SHA-256', content: '21128f47e4e3b9d597a3e8521a329bf56909b690fcc3fa3e477725aa81367638' },
    ]);
    expect(byPurl(bom, 'pkg:pypi/jinja2@3.1.2')!.licenses).toEqual([{ license: { name: 'BSD License' } }]);
    // The graph: the project requires Flask and Jinja2; Flask requires Jinja2 (its extra's asgiref is not installed).
    expect(dependsOn(bom, bom.metadata.component['bom-ref']).sort()).toEqual([
      'pkg:pypi/flask@3.0.0',
      'pkg:pypi/jinja2@3.1.2',
    ]);
    expect(dependsOn(bom, 'pkg:pypi/flask@3.0.0')).toEqual(['pkg:pypi/jinja2@3.1.2']);
    expect(dependsOn(bom, 'pkg:pypi/jinja2@3.1.2')).toEqual(['pkg:pypi/markupsafe@2.1.3']);
    expect(bom.metadata.properties).toContainEqual({ name: 'forge:lockfile', value: 'requirements.txt' });
  });

  it('Python without an environment: the lockfile’s pins', async () => {
    const dir = tree({
      'uv.lock':
        'version = 1\n\n[[package]]\nname = "requests"\nversion = "2.31.0"\n\n[[package]]\nname = "idna"\nversion = "3.6"\n',
    });
    const bom = await sbomOf(dir, 'python');
    expect(bom.components?.map((c) => c.purl).sort()).toEqual([
      'pkg:pypi/idna@3.6',
      'pkg:pypi/requests@2.31.0',
    ]);
    expect(bom.metadata.properties).toContainEqual({ name: 'forge:lockfile', value: 'uv.lock' });
  });

  it('Go: go.mod’s modules with go.sum’s h1 digest as sha256, the direct ones under the root', async () => {
    const dir = tree({
      'go.mod':
        'module example.com/server\n\ngo 1.21\n\nrequire github.com/google/uuid v1.6.0\n\nrequire (\n\tgolang.org/x/text v0.14.0 // indirect\n)\n',
      'go.sum': `github.com/google/uuid v1.6.0 h1:${H1}\ngithub.com/google/uuid v1.6.0/go.mod h1:frQ6OXlBaUEy5xtv6Ktf3b3hzbBqiiZ8Y32dwSyGbMs=\n`,
    });
    const bom = await sbomOf(dir, 'go');
    expect(bom.components?.map((c) => c.purl).sort()).toEqual([
      'pkg:golang/github.com/google/uuid@v1.6.0',
      'pkg:golang/golang.org/x/text@v0.14.0',
    ]);
    expect(byPurl(bom, 'pkg:golang/github.com/google/uuid@v1.6.0')!.hashes).toEqual([
      { alg: 'SHA-256', content: Buffer.from(H1, 'base64').toString('hex') },
    ]);
    expect(byPurl(bom, 'pkg:golang/golang.org/x/text@v0.14.0')!.hashes).toBeUndefined();
    expect(dependsOn(bom, bom.metadata.component['bom-ref'])).toEqual([
      'pkg:golang/github.com/google/uuid@v1.6.0',
    ]);
  });

  it('PHP: composer.lock’s packages with licences, sha1 and requirements; packages-dev marked', async () => {
    const dir = tree({
      'composer.json': JSON.stringify({
        require: { php: '>=8.1', 'monolog/monolog': '^3.5' },
        'require-dev': { 'phpunit/phpunit': '^10' },
      }),
      'composer.lock': JSON.stringify({
        packages: [
          {
            name: 'monolog/monolog',
            version: '3.5.0',
            license: ['MIT'],
            require: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' },
            dist: { type: 'zip', shasum: 'c915e2634718dbc8a4a15c61b0e62e7a44e14448' },
          },
          { name: 'psr/log', version: '3.0.0', license: ['MIT'], dist: { type: 'zip', shasum: '' } },
        ],
        'packages-dev': [{ name: 'phpunit/phpunit', version: '10.5.0', license: ['BSD-3-Clause'] }],
      }),
    });
    const bom = await sbomOf(dir, 'php');
    expect(bom.components?.map((c) => c.purl).sort()).toEqual([
      'pkg:composer/monolog/monolog@3.5.0',
      'pkg:composer/phpunit/phpunit@10.5.0',
      'pkg:composer/psr/log@3.0.0',
    ]);
    const monolog = byPurl(bom, 'pkg:composer/monolog/monolog@3.5.0')!;
    expect(monolog.hashes).toEqual([{ alg: 'SHA-1', content: 'c915e2634718dbc8a4a15c61b0e62e7a44e14448' }]);
    expect(monolog.licenses).toEqual([{ license: { id: 'MIT' } }]);
    expect(dependsOn(bom, 'pkg:composer/monolog/monolog@3.5.0')).toEqual(['pkg:composer/psr/log@3.0.0']);
    expect(byPurl(bom, 'pkg:composer/phpunit/phpunit@10.5.0')!.properties).toEqual([
      { name: 'forge:package:development', value: 'true' },
    ]);
    expect(dependsOn(bom, bom.metadata.component['bom-ref']).sort()).toEqual([
      'pkg:composer/monolog/monolog@3.5.0',
      'pkg:composer/phpunit/phpunit@10.5.0',
    ]);
  });
});
