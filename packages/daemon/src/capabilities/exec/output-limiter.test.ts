import { describe, expect, it } from 'vitest';
import { OutputLimiter, type OutputLine } from './output-limiter.ts';

describe('OutputLimiter', () => {
  it('delivers lines until the cap, then one marker saying how much was dropped', () => {
    const lines: OutputLine[] = [];
    const limiter = new OutputLimiter({
      maxLineLength: 100,
      maxOutputBytes: 20,
      deliver: (l) => lines.push(l),
    });
    limiter.write('stdout', Buffer.from('12345678\n')); // 9 bytes
    limiter.write('stderr', Buffer.from('abcdefgh\n')); // 18
    limiter.write('stdout', Buffer.from('this one does not fit\nnor this\n'));
    limiter.write('stderr', Buffer.from('small\n')); // would fit, but the cap was reached: order matters more
    const totals = limiter.end();
    expect(lines.slice(0, 2)).toEqual([
      { stream: 'stdout', text: '12345678' },
      { stream: 'stderr', text: 'abcdefgh' },
    ]);
    expect(lines).toHaveLength(3);
    expect(lines[2]?.text).toBe('…[output limit of 20 B reached: 37 B more not shown]');
    expect(totals).toEqual({ outputBytes: 55, droppedBytes: 37, truncatedLines: 0 });
  });

  it('counts a cut line by what it delivers and reports it', () => {
    const lines: OutputLine[] = [];
    const limiter = new OutputLimiter({
      maxLineLength: 5,
      maxOutputBytes: 1000,
      deliver: (l) => lines.push(l),
    });
    limiter.write('stdout', Buffer.from(`${'y'.repeat(5000)}\nend`));
    expect(limiter.end()).toEqual({ outputBytes: 5004, droppedBytes: 0, truncatedLines: 1 });
    expect(lines.map((l) => l.text)).toEqual(['yyyyy …[truncated 4995 chars]', 'end']);
  });
});
