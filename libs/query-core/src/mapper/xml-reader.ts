/**
 * Mapper XML into a small ordered element tree, on `saxes` (a strict, conformant SAX parser): elements
 * with attributes, text (CDATA and entities decoded, adjacent pieces merged so a CDATA section never
 * splits a word), each element with the line its `<` is on for the mapper check's `file:line`. The
 * XML declaration, processing instructions, comments and the DOCTYPE are dropped.
 *
 * A SAX parser rather than xml2js: xml2js builds a generic object per node (and loses lines), which
 * was most of the time of checking hundreds of mappers at once.
 */
import { SaxesParser } from 'saxes';
import { FwError } from '@fw/core';
import { MapperErrorCodes } from '../errors/mapper-error-codes';

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
  /** 1-based line of the element's `<` in the file. */
  readonly line?: number;
}

export type XmlNode = XmlElement | XmlText;

/** Not well-formed XML; `line` is 1-based. */
export class XmlSyntaxError extends FwError {
  constructor(
    readonly detail: string,
    readonly line: number,
  ) {
    super({
      code: 500,
      subErrorCode: MapperErrorCodes.xmlSyntax,
      description: `line ${line}: ${detail}`,
      expose: false,
    });
    this.name = 'XmlSyntaxError';
  }
}

interface OpenElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  line: number;
}

/** Adds text to the open element, merged with the text just before it. */
function append(open: OpenElement | undefined, text: string): void {
  if (open === undefined || text === '') return;
  const last = open.children[open.children.length - 1];
  if (last?.kind === 'text') open.children[open.children.length - 1] = { kind: 'text', text: last.text + text };
  else open.children.push({ kind: 'text', text });
}

/** saxes reports `file:line:column: message`; keep the message, the line goes to XmlSyntaxError. */
function detailOf(error: Error): string {
  return error.message.replace(/^(?:[^:\n]*:)?\d+:\d+:\s*/, '');
}

/**
 * Reads `xml` into its root element.
 *
 * @throws XmlSyntaxError (with a 1-based line) when the text is not well-formed.
 * @example
 * readXml('<mapper namespace="a"><select id="s">select 1</select></mapper>').children[0];
 */
export function readXml(xml: string): XmlElement {
  const parser = new SaxesParser({ position: true });
  const stack: OpenElement[] = [];
  let root: XmlElement | undefined;
  let startLine = 1;
  let failure: XmlSyntaxError | undefined;
  parser.on('error', (error) => {
    failure ??= new XmlSyntaxError(detailOf(error), parser.line);
  });
  parser.on('opentagstart', () => {
    startLine = parser.line;
  });
  parser.on('opentag', (tag) => {
    stack.push({
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      line: startLine,
    });
  });
  parser.on('text', (text) => append(stack[stack.length - 1], text));
  parser.on('cdata', (text) => append(stack[stack.length - 1], text));
  parser.on('closetag', () => {
    const open = stack.pop();
    if (open === undefined) return;
    const element: XmlElement = {
      kind: 'element',
      name: open.name,
      attributes: open.attributes,
      children: open.children,
      line: open.line,
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
  });
  parser.write(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml).close();
  if (failure) throw failure;
  if (!root) throw new XmlSyntaxError('no root element', parser.line);
  return root;
}
