import { collapseWhitespace } from '../../src/mapper/dynamic-sql-renderer';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { type BoundSql } from '../../src/mapper/mapper-types';

async function render(body: string, parameters: Record<string, unknown> = {}, extra = ''): Promise<BoundSql> {
  const doc = await parseMapperXml(
    `<mapper namespace="t">${extra}<select id="s" resultType="map">${body}</select></mapper>`,
    'test.xml',
  );
  return doc.statements[0].render(parameters);
}

describe('dynamic SQL rendering', () => {
  it('turns #{...} into numbered placeholders and collapses whitespace', async () => {
    const bound = await render(
      `
      select *
        from book
       where title = #{title} and price &lt; #{limits.max} and tag = #{tags[1]} and code = #{code, jdbcType=VARCHAR}`,
      { title: 'Dune', limits: { max: 20 }, tags: ['a', 'b'], code: 'X' },
    );
    expect(bound).toEqual({
      sql: 'select * from book where title = $1 and price < $2 and tag = $3 and code = $4',
      values: ['Dune', 20, 'b', 'X'],
    });
  });

  it('binds a missing value as null and an array as one parameter', async () => {
    expect(await render('select #{missing}, #{ids}', { ids: [1, 2] })).toEqual({
      sql: 'select $1, $2',
      values: [null, [1, 2]],
    });
  });

  it('keeps whitespace inside quoted literals and strips SQL comments', async () => {
    const bound = await render(
      'select \'a  b\' as "x  y" -- a comment #{hidden}\n from t /* block #{alsoHidden} */ where a = #{a}',
      { a: 1 },
    );
    expect(bound).toEqual({ sql: 'select \'a  b\' as "x  y" from t where a = $1', values: [1] });
  });

  it('accepts CDATA sections, comments and a DOCTYPE', async () => {
    const doc = await parseMapperXml(
      `<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="books">
  <!-- the books -->
  <select id="cheap" resultType="hashmap">
    select * from book where price <![CDATA[ <= ]]> #{max} <!-- inline comment --> and price<![CDATA[>]]>0
  </select>
</mapper>`,
      'books.xml',
    );
    expect(doc.statements[0].id).toBe('books.cheap');
    expect(doc.statements[0].render({ max: 9 })).toEqual({
      sql: 'select * from book where price <= $1 and price>0',
      values: [9],
    });
  });

  describe('injection attempts', () => {
    const evil = ["'); drop table book; --", '${orderby}', '#{title}', '$1', "' or '1'='1", 'x\u0000y'];
    it.each(evil)('keeps %j out of the SQL text', async (value) => {
      const bound = await render(
        'select * from book <where><if test="title != null">title = #{title}</if><if test="tag != null">and tag like #{tag}</if></where>',
        {
          title: value,
          tag: value,
        },
      );
      expect(bound.sql).toBe('select * from book WHERE title = $1 and tag like $2');
      expect(bound.values).toEqual([value, value]);
    });

    it('keeps hostile values out of foreach and bind too', async () => {
      const bound = await render(
        `<bind name="pattern" value="'%' + name + '%'"/>select * from t where name like #{pattern} and id in <foreach collection="ids" item="id" open="(" separator="," close=")">#{id}</foreach>`,
        { name: "'; drop table t; --", ids: ['1); drop table t; --', '${pagination}'] },
      );
      expect(bound.sql).toBe('select * from t where name like $1 and id in ($2,$3)');
      expect(bound.values).toEqual(["%'; drop table t; --%", '1); drop table t; --', '${pagination}']);
    });
  });

  describe('${orderby} and ${pagination}', () => {
    it('insert the framework-built text', async () => {
      const bound = await render('select * from book where a = #{a} ${orderby} ${ pagination }', {
        a: 1,
        orderby: 'order by title asc',
        pagination: 'limit 10 offset 20',
      });
      expect(bound).toEqual({
        sql: 'select * from book where a = $1 order by title asc limit 10 offset 20',
        values: [1],
      });
    });

    it('insert nothing when absent or null', async () => {
      expect(await render('select * from book ${orderby} ${pagination}', { orderby: null })).toEqual({
        sql: 'select * from book',
        values: [],
      });
    });

    it('are reported by usesOrderBy / usesPagination', async () => {
      const doc = await parseMapperXml(
        '<mapper namespace="n"><sql id="o">${orderby}</sql><select id="a">select 1 <include refid="o"/></select><select id="b">select 1 ${pagination}</select></mapper>',
        'n.xml',
      );
      const [a, b] = doc.statements;
      expect([a.usesOrderBy, a.usesPagination, b.usesOrderBy, b.usesPagination]).toEqual([true, false, false, true]);
    });
  });

  describe('if', () => {
    const body = `select * from book where 1 = 1
      <if test="title != null and title != ''">and title = #{title}</if>
      <if test="ids != null and ids.size() > 0">and id = any(#{ids})</if>`;
    it('includes branches whose test is true', async () => {
      expect(await render(body, { title: 'Dune', ids: [1] })).toEqual({
        sql: 'select * from book where 1 = 1 and title = $1 and id = any($2)',
        values: ['Dune', [1]],
      });
    });
    it('skips branches whose test is false', async () => {
      expect(await render(body, { title: '', ids: [] })).toEqual({ sql: 'select * from book where 1 = 1', values: [] });
    });
  });

  describe('where', () => {
    const body = `select * from book <where>
      <if test="a != null">AND a = #{a}</if>
      <if test="b != null">or b = #{b}</if>
      <if test="c != null">and c = #{c}</if></where>`;
    it('strips a leading AND or OR, case-insensitively', async () => {
      expect((await render(body, { a: 1, c: 3 })).sql).toBe('select * from book WHERE a = $1 and c = $2');
      expect((await render(body, { b: 2 })).sql).toBe('select * from book WHERE b = $1');
    });
    it('disappears when nothing is inside', async () => {
      expect((await render(body, {})).sql).toBe('select * from book');
    });
    it('does not strip a word that merely starts with AND/OR', async () => {
      expect((await render('select 1 <where>ordinal = 1</where>', {})).sql).toBe('select 1 WHERE ordinal = 1');
      expect((await render('select 1 <where>and(a = 1 or b = 2)</where>', {})).sql).toBe(
        'select 1 WHERE (a = 1 or b = 2)',
      );
    });
  });

  describe('set', () => {
    it('strips the trailing comma', async () => {
      const bound = await render(
        'update x <set><if test="a != null">a = #{a},</if><if test="b != null">b = #{b},</if></set> where id = #{id}',
        { a: 1, b: 2, id: 9 },
      );
      expect(bound).toEqual({ sql: 'update x SET a = $1, b = $2 where id = $3', values: [1, 2, 9] });
    });
  });

  describe('trim', () => {
    it('applies prefix, suffix and |-separated overrides case-insensitively', async () => {
      const body = `select * from t <trim prefix="WHERE (" suffix=")" prefixOverrides="AND |OR " suffixOverrides=",|and">
        <if test="a">or x = 1</if><if test="b">and y = 2 AND</if></trim>`;
      expect((await render(body, { a: true, b: true })).sql).toBe('select * from t WHERE ( x = 1 and y = 2 )');
      expect((await render(body, { a: false, b: false })).sql).toBe('select * from t');
    });
    it('removes only the first matching override', async () => {
      expect((await render('select <trim prefixOverrides=",">, , a</trim>')).sql).toBe('select , a');
    });
  });

  describe('choose', () => {
    const body = `select * from book <where><choose>
        <when test="id != null">id = #{id}</when>
        <when test="title != null">title = #{title}</when>
        <otherwise>featured</otherwise></choose></where>`;
    it('takes the first true when', async () => {
      expect(await render(body, { id: 1, title: 'x' })).toEqual({
        sql: 'select * from book WHERE id = $1',
        values: [1],
      });
      expect(await render(body, { title: 'x' })).toEqual({ sql: 'select * from book WHERE title = $1', values: ['x'] });
    });
    it('falls back to otherwise', async () => {
      expect(await render(body, {})).toEqual({ sql: 'select * from book WHERE featured', values: [] });
    });
    it('renders nothing without a true when and without otherwise', async () => {
      expect((await render('select 1 <choose><when test="false">x</when></choose>')).sql).toBe('select 1');
    });
  });

  describe('foreach', () => {
    it('renders open, close and separator over an array, with item and index scoped', async () => {
      const bound = await render(
        'select #{item} <foreach collection="ids" item="item" index="i" open="(" separator="," close=")">#{item}</foreach> #{item} #{i}',
        { ids: [5, 6, 7], item: 'outer', i: 'outer-i' },
      );
      expect(bound).toEqual({ sql: 'select $1 ($2,$3,$4) $5 $6', values: ['outer', 5, 6, 7, 'outer', 'outer-i'] });
    });

    it('iterates an object: index is the key, item the value', async () => {
      const bound = await render(
        'select 1 where <foreach collection="m" index="k" item="v" separator=" and ">k = #{v} and key = #{k}</foreach>',
        {
          m: { a: 1, b: 2 },
        },
      );
      expect(bound).toEqual({
        sql: 'select 1 where k = $1 and key = $2 and k = $3 and key = $4',
        values: [1, 'a', 2, 'b'],
      });
    });

    it('separates with words, renders nothing for an empty collection and refuses a missing one', async () => {
      const body = 'select 1 <where><foreach collection="names" item="n" separator="or">name = #{n}</foreach></where>';
      expect((await render(body, { names: ['a', 'b'] })).sql).toBe('select 1 WHERE name = $1 or name = $2');
      expect((await render(body, { names: [] })).sql).toBe('select 1');
      await expect(render(body, {})).rejects.toThrow(
        'test.xml: select \'s\': <foreach collection="names"> evaluated to a null value; pass a list (an empty list renders nothing) or add nullable="true" (or set query.mapperSettings.nullableOnForEach) to render nothing for null',
      );
      const nullable = body.replace('<foreach ', '<foreach nullable="true" ');
      expect((await render(nullable, {})).sql).toBe('select 1');
    });

    it('treats a scalar as one item and supports nested foreach with item properties', async () => {
      expect(
        await render('select <foreach collection="x" item="v" open="(" close=")">#{v}</foreach>', { x: 'only' }),
      ).toEqual({ sql: 'select ($1)', values: ['only'] });
      const bound = await render(
        '<foreach collection="rows" item="r" separator="union all">select <foreach collection="r.cells" item="c" separator=",">#{c.v}</foreach></foreach>',
        { rows: [{ cells: [{ v: 1 }, { v: 2 }] }, { cells: [{ v: 3 }] }] },
      );
      expect(bound).toEqual({ sql: 'select $1,$2 union all select $3', values: [1, 2, 3] });
    });

    it('evaluates if tests against the item', async () => {
      const bound = await render(
        'select <foreach collection="xs" item="x" separator=","><if test="x > 1">#{x}</if></foreach>',
        { xs: [1, 2, 3] },
      );
      expect(bound).toEqual({ sql: 'select $1,$2', values: [2, 3] });
    });
  });

  describe('bind', () => {
    it('defines a variable visible after it', async () => {
      const bound = await render(
        `<bind name="pattern" value="'%' + title.toUpperCase() + '%'"/>select * from book where upper(title) like #{pattern}`,
        { title: 'dune' },
      );
      expect(bound).toEqual({ sql: 'select * from book where upper(title) like $1', values: ['%DUNE%'] });
    });

    it('is evaluated per foreach iteration', async () => {
      const bound = await render(
        'select <foreach collection="xs" item="x" separator=","><bind name="y" value="x * 10"/>#{y}</foreach>',
        { xs: [1, 2] },
      );
      expect(bound).toEqual({ sql: 'select $1,$2', values: [10, 20] });
    });
  });

  describe('sql and include', () => {
    it('expands a fragment with properties substituted at load', async () => {
      const extra =
        '<sql id="cols">${alias}.id, ${alias}.title</sql><sql id="byTitle"><if test="title != null">and ${alias}.title = #{title}</if></sql>';
      const bound = await render(
        'select <include refid="cols"><property name="alias" value="b"/></include> from book b <where><include refid="t.byTitle"><property name="alias" value="b"/></include></where>',
        { title: 'Dune' },
        extra,
      );
      expect(bound).toEqual({ sql: 'select b.id, b.title from book b WHERE b.title = $1', values: ['Dune'] });
    });

    it('passes properties on to nested includes', async () => {
      const extra =
        '<sql id="inner">${table}.id</sql><sql id="outer">select <include refid="inner"/> from ${table}</sql>';
      expect(
        (await render('<include refid="outer"><property name="table" value="book"/></include>', {}, extra)).sql,
      ).toBe('select book.id from book');
    });
  });

  it('collapses whitespace outside quoted literals only, also unicode whitespace and unterminated literals', () => {
    expect(collapseWhitespace('  select\n\t a ,\u00a0b  from t  ')).toBe('select a , b from t');
    expect(collapseWhitespace(`select 'a  b', "Col  Name" ,'it''s  x'   from t`)).toBe(
      `select 'a  b', "Col  Name" ,'it''s  x' from t`,
    );
    expect(collapseWhitespace("where x = 'open  literal   ")).toBe("where x = 'open  literal   ");
    expect(collapseWhitespace(' \n ')).toBe('');
  });
});
