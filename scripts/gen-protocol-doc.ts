// Regenerates docs/protocol.md from the shared schemas: pnpm docs:protocol
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderProtocolDoc } from '../packages/shared/src/protocol-doc.ts';

const out = fileURLToPath(new URL('../docs/protocol.md', import.meta.url));
writeFileSync(out, renderProtocolDoc());
console.log(`wrote ${out}`);
