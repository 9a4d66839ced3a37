import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { SOCKET_RECONNECT_MS } from '@forge/shared';
import { START_DAEMON_COMMAND } from '../constants.ts';
import { formatUptime } from '../format.ts';
import { useForge } from '../hooks/use-forge.tsx';
import { useHealth } from '../hooks/use-health.ts';
import { useNow } from '../hooks/use-now.ts';

/** The shell's body: daemon health while connected, how to start a daemon while not. */
export function HomeView() {
  const { status } = useForge();
  return status === 'connected' ? <HealthPanel /> : <StartHint />;
}

function StartHint() {
  const { baseUrl } = useForge();
  return (
    <Box flexDirection="column">
      <Text>
        No Forge daemon answers at <Text bold>{baseUrl}</Text>.
      </Text>
      <Text>
        Start one with <Text color="cyan">{START_DAEMON_COMMAND}</Text>
      </Text>
      <Text dimColor>Retrying every {SOCKET_RECONNECT_MS / 1000} s…</Text>
    </Box>
  );
}

function HealthPanel() {
  const health = useHealth();
  const now = useNow(1_000, health.kind === 'ok');
  switch (health.kind) {
    case 'idle':
    case 'loading':
      return <Text dimColor>Checking daemon health…</Text>;
    case 'error':
      return (
        <Text>
          <Text color="red">Health check failed:</Text> {health.message}
        </Text>
      );
    case 'ok':
      return (
        <Box flexDirection="column">
          <Row label="Daemon">
            <Text color={health.health.ok ? 'green' : 'red'}>
              {health.health.ok ? 'healthy' : 'unhealthy'}
            </Text>
          </Row>
          <Row label="Version">
            <Text>{health.health.version}</Text>
          </Row>
          <Row label="Uptime">
            <Text>{formatUptime(health.health.uptimeMs + Math.max(0, now - health.receivedAt))}</Text>
          </Row>
        </Box>
      );
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={10}>
        <Text dimColor>{label}</Text>
      </Box>
      {children}
    </Box>
  );
}
