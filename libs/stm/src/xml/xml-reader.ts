/**
 * The XML reader of the states documents: it keeps the line of every element and attribute and
 * the offsets of each element in the text, so each problem of a document can name the line to
 * fix and a tool can edit the text around an element. The states format needs elements,
 * attributes, comments, an XML declaration and whitespace: this reads exactly that and refuses the
 * rest (DOCTYPE, CDATA, processing instructions inside the document) with the line it found it on.
 *
 * @example
 * const root = readXml('<states>\n  <flow id="f"/>\n</states>');
 * root.children[0].line;   // 2
 */
import { FwError } from '@fw/core';
import { StmErrorCodes } from '../errors/stm-error';

export interface XmlAttribute {
  value: string;
  line: number;
}

/** One element of a document, with where it is. */
export interface XmlElement {
  name: string;
  line: number;
  /** Offsets of the element's text in the document: `[start, end)`, end tag included. */
  start: number;
  end: number;
  /** Offset just after the name of the start tag (where an attribute can be added). */
  afterName: number;
  attrs: Map<string, XmlAttribute>;
  children: XmlElement[];
  /** Non-whitespace character data directly inside the element (trimmed), with its line. */
  text?: { value: string; line: number };
}

/** A document that is not well-formed XML (or uses what the states format refuses), and where. */
export class XmlSyntaxError extends FwError {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super({
      code: 500,
      subErrorCode: StmErrorCodes.xmlParse,
      description: `line ${line}, column ${column}: ${detail}`,
      expose: false,
    });
    this.name = 'XmlSyntaxError';
  }
}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.-]/;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  lineCol(at = this.pos): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: at - lineStart + 1 };
  }

  fail(detail: string, at = this.pos): never {
    const { line, column } = this.lineCol(at);
    throw new XmlSyntaxError(line, column, detail);
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  /** Skips to just after `end`, or fails naming what was left open. */
  skipPast(end: string, what: string): void {
    const found = this.text.indexOf(end, this.pos);
    if (found < 0) this.fail(`${what} is not closed (missing '${end}')`);
    this.pos = found + end.length;
  }

  name(): string {
    const start = this.pos;
    if (!NAME_START.test(this.text[this.pos] ?? '')) this.fail(`expected a name, found ${this.describe()}`);
    while (this.pos < this.text.length && NAME_CHAR.test(this.text[this.pos])) this.pos++;
    return this.text.slice(start, this.pos);
  }

  describe(): string {
    return this.pos >= this.text.length ? 'the end of the document' : `'${this.text[this.pos]}'`;
  }
}

function decode(raw: string, cursor: Cursor, at: number): string {
  return raw.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) cursor.fail(`'&' must start an entity reference like &amp;`, at);
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const known = ENTITIES[ref];
    if (known === undefined) cursor.fail(`unknown entity &${ref};`, at);
    return known;
  });
}

function readAttributes(c: Cursor, node: XmlElement): boolean {
  for (;;) {
    const hadSpace = /\s/.test(c.text[c.pos] ?? '');
    c.skipSpace();
    if (c.startsWith('/>')) {
      c.pos += 2;
      return true;
    }
    if (c.startsWith('>')) {
      c.pos += 1;
      return false;
    }
    if (!hadSpace) c.fail(`expected whitespace, '>' or '/>' in <${node.name}>, found ${c.describe()}`);
    const at = c.pos;
    const name = c.name();
    c.skipSpace();
    if (!c.startsWith('=')) c.fail(`attribute '${name}' of <${node.name}> needs a value (name="value")`);
    c.pos++;
    c.skipSpace();
    const quote = c.text[c.pos];
    if (quote !== '"' && quote !== "'") c.fail(`the value of attribute '${name}' must be quoted`);
    const close = c.text.indexOf(quote, c.pos + 1);
    if (close < 0) c.fail(`the value of attribute '${name}' is not closed`);
    const raw = c.text.slice(c.pos + 1, close);
    if (raw.includes('<'))
      c.fail(`'<' is not allowed in the value of attribute '${name}'`, c.pos + 1 + raw.indexOf('<'));
    if (node.attrs.has(name)) c.fail(`attribute '${name}' appears twice on <${node.name}>`, at);
    node.attrs.set(name, { value: decode(raw, c, c.pos + 1), line: c.lineCol(at).line });
    c.pos = close + 1;
  }
}

/** Comments and processing instructions between nodes; DOCTYPE is refused (no entity tricks). */
function skipMarkup(c: Cursor): boolean {
  if (c.startsWith('<!--')) {
    c.skipPast('-->', 'a comment');
    return true;
  }
  if (c.startsWith('<!')) c.fail('DOCTYPE and other declarations are not allowed in a states document');
  if (c.startsWith('<?'))
    c.fail('a processing instruction is only allowed as the XML declaration, before the root element');
  return false;
}

function addText(c: Cursor, node: XmlElement, from: number): void {
  const raw = c.text.slice(from, c.pos);
  if (raw.includes('>') && raw.includes(']]>')) c.fail("']]>' is not allowed in text", from + raw.indexOf(']]>'));
  const value = raw.trim();
  if (value === '') return;
  const firstAt = from + raw.indexOf(value.charAt(0));
  const decoded = decode(value, c, firstAt);
  node.text = node.text ?? { value: '', line: c.lineCol(firstAt).line };
  node.text.value += decoded;
}

function readElement(c: Cursor): XmlElement {
  const start = c.pos;
  c.pos++; // '<'
  const name = c.name();
  const node: XmlElement = {
    name,
    line: c.lineCol(start).line,
    start,
    end: start,
    afterName: c.pos,
    attrs: new Map(),
    children: [],
  };
  if (readAttributes(c, node)) {
    node.end = c.pos;
    return node;
  }
  for (;;) {
    const textStart = c.pos;
    const next = c.text.indexOf('<', c.pos);
    if (next < 0) {
      c.pos = c.text.length;
      c.fail(`<${name}> (line ${node.line}) is not closed`);
    }
    c.pos = next;
    addText(c, node, textStart);
    if (c.startsWith('</')) {
      const at = c.pos;
      c.pos += 2;
      const closing = c.name();
      c.skipSpace();
      if (!c.startsWith('>')) c.fail(`expected '>' to end </${closing}>, found ${c.describe()}`);
      c.pos++;
      if (closing !== name) c.fail(`</${closing}> closes <${name}> opened on line ${node.line}`, at);
      node.end = c.pos;
      return node;
    }
    if (c.startsWith('<![CDATA[')) c.fail('CDATA sections are not allowed in a states document');
    if (skipMarkup(c)) continue;
    node.children.push(readElement(c));
  }
}

/** Parses a document with one root element. @throws XmlSyntaxError naming the line and column. */
export function readXml(text: string): XmlElement {
  const c = new Cursor(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);
  c.skipSpace();
  if (c.startsWith('<?xml')) {
    if (c.pos !== 0 && text.slice(0, c.pos).trim() !== '') c.fail('the XML declaration must come first');
    c.skipPast('?>', 'the XML declaration');
  }
  let root: XmlElement | undefined;
  for (;;) {
    c.skipSpace();
    if (c.pos >= c.text.length) break;
    if (skipMarkup(c)) continue;
    if (!c.startsWith('<')) c.fail(`text outside the root element: ${c.describe()}`);
    if (root !== undefined) c.fail(`a second root element; <${root.name}> (line ${root.line}) must be the only one`);
    if (c.startsWith('</')) c.fail('a closing tag without its opening tag');
    root = readElement(c);
  }
  if (root === undefined) return c.fail('the document has no root element');
  return root;
}
