// enableDbConsole=y: the SQL console answers in the dev profile and does not exist in prod.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { call, start } from './support';

it('runs SQL in the dev profile (page and JSON)', async () => {
  const host = await start({ config: { profile: 'dev' } });
  try {
    const page = await fetch(`${host.url}/fw/db-console`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<textarea id="sql"/);
    const { status, body } = await call<{ rows: Array<{ answer: number }> }>(`${host.url}/fw/db-console/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sql: 'select 42 as answer' }) });
    assert.equal(status, 200);
    assert.deepEqual(body.rows, [{ answer: 42 }]);
    const form = await fetch(`${host.url}/fw/db-console`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'sql=select+1+as+%22%3Cb%3E%22' });
    assert.match(await form.text(), /&#60;b&#62;/); // column names are escaped, never markup
  } finally {
    await host.close();
  }
});

it('is not there in the prod profile', async () => {
  const host = await start({ config: { profile: 'prod' } });
  try {
    assert.equal((await fetch(`${host.url}/fw/db-console`)).status, 404);
  } finally {
    await host.close();
  }
});
