/** UiBot's output check and OptimizationBot's bundle report (see each file). */
export {
  checkOutput,
  resolveRef,
  OUTSIDE_OUTPUT_NOTE,
  UI_CHECK_MAX_ENTRIES,
  UI_CHECK_MAX_HTML_BYTES,
  UI_CHECK_MAX_HTML_FILES,
} from './ui-check.ts';
export {
  bundleReport,
  DEFAULT_BUNDLE_MAX_LISTED,
  DEFAULT_BUNDLE_THRESHOLD_BYTES,
  GZIP_MAX_FILE_BYTES,
  type BundleReportOptions,
} from './bundle-report.ts';
export { extractAssetRefs, type HtmlRefs } from './html-refs.ts';
// The walker the checks use lives with the other file-system infrastructure (src/fs/walk.ts).
export {
  walkFiles,
  type WalkedFile,
  type WalkedLink,
  type WalkOptions,
  type WalkResult,
} from '../../fs/walk.ts';
