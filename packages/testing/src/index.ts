export * from './zip.ts';
export * from './builds.ts';
export * from './projects.ts';
export * from './daemon.ts';
export * from './stand-in.ts';
