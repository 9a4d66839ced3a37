// The part of autocannon's programmatic API the load test uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    onResponse?: (status: number, body: string, context: object, headers: Record<string, string>) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    headers?: Record<string, string>;
  }

  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }

  export interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    duration: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
  }

  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  /** A run's raw result as a worker thread gets it (histograms encoded), before aggregation. */
  export type RawResult = object;

  function autocannon(options: AutocannonOptions): Instance;
  namespace autocannon {
    /** Merges raw results (from worker threads) into one result, as the main thread reports it. */
    function aggregateResult(results: RawResult[], options?: Partial<AutocannonOptions>): AutocannonResult;
  }
  export default autocannon;
}
