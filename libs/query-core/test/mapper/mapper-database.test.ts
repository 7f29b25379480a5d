import { describeEachDatabase } from '@fw/test-support';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { MapperRegistry } from '../../src/mapper/mapper-registry';

const shared = `<mapper namespace="lib.shared">
  <sql id="authorColumns">\${a}.id as author_id, \${a}.name as author_name</sql>
</mapper>`;

const library = `<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="lib.books">
  <resultMap id="authorWithBooks">
    <id property="id" column="author_id"/>
    <result property="name" column="author_name"/>
    <collection property="books" ofType="map">
      <id property="id" column="book_id"/>
      <result property="title" column="title"/>
      <result property="price" column="price"/>
    </collection>
  </resultMap>
  <select id="search" resultMap="authorWithBooks">
    <bind name="titlePattern" value="'%' + title + '%'"/>
    select <include refid="lib.shared.authorColumns"><property name="a" value="a"/></include>,
           b.id as book_id, b.title, b.price
      from mapper_author a
      left join mapper_book b on b.author_id = a.id
    <where>
      <if test="title != null and title != ''">and b.title ilike #{titlePattern}</if>
      <if test="authorIds != null and authorIds.size() > 0">
        and a.id in <foreach collection="authorIds" item="id" open="(" separator="," close=")">#{id}</foreach>
      </if>
      <choose>
        <when test="maxPrice != null">and (b.price is null or b.price &lt;= #{maxPrice})</when>
        <otherwise>and true</otherwise>
      </choose>
      <if test="tags != null">and b.tags &amp;&amp; #{tags}::text[]</if>
    </where>
    \${orderby}
  </select>
</mapper>`;

describeEachDatabase('mapper statements on a real database', (getDb) => {
  beforeAll(async () => {
    await getDb().database.withSession((s) =>
      s.exec(`
        create table mapper_author (id int primary key, name text not null);
        create table mapper_book (id int primary key, author_id int not null references mapper_author(id), title text not null, price numeric, tags text[]);
        insert into mapper_author values (1, 'Le Guin'), (2, 'Herbert'), (3, 'Nobody');
        insert into mapper_book values
          (10, 1, 'A Wizard of Earthsea', 8.5, '{fantasy}'),
          (11, 1, 'The Lathe of Heaven', 12, '{sf}'),
          (20, 2, 'Dune', 15, '{sf,classic}');
      `),
    );
  });

  async function statement() {
    const registry = new MapperRegistry([
      await parseMapperXml(library, 'lib/books.xml'),
      await parseMapperXml(shared, 'lib/shared.xml'),
    ]);
    registry.link();
    const found = registry.getStatement('lib.books.search');
    if (!found) throw new Error('statement missing');
    return found;
  }

  it('binds placeholders and values in the same order as the SQL text', async () => {
    const search = await statement();
    const bound = search.render({
      title: 'e',
      authorIds: [1, 2],
      maxPrice: 13,
      tags: ['sf', 'fantasy'],
      orderby: 'order by a.id, b.id',
    });
    expect(bound.sql).toContain('a.id in ($2,$3)');
    expect(bound.values).toEqual(['%e%', 1, 2, 13, ['sf', 'fantasy']]);
    const rows = await getDb().database.withSession((s) => s.query(bound.sql, bound.values));
    expect(search.mapRows(rows)).toEqual([
      {
        id: 1,
        name: 'Le Guin',
        books: [
          { id: 10, title: 'A Wizard of Earthsea', price: 8.5 },
          { id: 11, title: 'The Lathe of Heaven', price: 12 },
        ],
      },
    ]);
  });

  it('takes the other branches and keeps hostile values as data', async () => {
    const search = await statement();
    const bound = search.render({ title: "'); drop table mapper_book; --", orderby: 'order by a.id' });
    expect(bound.values).toEqual(["%'); drop table mapper_book; --%"]);
    const none = await getDb().database.withSession((s) => s.query(bound.sql, bound.values));
    expect(none).toEqual([]);
    const all = search.render({ orderby: 'order by a.id, b.id' });
    expect(all.values).toEqual([]);
    const rows = await getDb().database.withSession((s) => s.query(all.sql, all.values));
    expect(search.mapRows(rows).map((author) => [author.name, (author.books as unknown[]).length])).toEqual([
      ['Le Guin', 2],
      ['Herbert', 1],
      ['Nobody', 0],
    ]);
  });
});
