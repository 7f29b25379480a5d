import { ConfigError } from '@fw/core';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { MapperRegistry } from '../../src/mapper/mapper-registry';

const common = `<mapper namespace="shared.sql">
  <sql id="bookColumns">\${alias}.id, \${alias}.title</sql>
  <sql id="titleFilter"><if test="title != null">and title = #{title}</if><include refid="paging"/></sql>
  <sql id="paging">\${pagination}</sql>
  <resultMap id="author"><id property="id" column="author_id"/><result property="name" column="author_name"/></resultMap>
</mapper>`;

const books = `<mapper namespace="books">
  <resultMap id="book"><id property="id" column="id"/><association property="author" resultMap="shared.sql.author"/></resultMap>
  <select id="find" resultMap="book">
    select <include refid="shared.sql.bookColumns"><property name="alias" value="b"/></include> from book b
    <where><include refid="shared.sql.titleFilter"/></where>
  </select>
  <select id="count" resultType="long">select count(*) from book</select>
</mapper>`;

describe('MapperRegistry', () => {
  it('resolves includes and result maps across namespaces, whatever the order of adding', async () => {
    const registry = new MapperRegistry();
    registry.add(await parseMapperXml(books, 'books.xml'));
    registry.add(await parseMapperXml(common, 'common.xml'));
    registry.link();
    const find = registry.getStatement('books.find');
    expect(find?.render({ title: 'Dune', pagination: 'limit 5' })).toEqual({
      sql: 'select b.id, b.title from book b WHERE title = $1 limit 5',
      values: ['Dune'],
    });
    expect(find?.usesPagination).toBe(true);
    expect(find?.usesOrderBy).toBe(false);
    expect(find?.mapRows([{ id: 1, author_id: 7, author_name: 'Herbert' }])).toEqual([
      { id: 1, author: { id: 7, name: 'Herbert' } },
    ]);
  });

  it('lists statements and namespaces and answers lookups', async () => {
    const registry = new MapperRegistry([
      await parseMapperXml(common, 'common.xml'),
      await parseMapperXml(books, 'books.xml'),
    ]);
    expect(registry.statementIds()).toEqual(['books.count', 'books.find']);
    expect(registry.namespaces()).toEqual(['books', 'shared.sql']);
    expect(registry.hasStatement('books.count')).toBe(true);
    expect(registry.hasStatement('books.nope')).toBe(false);
    expect(registry.getStatement('nope')).toBeUndefined();
    expect(registry.getStatement('books.count')?.resultType).toBe('long');
    expect(registry.getStatement('books.find')?.resultMapId).toBe('books.book');
  });

  it('refuses a duplicate namespace, naming both sources', async () => {
    const registry = new MapperRegistry([await parseMapperXml(books, 'a/books.xml')]);
    const again = await parseMapperXml(books, 'b/books.xml');
    expect(() => registry.add(again)).toThrow(ConfigError);
    expect(() => registry.add(again)).toThrow(
      "b/books.xml: mapper namespace 'books' is already loaded from a/books.xml; namespaces must be unique",
    );
  });

  it('replaces a namespace (catalog over packaged) and re-links dependants', async () => {
    const registry = new MapperRegistry([
      await parseMapperXml(common, 'common.xml'),
      await parseMapperXml(books, 'books.xml'),
    ]);
    const catalog = await parseMapperXml(
      '<mapper namespace="shared.sql"><sql id="bookColumns">${alias}.isbn</sql><sql id="titleFilter">and true</sql><resultMap id="author"><result property="n" column="author_name"/></resultMap></mapper>',
      'catalog:shared.sql',
    );
    expect(registry.replaceNamespace(catalog)?.source).toBe('common.xml');
    expect(registry.namespaces()).toEqual(['books', 'shared.sql']);
    expect(registry.getStatement('books.find')?.render({})).toEqual({
      sql: 'select b.isbn from book b WHERE true',
      values: [],
    });
    const onlyNew = await parseMapperXml(
      '<mapper namespace="other"><select id="x">select 1</select></mapper>',
      'catalog:other',
    );
    expect(registry.replaceNamespace(onlyNew)).toBeUndefined();
    expect(registry.hasStatement('other.x')).toBe(true);
  });

  it('reports every unresolved cross-namespace reference on link, naming the sources', async () => {
    const registry = new MapperRegistry([
      await parseMapperXml(books, 'books.xml'),
      await parseMapperXml(
        '<mapper namespace="x"><select id="y" resultMap="missing.map">select 1</select></mapper>',
        'x.xml',
      ),
    ]);
    let error: unknown;
    try {
      registry.link();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('2 mapper references cannot be resolved');
    expect(message).toContain(
      "books.xml: select 'find' includes sql fragment 'shared.sql.bookColumns', which no loaded mapper defines",
    );
    expect(message).toContain("x.xml: select 'y' uses unknown resultMap 'missing.map'");
  });

  it('links lazily: an unresolved include fails at first render with a ConfigError', async () => {
    const doc = await parseMapperXml(books, 'books.xml');
    const find = doc.statements.find((s) => s.statementId === 'find');
    expect(() => find?.render({})).toThrow(ConfigError);
    expect(doc.statements.find((s) => s.statementId === 'count')?.render({})).toEqual({
      sql: 'select count(*) from book',
      values: [],
    });
  });

  it('checks a foreign fragment when linking: ${...} and property use', async () => {
    const bad = await parseMapperXml('<mapper namespace="f"><sql id="s">order by ${col}</sql></mapper>', 'f.xml');
    const user = await parseMapperXml(
      '<mapper namespace="u"><select id="q">select 1 <include refid="f.s"/></select></mapper>',
      'u.xml',
    );
    const registry = new MapperRegistry([bad, user]);
    expect(() => registry.link()).toThrow("f.xml: sql 's' (included by select 'q') uses ${col}");
  });
});
