import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ServerMessage, type TestsVerdict } from '@forge/shared';
import { buildStream } from '@forge/testing/fixtures';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { LiveDevelopment } from '@/features/live/components/live-development.tsx';

const failed: TestsVerdict = {
  status: 'failed',
  command: 'npm test',
  policy: 'required',
  policySource: 'default',
  counts: { passed: 2, failed: 1, skipped: 0, total: 3 },
  summary: '1 failed, 2 passed (npm test)',
};

/** The Live Development viewer, following a build that ends with `verdict`. */
function finishWith(verdict: TestsVerdict | null) {
  stubDaemon(() => undefined);
  const { socket } = renderPanel(<LiveDevelopment />);
  const site = buildStream('b1', 'site');
  for (const message of site.start(['BuildBot', 'TestBot'])) socket.emit(message);
  socket.emit(site.stage('build-start', 2));
  const end = site.finished('succeeded', 3);
  socket.emit(ServerMessage.parse({ ...end, verdict }));
}

describe('the tests’ verdict in the Live Development viewer', () => {
  it('shows a succeeded build whose tests failed, with the counts, in the error tone', () => {
    finishWith(failed);
    const badge = screen.getByLabelText('Tests: failed · 1 failed, 2 passed');
    expect(badge.textContent).toBe('tests failed · 1 failed, 2 passed');
    expect(badge.className).toContain('text-error');
    expect(badge.getAttribute('title')).toBe('1 failed, 2 passed (npm test) — tests required (by default)');
  });

  it('uses the pending tone when the failure is only reported (--tests optional)', () => {
    finishWith({ ...failed, policy: 'optional', policySource: 'option' });
    expect(screen.getByLabelText('Tests: failed · 1 failed, 2 passed').className).toContain('text-pending');
  });

  it('shows nothing without a verdict', () => {
    finishWith(null);
    expect(screen.queryByLabelText(/^Tests:/)).toBeNull();
  });
});
