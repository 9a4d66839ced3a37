import { describe, expect, it } from 'vitest';
import { parseChat } from './commands.ts';

describe('parseChat', () => {
  it('reads the documented commands and prefixes', () => {
    expect(parseChat('build')).toEqual({ kind: 'build', project: null });
    expect(parseChat(' Build! ')).toEqual({ kind: 'build', project: null });
    expect(parseChat('build: my-app')).toEqual({ kind: 'build', project: 'my-app' });
    expect(parseChat('BUILD:"my app"')).toEqual({ kind: 'build', project: 'my app' });
    expect(parseChat('build:')).toEqual({ kind: 'build', project: null });
    expect(parseChat('fix')).toEqual({ kind: 'fix', project: null });
    expect(parseChat('fix: shop')).toEqual({ kind: 'fix', project: 'shop' });
    expect(parseChat('status?')).toEqual({ kind: 'status' });
    expect(parseChat('brain: why did it fail?')).toEqual({ kind: 'brain', question: 'why did it fail?' });
    expect(parseChat('Brain:what is the port')).toEqual({ kind: 'brain', question: 'what is the port' });
  });

  it('answers anything else with the command list', () => {
    for (const q of ['hello', 'brain:', 'brain why', 'rebuild everything', 'status report']) {
      expect(parseChat(q)).toEqual({ kind: 'help' });
    }
  });
});
