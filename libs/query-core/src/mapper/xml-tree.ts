/**
 * Reads mapper XML into a small ordered element tree (elements and text, in document order).
 * xml2js does the parsing; comments vanish, CDATA sections and entities become plain text, and
 * adjacent text pieces are merged so a CDATA section never splits a word.
 */
import { ConfigError } from '@fw/core';
import { parseStringPromise } from 'xml2js';

/** A text run inside an element. */
export interface XmlText {
  readonly kind: 'text';
  readonly text: string;
}

/** One XML element with its attributes and ordered children. */
export interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}

export type XmlNode = XmlElement | XmlText;

const TEXT_NAME = '__text__';

interface RawNode {
  '#name'?: unknown;
  $?: unknown;
  $$?: unknown;
  _?: unknown;
}

function isRawNode(value: unknown): value is RawNode {
  return typeof value === 'object' && value !== null;
}

function convert(raw: RawNode, name: string): XmlElement {
  const attributes: Record<string, string> = {};
  if (isRawNode(raw.$)) {
    for (const [key, value] of Object.entries(raw.$)) attributes[key] = String(value);
  }
  const children: XmlNode[] = [];
  const rawChildren = Array.isArray(raw.$$) ? (raw.$$ as unknown[]) : [];
  for (const child of rawChildren) {
    if (!isRawNode(child)) continue;
    const childName = typeof child['#name'] === 'string' ? child['#name'] : TEXT_NAME;
    if (childName === TEXT_NAME) {
      const text = typeof child._ === 'string' ? child._ : '';
      const last = children[children.length - 1];
      if (last?.kind === 'text') children[children.length - 1] = { kind: 'text', text: last.text + text };
      else children.push({ kind: 'text', text });
    } else {
      children.push(convert(child, childName));
    }
  }
  return { kind: 'element', name, attributes, children };
}

/**
 * Parses `xml` into its root element.
 *
 * @throws ConfigError naming `source` when the text is not well-formed XML.
 */
export async function readXmlTree(xml: string, source: string): Promise<XmlElement> {
  let parsed: unknown;
  try {
    parsed = await parseStringPromise(xml, {
      explicitChildren: true,
      preserveChildrenOrder: true,
      charsAsChildren: true,
      includeWhiteChars: true,
      explicitRoot: true,
      trim: false,
      normalize: false,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/\s+/g, ' ').trim() : String(error);
    throw new ConfigError(`${source}: invalid mapper XML (${detail}); fix the XML so it is well-formed`, { cause: error });
  }
  if (!isRawNode(parsed)) throw new ConfigError(`${source}: the mapper XML is empty; it needs a <mapper namespace="..."> root element`);
  const entries = Object.entries(parsed);
  if (entries.length !== 1 || !isRawNode(entries[0][1])) {
    throw new ConfigError(`${source}: the mapper XML needs exactly one <mapper namespace="..."> root element`);
  }
  const [rootName, rootNode] = entries[0];
  return convert(rootNode as RawNode, rootName);
}

/** The child elements of `element` (text is dropped). */
export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => child.kind === 'element');
}

/** The first non-blank text directly inside `element`, or undefined. */
export function strayText(element: XmlElement): string | undefined {
  for (const child of element.children) {
    if (child.kind === 'text' && child.text.trim() !== '') return child.text.trim();
  }
  return undefined;
}
