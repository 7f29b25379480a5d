/**
 * Reads mapper XML into a small ordered element tree (elements and text, in document order, each
 * element with its line). Comments vanish, CDATA sections and entities become plain text, and
 * adjacent text pieces are merged so a CDATA section never splits a word (see `xml-reader.ts`).
 */
import { MapperLoadError } from './mapper-load-error';
import { type XmlElement, XmlSyntaxError, readXml } from './xml-reader';

export type { XmlElement, XmlNode, XmlText } from './xml-reader';

/**
 * Parses `xml` into its root element.
 *
 * @throws MapperLoadError naming `source` (and the line) when the text is not well-formed XML.
 */
export async function readXmlTree(xml: string, source: string): Promise<XmlElement> {
  if (xml.trim() === '')
    throw new MapperLoadError(
      'invalid',
      `${source}: the mapper XML is empty; it needs a <mapper namespace="..."> root element`,
    );
  try {
    return readXml(xml);
  } catch (error) {
    if (!(error instanceof XmlSyntaxError)) throw error;
    throw new MapperLoadError(
      'invalid',
      `${source}: invalid mapper XML (${error.message}); fix the XML so it is well-formed`,
      { cause: error, line: error.line },
    );
  }
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
