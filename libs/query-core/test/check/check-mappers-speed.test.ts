// The mapper check on a migration's worth of mappers: a thousand statements (50 files of 20
// selects with dynamic SQL, cross-namespace includes with properties and result maps). Its speed
// is measured by the bench (README), not asserted here.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkMappersMain } from '../../src/check/check-mappers-cli';
import { writeMapperCorpus } from '../support/mapper-corpus';

describe('fw-check-mappers on a large corpus', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'fw-mapper-corpus-'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('checks a thousand statements in one run and reports each', async () => {
    expect(await writeMapperCorpus(folder, 50, 20)).toBe(1000);
    const lines: string[] = [];
    const code = await checkMappersMain([folder], {
      out: (line) => lines.push(line),
      error: (line) => lines.push(line),
    });
    expect(code).toBe(0);
    expect(lines).toHaveLength(1001);
    expect(lines[1000]).toMatch(/^1000 statements in 51 files: 1000 load \(\d+ ms\)$/);
  });
});
