import { describe, expect, it, vi } from 'vitest';
import { runCommand } from './run-command.ts';
import { makeTempDir } from '../../../test/support/temp-files.ts';

// A machine without a usable bwrap (not installed, or no user namespaces in a container).
vi.mock('./sandbox.ts', () => ({
  sandboxAvailable: () => Promise.resolve(false),
  sandboxArgv: () => Promise.reject(new Error('must not be called without a sandbox')),
}));

describe('runCommand when the sandbox is unavailable', () => {
  it('runs the command unsandboxed and says so in the result', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const lines: string[] = [];
      const result = await runCommand({
        argv: ['sh', '-c', 'echo ran'],
        cwd: dir,
        timeoutMs: 5_000,
        sandbox: true,
        onLine: (line) => lines.push(line.text),
      });
      expect(result).toMatchObject({ outcome: 'succeeded', sandboxed: false });
      expect(lines).toEqual(['ran']);
    } finally {
      await cleanup();
    }
  });
});
