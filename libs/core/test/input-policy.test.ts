import {
  assertNoControlCharacters,
  createLogger,
  findControlCharacter,
  findExcessiveNesting,
  isFwError,
  MAX_INPUT_DEPTH,
  toFwError,
} from '@fw/core';
import { rejectControlCharacters, makeErrorMiddleware } from '@fw/core/http';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import request from 'supertest';

describe('input policy: no control characters', () => {
  it('finds U+0000 and other C0 controls in values, array items and keys, naming the field; tab, newline and CR pass', () => {
    expect(findControlCharacter({ args: { text: 'a\u0000b' } })).toEqual({ field: 'args.text', codePoint: 0 });
    expect(findControlCharacter({ items: ['ok', 'bell\u0007'] })).toEqual({ field: 'items[1]', codePoint: 7 });
    expect(findControlCharacter({ ['bad\u001fkey']: 1 })).toEqual({ field: 'bad\u001fkey', codePoint: 31 });
    expect(findControlCharacter('\u0001')).toEqual({ field: 'body', codePoint: 1 });
    expect(
      findControlCharacter({ text: 'line one\nline two\ttabbed\r\n', n: 3, ok: true, nothing: null }),
    ).toBeUndefined();
  });

  it('refuses with 400 FW400C, the field and the code point; query parameters first', () => {
    let caught: unknown;
    try {
      assertNoControlCharacters({ name: 'x' }, { triggerId: 'a\u0000b' });
    } catch (err) {
      caught = err;
    }
    expect(isFwError(caught)).toBe(true);
    expect(caught).toMatchObject({
      code: 400,
      subErrorCode: 'FW400C',
      field: 'query.triggerId',
      description: "'query.triggerId' contains the control character U+0000, which is not allowed",
    });
  });

  it('refuses a body nested deeper than 64 levels with 400 FW400D naming where (JSON.stringify and the database overflow on such bodies)', () => {
    const nested = (depth: number): unknown => {
      let value: unknown = 'bottom';
      for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
      return value;
    };
    expect(findExcessiveNesting({ args: nested(MAX_INPUT_DEPTH - 1) })).toBeUndefined();
    expect(findExcessiveNesting({ args: nested(MAX_INPUT_DEPTH) })).toMatch(/^args(\.a|\[0\])+$/);
    let caught: unknown;
    try {
      assertNoControlCharacters({ payload: { args: nested(100_000) } });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      code: 400,
      subErrorCode: 'FW400D',
      description: expect.stringMatching(
        /^'payload\.args.*' is nested deeper than 64 levels of arrays and objects, which is not allowed$/,
      ),
    });
  });

  it('as express middleware: the request never reaches the handler', async () => {
    let reached = 0;
    const app = express().use(express.json(), rejectControlCharacters());
    app.post('/x', (_req, res) => {
      reached++;
      res.json({ ok: true });
    });
    app.use(makeErrorMiddleware(createLogger({ name: 'policy-test' })));
    const refused = await request(app).post('/x').send({ description: 'nul\u0000here' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ subErrorCode: 'FW400C', errors: [{ field: 'description' }] });
    expect((await request(app).post('/x').query({ q: 'a\u0000' }).send({})).status).toBe(400);
    expect(reached).toBe(0);
    expect((await request(app).post('/x').send({ description: 'fine\ttext' })).status).toBe(200);
  });
});

describeEachDatabase('a value the database refuses becomes 400, never 500', (getDb) => {
  it('maps the real errors of a NUL in jsonb (22P05) and of a too-long value (22001) to 400 FW400V', async () => {
    const logger = createLogger({ name: 'policy-test', level: 'silent' });
    const failure = (fn: () => Promise<unknown>) =>
      fn().then(
        () => undefined,
        (err: unknown) => err,
      );
    const nul = await failure(() =>
      getDb().database.withSession((s) => s.query('select $1::jsonb as v', ['{"a":"\\u0000"}'])),
    );
    const tooLong = await failure(() =>
      getDb().database.withSession(async (s) => {
        await s.exec('create temp table if not exists policy_probe (v varchar(3))');
        await s.query('insert into policy_probe (v) values ($1)', ['far too long']);
      }),
    );
    for (const err of [nul, tooLong]) {
      expect(err).toBeDefined();
      expect(toFwError(err, logger, { path: '/x', method: 'POST' })).toMatchObject({
        code: 400,
        subErrorCode: 'FW400V',
      });
    }
    expect(toFwError(new Error('boom'), logger, { path: '/x', method: 'POST' })).toMatchObject({
      code: 500,
      subErrorCode: 'FW500',
    });
  });
});
