import base from './vite.config.ts';
import { analyze } from '/tmp/analyze-plugin.mjs';
export default { ...base, plugins: [...(base.plugins ?? []), analyze(process.env.ANALYZE_OUT ?? '/tmp/stats.json')], build: { ...base.build, outDir: process.env.ANALYZE_DIR ?? '/tmp/web-dist-analyze', emptyOutDir: true } };
