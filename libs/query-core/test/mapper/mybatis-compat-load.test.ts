// Load-time rules of MyBatis 3.5 that issue 18 found broken, and the per-statement analysis the
// mapper check command reports from. Rows on real databases: mybatis-compat-database.test.ts.
import { ConfigError } from '@fw/core';
import { parseDefinitionObject } from '../../src/definition/query-definition-parser';
import { MapperLoadError } from '../../src/mapper/mapper-load-error';
import { analyzeMapperXml, parseMapperXml } from '../../src/mapper/mapper-parser';
import { MapperRegistry } from '../../src/mapper/mapper-registry';

async function refusal(xml: string, source = 'm.xml'): Promise<ConfigError> {
  const error: unknown = await parseMapperXml(xml, source).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw new Error('expected the mapper to be refused');
  return error;
}

async function registryOf(files: Record<string, string>): Promise<MapperRegistry> {
  const registry = new MapperRegistry();
  for (const [source, xml] of Object.entries(files)) registry.add(await parseMapperXml(xml, source));
  return registry;
}

describe('include properties (issue 18, 1 and 8)', () => {
  it('fills refid from the properties of the include, passed down nested includes', async () => {
    const doc = await parseMapperXml(
      `<mapper namespace="a">
        <sql id="columns">id, title</sql>
        <sql id="inner"><include refid="\${target}"/></sql>
        <sql id="outer">select <include refid="inner"/> from \${table}</sql>
        <select id="s"><include refid="outer"><property name="target" value="columns"/><property name="table" value="book"/></include></select>
      </mapper>`,
      'a.xml',
    );
    expect(doc.statements[0].render({}).sql).toBe('select id, title from book');
  });

  it('lets an inner include override a property and build values from outer ones', async () => {
    const doc = await parseMapperXml(
      `<mapper namespace="a">
        <sql id="col">\${alias}.\${name}</sql>
        <sql id="pair"><include refid="col"><property name="name" value="\${first}"/></include>, <include refid="col"><property name="alias" value="x"/><property name="name" value="\${first}_2"/></include></sql>
        <select id="s">select <include refid="pair"><property name="alias" value="b"/><property name="first" value="id"/></include> from t</select>
      </mapper>`,
      'a.xml',
    );
    // Pieces are joined with one space, as MyBatis' DynamicContext joins them.
    expect(doc.statements[0].render({}).sql).toBe('select b.id , x.id_2 from t');
  });

  it('still refuses a ${...} in refid that no include property fills, at load, naming the statement', async () => {
    const error = await refusal(
      '<mapper namespace="a"><sql id="inner"><include refid="${target}"/></sql><select id="s">select <include refid="inner"/></select></mapper>',
    );
    expect(error.message).toBe(
      `m.xml: sql 'inner' (included by select 's') has <include refid="\${target}">, and no include property fills \${target}; pass it with <property name="target" value="..."/> where this fragment is included`,
    );
  });

  it('refuses the same property twice in one include, naming the property and the statement', async () => {
    const error = await refusal(
      '<mapper namespace="a"><sql id="f">${x}</sql><select id="s">select <include refid="f"><property name="x" value="1"/><property name="x" value="2"/></include></select></mapper>',
    );
    expect(error).toBeInstanceOf(MapperLoadError);
    expect(error.message).toBe(
      `m.xml: select 's' has <include refid="f"> with <property name="x"> twice; MyBatis refuses a property defined twice in one include, keep one`,
    );
  });

  it('refuses a runtime ${...} left in an attribute of an included fragment', async () => {
    const error = await refusal(
      '<mapper namespace="a"><sql id="f"><if test="${field} != null">x</if></sql><select id="s">select 1 <include refid="f"/></select></mapper>',
    );
    expect(error.message).toContain(
      `sql 'f' (included by select 's') has <if test="\${field} != null">: no include property fills \${field}`,
    );
    expect((error as MapperLoadError).kind).toBe('refused');
  });
});

describe('namespaces of included fragments (issue 18, 2)', () => {
  const library = `<mapper namespace="lib.Shared">
    <sql id="selectFrom">select * from <include refid="tableName"/></sql>
    <sql id="broken"><if test="a ==">never included</if></sql>
  </mapper>`;

  it('loads a file whose fragment includes what only its includers define; a fragment is not checked on its own', async () => {
    const doc = await parseMapperXml(library, 'shared.xml');
    expect([...doc.fragments.keys()]).toEqual(['lib.Shared.selectFrom', 'lib.Shared.broken']);
  });

  it('resolves the unqualified refid in each including namespace', async () => {
    const registry = await registryOf({
      'shared.xml': library,
      'books.xml':
        '<mapper namespace="books"><sql id="tableName">book</sql><select id="all"><include refid="lib.Shared.selectFrom"/></select></mapper>',
      'authors.xml':
        '<mapper namespace="authors"><sql id="tableName">author</sql><select id="all"><include refid="lib.Shared.selectFrom"/></select></mapper>',
    });
    registry.link();
    expect(registry.getStatement('books.all')?.render({}).sql).toBe('select * from book');
    expect(registry.getStatement('authors.all')?.render({}).sql).toBe('select * from author');
  });

  it('names both namespaces when neither defines the fragment, and the statement that needs it', async () => {
    const registry = await registryOf({
      'shared.xml': library,
      'books.xml':
        '<mapper namespace="books"><select id="all"><include refid="lib.Shared.selectFrom"/></select></mapper>',
    });
    expect(() => registry.link()).toThrow(
      `shared.xml: sql 'selectFrom' (included by select 'all') includes unknown sql fragment 'tableName'; define <sql id="tableName"> in namespace 'books' or 'lib.Shared' or fix the refid`,
    );
  });

  it('refuses an include cycle that crosses namespaces', async () => {
    const registry = await registryOf({
      'x.xml': '<mapper namespace="x"><sql id="f"><include refid="y.g"/></sql></mapper>',
      'y.xml':
        '<mapper namespace="y"><sql id="g"><include refid="x.f"/></sql><select id="s">select <include refid="g"/></select></mapper>',
    });
    expect(() => registry.link()).toThrow('which includes itself (y.g -> x.f -> y.g)');
  });
});

describe('parameters, namespaces and databaseId (issue 18, 6 and 7)', () => {
  it('binds the property of #{id:VARCHAR}, with or without further options', async () => {
    const doc = await parseMapperXml(
      '<mapper namespace="a"><select id="s">select #{id:VARCHAR}, #{code:CHAR,mode=IN}, #{n, jdbcType=NUMERIC}</select></mapper>',
      'a.xml',
    );
    expect(doc.statements[0].render({ id: 'x', code: 'c', n: 1 })).toEqual({
      sql: 'select $1, $2, $3',
      values: ['x', 'c', 1],
    });
  });

  it.each(['Book Mapper', 'books-v2', 'com.example.BookMapper', '42', 'é.ü'])(
    'accepts the namespace %j, and a definition id naming it',
    async (namespace) => {
      const doc = await parseMapperXml(
        `<mapper namespace="${namespace}"><select id="s">select 1</select></mapper>`,
        'a.xml',
      );
      expect(doc.statements[0].id).toBe(`${namespace}.s`);
      expect(parseDefinitionObject(JSON.stringify({ name: 'q', id: `${namespace}.s` }), 'd.json').id).toBe(
        `${namespace}.s`,
      );
    },
  );

  it('keeps the rules of query names and definition ids as they were', () => {
    expect(() => parseDefinitionObject(JSON.stringify({ name: '', id: 'Book Mapper.s' }), 'd.json')).toThrow(
      ConfigError,
    );
    expect(() => parseDefinitionObject(JSON.stringify({ name: 'q', id: '' }), 'd.json')).toThrow(ConfigError);
  });

  it('uses the postgresql variants of statements and fragments and skips other databases', async () => {
    const doc = await parseMapperXml(
      `<mapper namespace="a">
        <sql id="now" databaseId="oracle">sysdate</sql><sql id="now">current_timestamp</sql>
        <select id="onlyOracle" databaseId="oracle">select 1 from dual</select>
        <select id="s" databaseId="PostgreSQL">select <include refid="now"/>, #{_databaseId}</select>
        <select id="s">select 'generic'</select>
      </mapper>`,
      'a.xml',
    );
    expect(doc.statements.map((s) => s.id)).toEqual(['a.s']);
    expect(doc.statements[0].render({})).toEqual({ sql: 'select current_timestamp , $1', values: ['postgresql'] });
  });
});

describe('result maps MyBatis maps (issue 18, 3)', () => {
  const statement = async (resultMap: string) =>
    (
      await parseMapperXml(
        `<mapper namespace="a">${resultMap}<select id="s" resultMap="m">select 1</select></mapper>`,
        'a.xml',
      )
    ).statements[0];

  it('maps an association with autoMapping="true" and no mappings from every column (no columnPrefix)', async () => {
    const s = await statement(
      '<resultMap id="m"><id property="id" column="id"/><association property="breeder" autoMapping="true"/></resultMap>',
    );
    expect(s.mapRows([{ id: 1, name: 'Happy Paws' }])).toEqual([{ id: 1, breeder: { id: 1, name: 'Happy Paws' } }]);
  });

  it('refuses an association that maps nothing, saying what to add', async () => {
    const error = await refusal(
      '<mapper namespace="a"><resultMap id="m"><association property="breeder"/></resultMap><select id="s" resultMap="m">select 1</select></mapper>',
    );
    expect(error.message).toContain(
      `has <association property="breeder"> without resultMap="...", inline id/result mappings or autoMapping="true"; add one`,
    );
    expect((error as MapperLoadError).kind).toBe('unsupported');
  });

  it('maps a scalar association and a scalar collection through a referenced map of a simple type', async () => {
    const s = await statement(
      `<resultMap id="tag" type="string"><result column="tag"/></resultMap>
       <resultMap id="m"><id property="id" column="id"/><association property="label" javaType="java.lang.String"><result column="label"/></association>
         <collection property="tags" ofType="String" resultMap="tag"/></resultMap>`,
    );
    expect(
      s.mapRows([
        { id: 1, label: 'L', tag: 'x' },
        { id: 1, label: 'L', tag: 'y' },
        { id: 1, label: 'L', tag: 'x' },
        { id: 2, label: null, tag: null },
      ]),
    ).toEqual([
      { id: 1, label: 'L', tags: ['x', 'y'] },
      { id: 2, label: null, tags: [] },
    ]);
  });

  it('keeps rows as objects for a top-level map of a simple type', async () => {
    const s = await statement('<resultMap id="m" type="string"><result column="name"/></resultMap>');
    expect(s.mapRows([{ name: 'a' }])).toEqual([{ name: 'a' }]);
  });

  it("discriminates nested rows too, under the collection's columnPrefix, keeping rows of two cases apart", async () => {
    const s = await statement(
      `<resultMap id="m"><id property="id" column="id"/>
         <collection property="items" ofType="Item" columnPrefix="item_">
           <id property="id" column="id"/>
           <discriminator javaType="string" column="kind">
             <case value="book"><result property="title" column="title"/></case>
             <case value="film"><result property="minutes" column="minutes"/></case>
           </discriminator>
         </collection></resultMap>`,
    );
    const row = (itemId: number, kind: string, title: string | null, minutes: number | null) => ({
      id: 1,
      item_id: itemId,
      item_kind: kind,
      item_title: title,
      item_minutes: minutes,
    });
    expect(
      s.mapRows([
        row(7, 'book', 'Dune', null),
        row(8, 'film', null, 137),
        row(8, 'film', null, 137),
        row(9, 'toy', null, null),
      ]),
    ).toEqual([{ id: 1, items: [{ id: 7, title: 'Dune' }, { id: 8, minutes: 137 }, { id: 9 }] }]);
  });

  it('maps named constructor arguments as properties and refuses positional ones', async () => {
    const s = await statement(
      '<resultMap id="m" autoMapping="false"><constructor><idArg column="id" name="id" javaType="int"/><arg column="title" name="title"/></constructor></resultMap>',
    );
    expect(s.mapRows([{ id: 1, title: 'Dune', extra: 2 }])).toEqual([{ id: 1, title: 'Dune' }]);
    const error = await refusal(
      '<mapper namespace="a"><resultMap id="m"><constructor><arg column="title" javaType="string"/></constructor></resultMap><select id="s" resultMap="m">x</select></mapper>',
    );
    expect((error as MapperLoadError).kind).toBe('unsupported');
    expect(error.message).toContain('<constructor><arg column="title"> without name, which is not supported');
  });
});

describe('per-statement analysis (what the mapper check command reports)', () => {
  it('keeps the good statements of a file and says why each other one does not load', async () => {
    const analysis = await analyzeMapperXml(
      `<mapper namespace="mixed">
        <resultMap id="byKind"><constructor><arg column="kind" javaType="int"/></constructor></resultMap>
        <select id="ok">select 1</select>
        <insert id="add">insert into t values (#{v})</insert>
        <select id="sorted">select * from t order by \${column}</select>
        <select id="kinds" resultMap="byKind">select kind from t</select>
        <select id="typo"><iff test="a">x</iff></select>
        <select id="ok">select 2</select>
      </mapper>`,
      'mixed.xml',
    );
    expect(analysis.fileProblems).toEqual([]);
    expect(analysis.statements.map((s) => [s.element, s.id, s.problem?.kind ?? 'loads'])).toEqual([
      ['select', 'ok', 'loads'],
      ['insert', 'add', 'refused'],
      ['select', 'sorted', 'refused'],
      ['select', 'kinds', 'unsupported'],
      ['select', 'typo', 'invalid'],
      ['select', 'ok', 'invalid'],
    ]);
    expect(analysis.document?.statements.map((s) => s.id)).toEqual(['mixed.ok']);
    expect(
      (await refusal('<mapper namespace="x"><select id="a">${a}</select><select id="b">${b}</select></mapper>'))
        .message,
    ).toBe(
      "2 problems in mapper m.xml:\n- m.xml: select 'a' uses ${a}; only ${orderby} and ${pagination} are allowed — use #{a} for values (bound as parameters)\n- m.xml: select 'b' uses ${b}; only ${orderby} and ${pagination} are allowed — use #{b} for values (bound as parameters)",
    );
  });

  it('reports problems of the file as a whole', async () => {
    expect(
      (await analyzeMapperXml('<mapper namespace="x"><select id="a">select 1</select', 'x.xml')).fileProblems[0]
        .message,
    ).toContain('x.xml: invalid mapper XML');
    const analysis = await analyzeMapperXml(
      '<mapper namespace="x"><query id="q"/><sql id="f">a</sql><sql id="f">b</sql><select id="a">select 1</select></mapper>',
      'x.xml',
    );
    expect(analysis.fileProblems.map((p) => p.message)).toEqual([
      'x.xml: unknown element <query> in <mapper>; allowed: select, sql, resultMap (cache, cache-ref and parameterMap are ignored)',
      "x.xml: sql 'f' is defined twice; statement, sql and resultMap ids must be unique per kind in a mapper",
    ]);
  });
});
