import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '@forge/shared/schema-free';
import { routeQuery } from '@/lib/query-client.ts';

const brainStatusQuery = routeQuery('brainStatus');
export const brainStatusQueryKey = brainStatusQuery.queryKey;

/**
 * The brain session's status, polled every 5 s (docs/product.md#http-calls). The brain chat and the footer's
 * "brain active" read this one cache entry.
 */
export const useBrainStatus = () => useQuery({ ...brainStatusQuery, refetchInterval: POLL_MS.brainStatus });
