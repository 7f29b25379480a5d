// fw-check-mappers as a real process (node running src/check/check-mappers-main.ts) on a mixed
// folder: statements that load, are refused by design, unsupported or invalid, and a file that
// is not XML; plus the usage errors.
import { spawnScript } from '@fw/test-support';
import * as path from 'node:path';

const MAIN = path.join(__dirname, '../../src/check/check-mappers-main.ts');
const FOLDER = 'libs/query-core/test/fixtures/mapper-check';

async function run(args: readonly string[]): Promise<{ code: number | null; lines: string[] }> {
  const command = spawnScript(MAIN, args);
  const code = await command.exited;
  return { code, lines: command.output().trim().split('\n') };
}

describe('fw-check-mappers', () => {
  it('prints one line per statement with file and line, and exits 1 when any does not load', async () => {
    const { code, lines } = await run([FOLDER]);
    expect(code).toBe(1);
    const orders = `${FOLDER}/legacy/orders.xml`;
    expect(lines.slice(0, -1)).toEqual([
      `${FOLDER}/broken/truncated.xml:5: the file does not load: invalid: invalid mapper XML (line 5: unexpected close tag.); fix the XML so it is well-formed`,
      `${FOLDER}/good/books.xml:3: select com.example.BookMapper.findBooks: loads`,
      `${FOLDER}/good/books.xml:9: select com.example.BookMapper.findBook: loads`,
      `${orders}:9: select Legacy Orders.recent: loads`,
      `${orders}:10: insert Legacy Orders.addOrder: refused by design: <insert id="addOrder"> is not supported; the named query service is read-only, only <select> statements are allowed`,
      `${orders}:11: select Legacy Orders.sorted: refused by design: uses \${sortColumn}; only \${orderby} and \${pagination} are allowed — use #{sortColumn} for values (bound as parameters)`,
      `${orders}:12: select Legacy Orders.byKind: unsupported: uses resultMap 'Legacy Orders.byKind', which does not load: resultMap 'byKind' has <constructor><idArg column="id"> without name, which is not supported: positional arguments need a Java class; add name="..." (the property it fills) or write <id property="..." column="id"/>`,
      `${orders}:13: select Legacy Orders.withTypo: invalid: includes sql fragment 'shared.Common.pages', which no loaded mapper defines; load the mapper with that namespace or fix the refid`,
      `${orders}:14: select Legacy Orders.lines: invalid: has unknown element <iff>; allowed inside statements: if, where, trim, set, choose/when/otherwise, foreach, bind, include`,
    ]);
    expect(lines[lines.length - 1]).toMatch(
      /^8 statements in 4 files: 3 load, 2 refused by design, 1 unsupported, 2 invalid; 1 file does not load \(\d+ ms\)$/,
    );
  });

  it('exits 0 when every statement loads, with a glob and a folder together', async () => {
    const { code, lines } = await run([`${FOLDER}/good/*.xml`, `${FOLDER}/shared`]);
    expect(code).toBe(0);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^2 statements in 2 files: 2 load \(\d+ ms\)$/);
  });

  it('prints only what does not load with --problems', async () => {
    const { code, lines } = await run(['--problems', `${FOLDER}/legacy`, `${FOLDER}/shared/common.xml`]);
    expect(code).toBe(1);
    expect(lines.map((line) => line.replace(/:.*/, '')).slice(0, -1)).toEqual(
      Array(5).fill(`${FOLDER}/legacy/orders.xml`),
    );
    expect(lines[lines.length - 1]).toMatch(
      /^6 statements in 2 files: 1 load, 2 refused by design, 1 unsupported, 2 invalid \(\d+ ms\)$/,
    );
  });

  it.each([
    [[], 'give a folder, file or glob of mapper XML'],
    [['no/such/folder'], 'no/such/folder: no such file or folder'],
    [[`${FOLDER}/*.json`], 'matches no mapper XML file'],
    [['--fast', FOLDER], 'unknown option --fast'],
  ])('exits 2 for %j', async (args, message) => {
    const { code, lines } = await run(args);
    expect(code).toBe(2);
    expect(lines[0]).toContain(message);
  });
});
