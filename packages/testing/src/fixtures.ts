/**
 * The half of @forge/testing that runs anywhere (browser tests included): schema-valid build
 * records, steps, log entries and /ws message streams. The rest (ZIPs, daemons) needs Node.
 */
export * from './builds.ts';
export * from './protocol.ts';
export * from './waiter.ts';
