import { ConfigError } from '@fw/core';
import { parseMapperXml } from '../../src/mapper/mapper-parser';

async function loadError(xml: string, source = 'mappers/books.xml'): Promise<ConfigError> {
  try {
    await parseMapperXml(xml, source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected the mapper to be refused');
}

const mapper = (body: string): string => `<mapper namespace="books">${body}</mapper>`;

describe('mapper load-time refusals', () => {
  it('refuses ${...} other than orderby and pagination, naming file, statement and fix', async () => {
    const error = await loadError(mapper('<select id="findBooks">select * from book order by ${sortColumn}</select>'));
    expect(error.message).toBe(
      "mappers/books.xml: select 'findBooks' uses ${sortColumn}; only ${orderby} and ${pagination} are allowed — use #{sortColumn} for values (bound as parameters)",
    );
  });

  it('refuses ${...} hidden in a fragment or in a nested element', async () => {
    expect(
      (await loadError(mapper('<sql id="f">where x = ${x}</sql><select id="a">select 1 <include refid="f"/></select>')))
        .message,
    ).toContain("sql 'f' (included by select 'a') uses ${x}");
    expect(
      (await loadError(mapper('<select id="a">select 1 <where><if test="a">a = ${a}</if></where></select>'))).message,
    ).toContain("select 'a' uses ${a}");
  });

  it('refuses an include property left unfilled', async () => {
    const error = await loadError(
      mapper('<sql id="cols">${alias}.id</sql><select id="a">select <include refid="cols"/></select>'),
    );
    expect(error.message).toContain("mappers/books.xml: sql 'cols' (included by select 'a') uses ${alias}");
  });

  it.each([
    ['<select id="a">select 1</select', 'invalid mapper XML'],
    ['', 'the mapper XML is empty'],
  ])('refuses invalid XML %j', async (xml, message) => {
    expect((await loadError(xml)).message).toContain(`mappers/books.xml: ${message}`);
  });

  it('requires a mapper root with a namespace', async () => {
    expect((await loadError('<mapper><select id="a">select 1</select></mapper>')).message).toContain(
      '<mapper> has no namespace attribute',
    );
    expect((await loadError('<configuration namespace="x"/>')).message).toContain(
      'the root element is <configuration>',
    );
    expect((await loadError('<mapper namespace="  "/>')).message).toContain('<mapper> has no namespace attribute');
  });

  it('refuses duplicate ids', async () => {
    const error = await loadError(mapper('<select id="a">select 1</select><select id="a">select 2</select>'));
    expect(error.message).toContain("mappers/books.xml: select 'a' is defined twice");
    expect((await loadError(mapper('<sql id="f">x</sql><sql id="f">y</sql>'))).message).toContain(
      "sql 'f' is defined twice",
    );
  });

  it('refuses an unknown include refid and include cycles', async () => {
    const error = await loadError(mapper('<select id="a">select <include refid="nope"/></select>'));
    expect(error.message).toBe(
      "mappers/books.xml: select 'a' includes unknown sql fragment 'nope'; define <sql id=\"nope\"> in namespace 'books' or fix the refid",
    );
    const cycle = await loadError(
      mapper(
        '<sql id="x"><include refid="y"/></sql><sql id="y"><include refid="x"/></sql><select id="a">select 1 <include refid="x"/></select>',
      ),
    );
    expect(cycle.message).toContain('includes itself');
  });

  it('refuses malformed test expressions at load', async () => {
    const error = await loadError(mapper('<select id="a">select 1 <if test="title = 1">x</if></select>'));
    expect(error.message).toContain(
      "mappers/books.xml: select 'a' has <if test=\"title = 1\"> that does not parse: unexpected character '='",
    );
    expect(
      (await loadError(mapper('<select id="a"><bind name="p" value="\'%\' +"/>select 1</select>'))).message,
    ).toContain('<bind value=');
    expect((await loadError(mapper('<select id="a"><foreach collection="">x</foreach></select>'))).message).toContain(
      "without the required 'collection' attribute",
    );
    expect((await loadError(mapper('<select id="a"><if>x</if></select>'))).message).toContain(
      "<if> without the required 'test' attribute",
    );
  });

  it('refuses unknown elements and misplaced ones', async () => {
    expect((await loadError(mapper('<select id="a">select 1 <iff test="a">x</iff></select>'))).message).toContain(
      "select 'a' has unknown element <iff>",
    );
    expect((await loadError(mapper('<query id="a">select 1</query>'))).message).toContain(
      'unknown element <query> in <mapper>',
    );
    expect((await loadError(mapper('<select id="a"><when test="a">x</when></select>'))).message).toContain(
      '<when> outside <choose>',
    );
    expect(
      (await loadError(mapper('<select id="a"><choose><otherwise>x</otherwise></choose></select>'))).message,
    ).toContain('without any <when');
    expect(
      (
        await loadError(
          mapper('<select id="a"><choose><otherwise>x</otherwise><when test="a">y</when></choose></select>'),
        )
      ).message,
    ).toContain('only <when test="..."> elements and one final <otherwise>');
  });

  it.each(['insert', 'update', 'delete'])('refuses <%s> (read-only API)', async (kind) => {
    const error = await loadError(mapper(`<${kind} id="w">${kind} x</${kind}>`));
    expect(error.message).toBe(
      `mappers/books.xml: <${kind} id="w"> is not supported; the named query service is read-only, only <select> statements are allowed`,
    );
  });

  it('refuses invalid #{...} and tokens in prefix/open attributes', async () => {
    expect((await loadError(mapper('<select id="a">select #{a + 1}</select>'))).message).toContain(
      'must be a property path',
    );
    expect((await loadError(mapper('<select id="a">select #{a</select>'))).message).toContain("unclosed '#{'");
    expect((await loadError(mapper('<select id="a"><trim prefix="${orderby}">x</trim></select>'))).message).toContain(
      "not allowed in 'prefix'",
    );
    expect(
      (await loadError(mapper('<select id="a"><foreach collection="x" item="a.b">x</foreach></select>'))).message,
    ).toContain("'item' must be a simple name");
  });

  it('refuses unknown or unsupported result maps', async () => {
    expect((await loadError(mapper('<select id="a" resultMap="nope">select 1</select>'))).message).toBe(
      "mappers/books.xml: select 'a' uses unknown resultMap 'nope'; define <resultMap id=\"nope\"> or fix the attribute",
    );
    expect(
      (await loadError(mapper('<select id="a" resultMap="m" resultType="map">select 1</select><resultMap id="m"/>')))
        .message,
    ).toContain('has both resultType and resultMap');
    const using = (resultMap: string): string => mapper(`${resultMap}<select id="a" resultMap="m">select 1</select>`);
    expect(
      (await loadError(using('<resultMap id="m"><association property="a" select="other"/></resultMap>'))).message,
    ).toBe(
      "mappers/books.xml: select 'a' uses resultMap 'books.m', which does not load: resultMap 'm' has <association property=\"a\" select=\"...\">; nested selects are refused (one more query per row, outside the query's metadata): join the tables and use a nested resultMap",
    );
    expect(
      (
        await loadError(
          using(
            '<resultMap id="m"><discriminator javaType="int"><case value="1" resultType="map"/></discriminator></resultMap>',
          ),
        )
      ).message,
    ).toContain("<discriminator> without the required 'column' attribute");
    expect(
      (
        await loadError(
          using(
            '<resultMap id="m"><discriminator column="k"><case value="1" resultMap="nope"/></discriminator></resultMap>',
          ),
        )
      ).message,
    ).toContain("whose discriminator case '1' refers to unknown resultMap 'books.nope'");
    expect(
      (await loadError(using('<resultMap id="m"><collection property="c" resultMap="missing"/></resultMap>'))).message,
    ).toContain("select 'a' uses resultMap 'books.m' whose collection 'c' refers to unknown resultMap 'books.missing'");
    expect((await loadError(using('<resultMap id="m"><result property="p"/></resultMap>'))).message).toContain(
      "without the required 'column' attribute",
    );
    const cycle = await loadError(
      mapper(
        '<resultMap id="m"><id property="id" column="id"/><collection property="c" resultMap="m" columnPrefix="c_"/></resultMap><select id="a" resultMap="m">select 1</select>',
      ),
    );
    expect(cycle.message).toContain("mappers/books.xml: select 'a' uses resultMap 'books.m' recursively");
  });

  it('ignores cache elements', async () => {
    const doc = await parseMapperXml(
      mapper('<cache/><cache-ref namespace="x"/><select id="a">select 1</select>'),
      'x.xml',
    );
    expect(doc.statements.map((s) => s.id)).toEqual(['books.a']);
  });
});
