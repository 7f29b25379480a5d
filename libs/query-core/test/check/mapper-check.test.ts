// The check's report in process: problems of whole files (a namespace loaded twice, an unreadable
// file) and the statements they take down; the report text and summary.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { everythingLoads, reportLines, summaryLine } from '../../src/check/check-report';
import { checkMapperFiles } from '../../src/check/mapper-check';

describe('checkMapperFiles', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'fw-mapper-check-'));
    await writeFile(
      path.join(folder, 'a.xml'),
      '<mapper namespace="books">\n  <select id="all">select 1</select>\n</mapper>\n',
    );
    await writeFile(
      path.join(folder, 'b.xml'),
      '<mapper namespace="books">\n  <select id="other">select 2</select>\n</mapper>\n',
    );
    await writeFile(
      path.join(folder, 'c.xml'),
      '<mapper namespace="c">\n  <query id="q"/>\n  <select id="s">select 3</select>\n</mapper>\n',
    );
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reports a namespace loaded twice, an unknown element and an unreadable file, with the statements they take down', async () => {
    const files = ['a.xml', 'b.xml', 'c.xml', 'missing.xml'].map((name) => [path.join(folder, name), name] as const);
    const report = await checkMapperFiles(files);
    expect(everythingLoads(report)).toBe(false);
    const lines = reportLines(report);
    expect(lines.slice(0, 5)).toEqual([
      'a.xml:2: select books.all: loads',
      "b.xml:1: the file does not load: invalid: mapper namespace 'books' is already loaded from a.xml; namespaces must be unique",
      "b.xml:2: select books.other: invalid: the file does not load (line 1: mapper namespace 'books' is already loaded from a.xml; namespaces must be unique)",
      'c.xml:2: the file does not load: invalid: unknown element <query> in <mapper>; allowed: select, sql, resultMap (cache, cache-ref and parameterMap are ignored)',
      'c.xml:3: select c.s: invalid: the file does not load (line 2: unknown element <query> in <mapper>; allowed: select, sql, resultMap (cache, cache-ref and parameterMap are ignored))',
    ]);
    expect(lines[5]).toMatch(/^missing\.xml:0: the file does not load: invalid: cannot be read: ENOENT/);
    expect(reportLines(report, true)).toEqual(lines.slice(1));
    expect(summaryLine(report, 12.4)).toBe('3 statements in 4 files: 1 load, 2 invalid; 3 files do not load (12 ms)');
  });

  it('says everything loads when it does', async () => {
    const report = await checkMapperFiles([[path.join(folder, 'a.xml'), 'a.xml']]);
    expect(everythingLoads(report)).toBe(true);
    expect(summaryLine(report, 3)).toBe('1 statement in 1 file: 1 load (3 ms)');
  });
});
