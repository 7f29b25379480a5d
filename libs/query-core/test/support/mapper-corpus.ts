/**
 * Writes a folder of realistic mapper files for measuring the mapper check: `files` mappers of
 * `statementsPerFile` selects each, with dynamic SQL (where/if/foreach/choose/bind), includes of
 * the file's own fragments and of a shared namespace (with properties), and a result map with a
 * nested collection. Every statement loads.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

const SHARED = `<?xml version="1.0" encoding="UTF-8" ?>
<mapper namespace="corpus.Shared">
  <sql id="audit">\${alias}.created_at, \${alias}.updated_at</sql>
  <sql id="tenantFilter"><if test="tenantId != null">and \${alias}.tenant_id = #{tenantId}</if></sql>
</mapper>
`;

function statement(n: number): string {
  return `
  <select id="find${n}" resultMap="withLines">
    <bind name="pattern" value="'%' + name + '%'"/>
    select o.id, o.name, <include refid="corpus.Shared.audit"><property name="alias" value="o"/></include>,
           l.id as line_id, l.amount as line_amount
      from orders_${n} o left join order_line l on l.order_id = o.id
    <where>
      <include refid="corpus.Shared.tenantFilter"><property name="alias" value="o"/></include>
      <if test="name != null and name != ''">and o.name ilike #{pattern}</if>
      <if test="ids != null and ids.size() > 0">and o.id in <foreach collection="ids" item="id" open="(" separator="," close=")">#{id:INTEGER}</foreach></if>
      <choose>
        <when test="status == 'open'">and o.closed_at is null</when>
        <when test="status == 'closed'">and o.closed_at is not null</when>
        <otherwise>and true</otherwise>
      </choose>
      <include refid="columnsFilter"/>
    </where>
    \${orderby} \${pagination}
  </select>`;
}

function mapper(file: number, statementsPerFile: number): string {
  const statements = Array.from({ length: statementsPerFile }, (_, i) => statement(file * statementsPerFile + i)).join(
    '\n',
  );
  return `<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="corpus.orders.Mapper${file}">
  <resultMap id="withLines" type="Order">
    <id property="id" column="id"/>
    <result property="name" column="name"/>
    <collection property="lines" ofType="Line" columnPrefix="line_" notNullColumn="{id}">
      <id property="id" column="id"/>
      <result property="amount" column="amount"/>
    </collection>
  </resultMap>
  <sql id="columnsFilter"><if test="minAmount != null">and exists (select 1 from order_line x where x.order_id = o.id and x.amount &gt;= #{minAmount})</if></sql>
${statements}
</mapper>
`;
}

/**
 * Writes the corpus under `folder` (created) and returns the number of statements written.
 *
 * @example
 * await writeMapperCorpus('/tmp/corpus', 50, 20); // 1000 statements in 50 files + the shared one
 */
export async function writeMapperCorpus(folder: string, files: number, statementsPerFile: number): Promise<number> {
  await mkdir(path.join(folder, 'orders'), { recursive: true });
  await writeFile(path.join(folder, 'shared.xml'), SHARED);
  for (let file = 0; file < files; file++)
    await writeFile(path.join(folder, 'orders', `mapper-${file}.xml`), mapper(file, statementsPerFile));
  return files * statementsPerFile;
}
