import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('createLogger', () => {
  it('writes JSON lines to <home>/logs/daemon.log with secrets redacted', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-log-'));
    dirs.push(home);
    const log = createLogger({ home, level: 'info', pretty: false });
    log.logger.info(
      {
        req: {
          headers: { authorization: 'Bearer s3cr3t-a', cookie: 'forge_token=s3cr3t-b', accept: 'text/html' },
        },
        token: 's3cr3t-c',
        config: { accessToken: 's3cr3t-d' },
        user: { password: 's3cr3t-e' },
      },
      'hello',
    );
    log.logger.debug('not at info level');
    log.close();

    const text = fs.readFileSync(path.join(home, 'logs', 'daemon.log'), 'utf8');
    expect(text).not.toMatch(/s3cr3t/);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'hello', token: '[redacted]' });
    expect(typeof lines[0]!.time).toBe('number');
    expect(JSON.stringify(lines[0])).toContain('text/html');
  });

  it('strips tokens from logged URLs', () => {
    expect(redactUrl('/ws?a=1&token=abc&b=2')).toBe('/ws?a=1&token=[redacted]&b=2');
    expect(redactUrl('/?token=abc')).toBe('/?token=[redacted]');
  });
});
