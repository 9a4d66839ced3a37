/**
 * What a command loads beyond the read path, behind one `import()`: following builds (the client
 * store and /ws, which load the protocol's schemas), sending and downloading files, starting and
 * stopping the daemon, `forge ci`. One boundary rather than one per module keeps the bundle in few
 * chunks: esbuild puts modules reached from the same dynamic imports together, so a read command
 * loads ~7 files instead of ~16 (an ES module costs ~0.5 ms to resolve, load and link).
 */
export { buildExitCode, statusTone, verdictOf } from './builds/build-result.ts';
export { createBuildStore, trackBuild } from './builds/build-tracker.ts';
export { watchBuild } from './builds/build-watch.ts';
export { cancelBuild, isAlreadyFinished } from './builds/cancel-build.ts';
export { followAndReport, openFeed } from './builds/report.ts';
export { runCi } from './ci/run-ci.ts';
export { runForeground } from './daemon/foreground.ts';
export { runArgs, startDaemon } from './daemon/start.ts';
export { stopDaemon } from './daemon/stop.ts';
export { downloadToFile, downloadToStream } from './transfer/download.ts';
export { sendZip } from './transfer/upload-zip.ts';
export { checkZipFile, zipUpload } from './transfer/zip-file.ts';
