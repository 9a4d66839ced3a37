// Without the workers' schemas (workers.ts re-exports it), for a client's first paint (schema-free.ts).

/** The name every build run by the daemon itself carries in `Build.worker`. */
export const LOCAL_WORKER = 'local';
