import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { configFromObject, isConfigError, loadConfigFile } from '../src';

describe('loadConfigFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: unknown): string => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  it('replaces ${VAR} in every string, nested in objects and arrays', () => {
    const file = write('vars.json', {
      db: { password: '${PW}', url: 'postgres://u:${PW}@h/${DB}' },
      list: ['${DB}', 3, true, null],
    });
    const config = loadConfigFile(file, { env: { PW: 's3cret', DB: 'main' } });
    expect(config.data).toEqual({
      db: { password: 's3cret', url: 'postgres://u:s3cret@h/main' },
      list: ['main', 3, true, null],
    });
  });

  it('uses ${VAR:-default} when the variable is unset or empty, and the variable when set', () => {
    const file = write('defaults.json', {
      a: '${UNSET:-fallback}',
      b: '${EMPTY:-x}',
      c: '${SET:-ignored}',
      d: '${UNSET:-}',
    });
    const config = loadConfigFile(file, { env: { EMPTY: '', SET: 'value' } });
    expect(config.data).toEqual({ a: 'fallback', b: 'x', c: 'value', d: '' });
  });

  it('gives an empty string for ${VAR} when VAR is set to the empty string (empty is set)', () => {
    const file = write('empty.json', { password: '${DB_PASSWORD}', url: 'postgres://u:${DB_PASSWORD}@h/db' });
    const config = loadConfigFile(file, { env: { DB_PASSWORD: '' } });
    expect(config.data).toEqual({ password: '', url: 'postgres://u:@h/db' });
    expect(() => loadConfigFile(file, { env: {} })).toThrow(/environment variable DB_PASSWORD is not set/);
  });

  it('writes $$ as a literal $ and does not interpolate after it', () => {
    const file = write('dollar.json', { price: '$$5', literal: '$${NOT_A_VAR}' });
    const config = loadConfigFile(file, { env: {} });
    expect(config.data).toEqual({ price: '$5', literal: '${NOT_A_VAR}' });
  });

  it('names the file, the key path and the variable when a variable is missing', () => {
    const file = write('missing.json', { query: { datasources: { t1: { password: '${T1_PW}' } } } });
    let caught: unknown;
    try {
      loadConfigFile(file, { env: {} });
    } catch (err) {
      caught = err;
    }
    expect(isConfigError(caught)).toBe(true);
    const message = (caught as Error).message;
    expect(message).toContain(file);
    expect(message).toContain('query.datasources.t1.password');
    expect(message).toContain('T1_PW');
    expect(message).toContain('${T1_PW:-default}');
  });

  it('names array indexes in the key path', () => {
    const file = write('array.json', { list: ['ok', '${NOPE}'] });
    expect(() => loadConfigFile(file, { env: {} })).toThrow(/list\[1\] uses \$\{NOPE\}/);
  });

  it('reads process.env by default', () => {
    process.env.FW_CONFIG_TEST_VAR = 'from-env';
    try {
      const file = write('env.json', { v: '${FW_CONFIG_TEST_VAR}' });
      expect(loadConfigFile(file).data).toEqual({ v: 'from-env' });
    } finally {
      delete process.env.FW_CONFIG_TEST_VAR;
    }
  });

  it('resolves relative paths against the folder of the file, and keeps absolute ones', () => {
    const file = write('paths.json', { mapperFiles: 'mappers/*.xml' });
    const config = loadConfigFile(path.relative(process.cwd(), file));
    expect(config.file).toBe(file);
    expect(config.baseDir).toBe(dir);
    expect(config.resolvePath('mappers/a.xml')).toBe(path.join(dir, 'mappers/a.xml'));
    expect(config.resolvePath('/abs/x.json')).toBe('/abs/x.json');
  });

  it('fails with a ConfigError naming the file when it does not exist', () => {
    const missing = path.join(dir, 'nope.json');
    expect(() => loadConfigFile(missing)).toThrow(
      new RegExp(`Cannot read config file ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('fails with a ConfigError naming the file when it is not JSON', () => {
    const file = write('bad.json', '{ "server": ');
    let caught: unknown;
    try {
      loadConfigFile(file);
    } catch (err) {
      caught = err;
    }
    expect(isConfigError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/bad\.json is not valid JSON/);
  });
});

describe('configFromObject', () => {
  it('interpolates and resolves paths against the given folder', () => {
    const config = configFromObject({ a: '${X:-1}', b: '${Y}' }, '/base', { env: { Y: 'y' } });
    expect(config.data).toEqual({ a: '1', b: 'y' });
    expect(config.file).toBeUndefined();
    expect(config.resolvePath('m/x.xml')).toBe('/base/m/x.xml');
  });

  it('names the key of a missing variable', () => {
    expect(() => configFromObject({ server: { port: '${PORT}' } }, '/base', { env: {} })).toThrow(
      /server\.port uses \$\{PORT\}/,
    );
  });
});
