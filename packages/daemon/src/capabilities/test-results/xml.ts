/**
 * A small XML reader for the reports test runners write (JUnit and xunit files): elements,
 * attributes, text, CDATA, comments, processing instructions and a DOCTYPE without an internal
 * subset. Entities are the five predefined ones and character references; an unknown one stays as
 * written. It reads what runners write, it is not a validator: anything malformed throws.
 */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  /** The element's own text (CDATA included), child elements' text excluded. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (all, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16), all);
    if (ref.startsWith('#')) return safeCodePoint(Number(ref.slice(1)), all);
    return ENTITIES[ref] ?? all;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  try {
    return String.fromCodePoint(code);
  } catch {
    return fallback;
  }
}

const NAME = /[A-Za-z_:][\w.:-]*/y;
const ATTRIBUTE = /\s*([A-Za-z_:][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** The document's root element. */
export function parseXml(xml: string): XmlNode {
  let pos = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${pos}`);
  };

  /** Skip what is not an element: whitespace, the declaration, comments, PIs, a DOCTYPE. */
  const skipMisc = (): void => {
    for (;;) {
      while (pos < xml.length && /\s/.test(xml[pos]!)) pos++;
      if (xml.startsWith('<?', pos)) {
        const end = xml.indexOf('?>', pos);
        if (end < 0) fail('unterminated processing instruction');
        pos = end + 2;
      } else if (xml.startsWith('<!--', pos)) {
        const end = xml.indexOf('-->', pos);
        if (end < 0) fail('unterminated comment');
        pos = end + 3;
      } else if (xml.startsWith('<!DOCTYPE', pos)) {
        const end = xml.indexOf('>', pos);
        if (end < 0) fail('unterminated DOCTYPE');
        pos = end + 1;
      } else {
        return;
      }
    }
  };

  const element = (): XmlNode => {
    if (xml[pos] !== '<') fail('expected an element');
    pos++;
    NAME.lastIndex = pos;
    const name = NAME.exec(xml)?.[0] ?? fail('expected an element name');
    pos += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      ATTRIBUTE.lastIndex = pos;
      const m = ATTRIBUTE.exec(xml);
      if (!m) break;
      attributes[m[1]!] = decode(m[2] ?? m[3] ?? '');
      pos = ATTRIBUTE.lastIndex;
    }
    while (/\s/.test(xml[pos] ?? '')) pos++;
    const node: XmlNode = { name, attributes, children: [], text: '' };
    if (xml.startsWith('/>', pos)) {
      pos += 2;
      return node;
    }
    if (xml[pos] !== '>') fail(`malformed tag <${name}>`);
    pos++;
    for (;;) {
      const next = xml.indexOf('<', pos);
      if (next < 0) fail(`<${name}> is never closed`);
      node.text += decode(xml.slice(pos, next));
      pos = next;
      if (xml.startsWith('</', pos)) {
        const end = xml.indexOf('>', pos);
        if (end < 0 || xml.slice(pos + 2, end).trim() !== name) fail(`<${name}> closed by another tag`);
        pos = end + 1;
        return node;
      }
      if (xml.startsWith('<![CDATA[', pos)) {
        const end = xml.indexOf(']]>', pos);
        if (end < 0) fail('unterminated CDATA');
        node.text += xml.slice(pos + 9, end);
        pos = end + 3;
      } else if (xml.startsWith('<!--', pos)) {
        const end = xml.indexOf('-->', pos);
        if (end < 0) fail('unterminated comment');
        pos = end + 3;
      } else if (xml.startsWith('<?', pos)) {
        const end = xml.indexOf('?>', pos);
        if (end < 0) fail('unterminated processing instruction');
        pos = end + 2;
      } else {
        node.children.push(element());
      }
    }
  };

  // A byte-order mark is not part of the document.
  if (xml.charCodeAt(0) === 0xfeff) pos = 1;
  skipMisc();
  const root = element();
  skipMisc();
  if (pos < xml.length) fail('content after the root element');
  return root;
}
