import { type XmlElement, XmlSyntaxError, readXml } from '../../src/mapper/xml-reader';

function failure(xml: string): XmlSyntaxError {
  try {
    readXml(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a syntax error');
}

const texts = (element: XmlElement): string[] =>
  element.children.map((child) => (child.kind === 'text' ? child.text : `<${child.name}>`));

describe('the mapper XML reader', () => {
  it('reads elements, attributes in either quotes, entities, character references and lines', () => {
    const root = readXml(
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN"\n  "http://mybatis.org/dtd/mybatis-3-mapper.dtd">\n<mapper namespace="a">\n  <select id=\'s\'\n     resultType="map">a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos; &#65;&#x42;</select><sql id="x"/>\n</mapper>\n',
    );
    expect(root).toMatchObject({ name: 'mapper', attributes: { namespace: 'a' }, line: 4 });
    const [select, sql] = root.children.filter((c): c is XmlElement => c.kind === 'element');
    expect(select).toMatchObject({ name: 'select', attributes: { id: 's', resultType: 'map' }, line: 5 });
    expect(texts(select)).toEqual([`a < b && c > "d" 'e' AB`]);
    expect(sql).toMatchObject({ name: 'sql', attributes: { id: 'x' }, children: [], line: 6 });
  });

  it('drops comments and processing instructions, keeps CDATA as text and merges adjacent text', () => {
    const root = readXml('<m><!-- a <b> comment --><s>x <![CDATA[ < y & ]]><!-- c -->z<?pi ignored?> <i/>w</s></m>');
    const s = root.children[0] as XmlElement;
    expect(texts(s)).toEqual(['x  < y & z ', '<i>', 'w']);
  });

  it('skips a DOCTYPE internal subset, with > inside it', () => {
    expect(readXml('<!DOCTYPE m [ <!ELEMENT m (#PCDATA)> ]>\n<m>t</m>').children).toEqual([
      { kind: 'text', text: 't' },
    ]);
  });

  it.each([
    ['<m><s>x</m>', 'line 1: unexpected close tag.'],
    ['<m>\n<s>', 'line 2: unclosed tag: s'],
    ['<m>\n</m>\n<n/>', 'line 3: documents may contain only one root.'],
    ['x<m/>', 'line 1: text data outside of root node.'],
    ['<m a="1" a="2"/>', 'line 1: duplicate attribute: a.'],
    ['<m a=1/>', 'line 1: unquoted attribute value.'],
    ['<m a="x<y"/>', 'line 1: disallowed character.'],
    ['<m>\n\n a & b</m>', 'line 3: unclosed tag: m'],
    ['<m>&nbsp;</m>', 'line 1: undefined entity.'],
    ['<m><!-- open</m>', 'line 1: unclosed tag: m'],
    ['<m><![CDATA[ x </m>', 'line 1: unclosed tag: m'],
    ['<m a="1"b="2"/>', 'line 1: no whitespace between attributes.'],
    ['<m a/>', 'line 1: disallowed character in attribute name.'],
    ['</m>', 'line 1: unmatched closing tag: m.'],
    ['<!-- only a comment -->', 'line 1: document must contain a root element.'],
  ])("refuses %j with the line and saxes' reason", (xml, message) => {
    expect(failure(xml).message).toBe(message);
  });
});
