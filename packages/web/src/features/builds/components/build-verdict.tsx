import type { Build, TestsVerdict } from '@forge/shared';
import { formatTestCounts, testsVerdict, verdictFails } from '@forge/shared/schema-free';
import { Badge } from '@/components/ui/badge.tsx';

const POLICY: Record<TestsVerdict['policySource'], string> = {
  option: 'asked with --tests',
  config: 'from the forge config',
  default: 'by default',
};

/** The badge's tone: red only when the tests fail the verdict (forge ci exits 7), amber when only reported. */
const tone = (v: TestsVerdict) =>
  v.status === 'passed'
    ? 'online'
    : v.status === 'failed'
      ? verdictFails(v)
        ? 'error'
        : 'pending'
      : 'outline';

/**
 * What a build's tests say, beside its status: "tests failed · 1 failed, 2 passed". The build keeps
 * its own status; this is the verdict `forge ci` and `--wait` decide by. Nothing before the build
 * reached its tests, or for a project without tests.
 */
export function BuildVerdict({ build }: { build: Build }) {
  const v = testsVerdict(build);
  if (!v || v.status === 'none') return null;
  const counts = v.counts ? ` · ${formatTestCounts(v.counts)}` : '';
  return (
    <Badge
      variant={tone(v)}
      aria-label={`Tests: ${v.status}${counts}`}
      title={`${v.summary} — tests ${v.policy} (${POLICY[v.policySource]})`}
      className="max-w-56 font-normal"
    >
      <span className="truncate">
        tests {v.status}
        {counts}
      </span>
    </Badge>
  );
}
