/** A parsed XML element: enough to check the structure of a JUnit report. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, where: string): string {
  if (/[<]/.test(text)) throw new Error(`raw < in ${where}`);
  return text.replace(/&([^;]*);|&/g, (all, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & in ${where}`);
    if (ref in ENTITIES) return ENTITIES[ref]!;
    const code = /^#(\d+)$/.exec(ref)?.[1] ?? /^#x([0-9a-f]+)$/i.exec(ref)?.[1];
    if (code === undefined) throw new Error(`unknown entity &${ref}; in ${where}`);
    return String.fromCodePoint(ref.startsWith('#x') ? parseInt(code, 16) : Number(code));
  });
}

/**
 * A strict little XML parser (declaration, elements, attributes in quotes, text, entities; no DTD,
 * CDATA or comments): throws on anything not well-formed, so a report that parses is valid XML.
 */
export function parseXml(xml: string): XmlElement {
  let pos = 0;
  const decl = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (decl) pos = decl[0].length;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(xml)) throw new Error('control character in XML');

  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
      xml.slice(pos),
    );
    if (!open) throw new Error(`expected an element at ${pos}: ${xml.slice(pos, pos + 40)}`);
    pos += open[0].length;
    const [, name, attrText, selfClosing] = open;
    const attributes: Record<string, string> = {};
    for (const m of attrText!.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      if (m[1]! in attributes) throw new Error(`duplicate attribute ${m[1]} on <${name}>`);
      attributes[m[1]!] = decode(m[2] ?? m[3] ?? '', `attribute ${m[1]} of <${name}>`);
    }
    const node: XmlElement = { name: name!, attributes, children: [], text: '' };
    if (selfClosing) return node;
    for (;;) {
      const next = xml.indexOf('<', pos);
      if (next < 0) throw new Error(`<${name}> is never closed`);
      node.text += decode(xml.slice(pos, next), `<${name}>`);
      pos = next;
      if (xml.startsWith('</', pos)) {
        const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(pos));
        if (!close || close[1] !== name) throw new Error(`<${name}> closed by ${xml.slice(pos, pos + 30)}`);
        pos += close[0].length;
        return node;
      }
      node.children.push(element());
    }
  };

  const root = element();
  if (xml.slice(pos).trim() !== '') throw new Error('content after the root element');
  return root;
}
