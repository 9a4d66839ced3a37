import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderProtocolDoc } from '../src/protocol-doc.ts';
import { routes } from '../src/http/routes.ts';
import { ServerMessage } from '../src/ws/events.ts';

const docPath = fileURLToPath(new URL('../../../docs/protocol.md', import.meta.url));

describe('docs/protocol.md', () => {
  it('is in step with the shared schemas (regenerate: pnpm docs:protocol)', () => {
    expect(readFileSync(docPath, 'utf8')).toBe(renderProtocolDoc());
  });
  it('lists every route and every WebSocket message', () => {
    const doc = renderProtocolDoc();
    for (const r of Object.values(routes)) expect(doc).toContain(`\`${r.method} ${r.path}\``);
    for (const o of ServerMessage.options) expect(doc).toContain(`| \`${o.shape.type.value}\` |`);
  });
});
