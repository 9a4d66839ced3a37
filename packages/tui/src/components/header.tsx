import { Box, Text } from 'ink';
import { useBuild } from '../hooks/use-build.tsx';
import { useForge } from '../hooks/use-forge.tsx';
import { ConnectionIndicator } from './connection-indicator.tsx';
import { StageBadge, stageBadgeText } from './stage-badge.tsx';
import { UI_TEXT } from '@forge/shared';

/**
 * Top line: product, current project and its stage badge on the left; the daemon this dashboard
 * watches and the connection state on the right. In a narrow terminal the daemon's address goes
 * first, so the project, the stage and the connection always show.
 */
export function Header({ width }: { width: number }) {
  const { baseUrl, status, version } = useForge();
  const { project, build } = useBuild();
  const address = `${baseUrl}${version ? ` · v${version}` : ''}`;
  const badge = stageBadgeText(build?.stage ?? 'idle', build?.status);
  const left = `Forge  project ${project ?? 'none yet'}  ${badge}`.length;
  const right = `  ● ${UI_TEXT.disconnected}`.length;
  const showAddress = 2 + left + 2 + address.length + right <= width;
  return (
    <Box
      width={width}
      height={1}
      flexShrink={0}
      paddingX={1}
      justifyContent="space-between"
      overflow="hidden"
    >
      <Box gap={2} flexShrink={1} overflow="hidden">
        <Text bold color="cyan">
          Forge
        </Text>
        <Text wrap="truncate-end">
          <Text dimColor>project </Text>
          <Text bold>{project ?? 'none yet'}</Text>
        </Text>
        <StageBadge stage={build?.stage ?? 'idle'} status={build?.status} />
      </Box>
      <Box gap={2} flexShrink={0}>
        {showAddress && <Text dimColor>{address}</Text>}
        <ConnectionIndicator status={status} />
      </Box>
    </Box>
  );
}
