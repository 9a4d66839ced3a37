export * from './zip.ts';
export * from './fixtures.ts';
export * from './projects.ts';
export * from './daemon.ts';
export * from './stand-in.ts';
export * from './broken-projects.ts';
export * from './scale-out.ts';
export * from './stacks.ts';
