import type { HealthResponse } from '@forge/shared';

export interface HealthService {
  health(): HealthResponse;
}

export function createHealthService({
  version,
  startedAt,
  now,
}: {
  version: string;
  startedAt: number;
  now: () => number;
}): HealthService {
  return { health: () => ({ ok: true, version, uptimeMs: Math.max(0, now() - startedAt) }) };
}
