import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { type MappedStatement } from '../../src/mapper/mapper-types';

async function statement(body: string, select: string): Promise<MappedStatement> {
  const doc = await parseMapperXml(`<mapper namespace="lib">${body}${select}</mapper>`, 'lib.xml');
  return doc.statements[0];
}

describe('result mapping', () => {
  it('returns rows as they are for a resultType', async () => {
    const s = await statement('', '<select id="a" resultType="java.util.Map">select 1</select>');
    const rows = [{ ID: 1, x: null }];
    expect(s.mapRows(rows)).toBe(rows);
  });

  it('maps columns to properties case-insensitively and keeps unmapped columns by default', async () => {
    const s = await statement(
      '<resultMap id="m" type="map"><id property="bookId" column="ID"/><result property="name" column="Title" javaType="string" jdbcType="VARCHAR"/><result property="meta.year" column="year"/></resultMap>',
      '<select id="a" resultMap="m">select</select>',
    );
    expect(s.mapRows([{ id: 1, title: 'Dune', year: 1965, price: 9 }])).toEqual([
      { bookId: 1, name: 'Dune', meta: { year: 1965 }, price: 9 },
    ]);
  });

  it('drops unmapped columns with autoMapping="false" and keeps mapped nulls', async () => {
    const s = await statement(
      '<resultMap id="m" autoMapping="false"><id property="id" column="id"/><result property="title" column="title"/></resultMap>',
      '<select id="a" resultMap="m">select</select>',
    );
    expect(s.mapRows([{ id: 1, title: null, price: 9 }])).toEqual([{ id: 1, title: null }]);
  });

  const authorMap = `
    <resultMap id="author">
      <id property="id" column="author_id"/>
      <result property="name" column="author_name"/>
      <collection property="books" ofType="Book" columnPrefix="book_">
        <id property="id" column="id"/>
        <result property="title" column="title"/>
        <association property="publisher" javaType="Publisher" resultMap="publisher" columnPrefix="pub_"/>
      </collection>
    </resultMap>
    <resultMap id="publisher"><id property="id" column="id"/><result property="name" column="name"/></resultMap>`;

  it('groups rows into collections with nested associations and skips all-null children', async () => {
    const s = await statement(authorMap, '<select id="a" resultMap="author">select</select>');
    const rows = [
      {
        author_id: 1,
        author_name: 'Le Guin',
        book_id: 10,
        book_title: 'Earthsea',
        book_pub_id: 100,
        book_pub_name: 'Parnassus',
      },
      { author_id: 2, author_name: 'Herbert', book_id: 20, book_title: 'Dune', book_pub_id: null, book_pub_name: null },
      {
        author_id: 1,
        author_name: 'Le Guin',
        book_id: 11,
        book_title: 'Lathe',
        book_pub_id: 100,
        book_pub_name: 'Parnassus',
      },
      {
        author_id: 1,
        author_name: 'Le Guin',
        book_id: 11,
        book_title: 'Lathe',
        book_pub_id: 100,
        book_pub_name: 'Parnassus',
      },
      { author_id: 3, author_name: 'Nobody', book_id: null, book_title: null, book_pub_id: null, book_pub_name: null },
    ];
    expect(s.mapRows(rows)).toEqual([
      {
        id: 1,
        name: 'Le Guin',
        books: [
          { id: 10, title: 'Earthsea', publisher: { id: 100, name: 'Parnassus' } },
          { id: 11, title: 'Lathe', publisher: { id: 100, name: 'Parnassus' } },
        ],
      },
      { id: 2, name: 'Herbert', books: [{ id: 20, title: 'Dune', publisher: null }] },
      { id: 3, name: 'Nobody', books: [] },
    ]);
  });

  it('does not auto-map in the nested case unless asked, and honours autoMapping="true"', async () => {
    const off = await statement(
      '<resultMap id="m"><id property="id" column="id"/><association property="a"><result property="n" column="a_n"/></association></resultMap>',
      '<select id="s" resultMap="m">x</select>',
    );
    expect(off.mapRows([{ id: 1, a_n: 'x', extra: 5 }])).toEqual([{ id: 1, a: { n: 'x' } }]);
    const on = await statement(
      '<resultMap id="m" autoMapping="true"><id property="id" column="id"/><association property="a" columnPrefix="a_" autoMapping="true"><id property="n" column="n"/></association></resultMap>',
      '<select id="s" resultMap="m">x</select>',
    );
    expect(on.mapRows([{ id: 1, a_n: 'x', a_m: 'y', extra: 5 }])).toEqual([
      { id: 1, a_n: 'x', a_m: 'y', extra: 5, a: { n: 'x', m: 'y' } },
    ]);
  });

  it('groups by all mapped columns when a map has no id, and supports extends', async () => {
    const s = await statement(
      `<resultMap id="base"><result property="code" column="code"/></resultMap>
       <resultMap id="m" extends="base"><collection property="tags"><result property="t" column="tag"/></collection></resultMap>`,
      '<select id="s" resultMap="m">x</select>',
    );
    expect(
      s.mapRows([
        { code: 'a', tag: 'x' },
        { code: 'a', tag: 'y' },
        { code: 'b', tag: 'x' },
      ]),
    ).toEqual([
      { code: 'a', tags: [{ t: 'x' }, { t: 'y' }] },
      { code: 'b', tags: [{ t: 'x' }] },
    ]);
  });

  it('uses notNullColumn to decide whether a nested object exists', async () => {
    const s = await statement(
      '<resultMap id="m"><id property="id" column="id"/><association property="p" notNullColumn="p_id"><result property="id" column="p_id"/><result property="n" column="p_n"/></association></resultMap>',
      '<select id="s" resultMap="m">x</select>',
    );
    expect(s.mapRows([{ id: 1, p_id: null, p_n: 'orphan' }])).toEqual([{ id: 1, p: null }]);
  });

  it('creates a child whose own properties are null when one of its nested objects exists, and no scalar for a null column', async () => {
    const s = await statement(
      `<resultMap id="m"><id property="id" column="id"/>
         <collection property="groups"><result property="label" column="g_label"/>
           <collection property="members"><id property="id" column="m_id"/></collection>
         </collection>
         <collection property="roles" ofType="string"><result column="role"/></collection>
       </resultMap>`,
      '<select id="s" resultMap="m">x</select>',
    );
    expect(
      s.mapRows([
        { id: 1, g_label: null, m_id: 7, role: null },
        { id: 2, g_label: null, m_id: null, role: 'admin' },
      ]),
    ).toEqual([
      { id: 1, groups: [{ label: null, members: [{ id: 7 }] }], roles: [] },
      { id: 2, groups: [], roles: ['admin'] },
    ]);
  });

  it('maps nothing to nothing', async () => {
    const s = await statement(authorMap, '<select id="a" resultMap="author">select</select>');
    expect(s.mapRows([])).toEqual([]);
  });
});
