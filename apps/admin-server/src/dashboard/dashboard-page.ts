/**
 * A deliberately minimal dashboard (dev profile, served at `/`): one static HTML page with a
 * little JavaScript that asks for the key and the tenant, then lists processes and trigger
 * executions through the administration API and can trigger the example. It holds no data and
 * no key: every call it makes carries the key the user typed (kept in sessionStorage). The full
 * dashboard (`apps/process-dashboard`) is a later piece of work.
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>fw process admin (dev)</title>
<style>
 body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #222; }
 input { font: inherit; padding: .2rem .4rem; } input#key { width: 34rem; }
 button { font: inherit; margin-right: .4rem; }
 table { border-collapse: collapse; margin-top: .8rem; } td, th { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; }
 .err { color: #b00; } code { background: #f3f3f3; padding: 0 .2rem; }
</style>
</head>
<body>
<h1>fw process admin <small>(minimal dev dashboard)</small></h1>
<p>Key <input id="key" type="password" autocomplete="off"> Tenant <input id="tenant" value="demo"></p>
<p>
 <button id="processes">Processes</button>
 <button id="executions">Executions</button>
 <button id="trigger">Trigger the word-count example</button>
</p>
<div id="out"></div>
<script>
const $ = (id) => document.getElementById(id);
$('key').value = sessionStorage.getItem('fwKey') || '';
$('tenant').value = sessionStorage.getItem('fwTenant') || 'demo';
async function call(method, path, body) {
  sessionStorage.setItem('fwKey', $('key').value);
  sessionStorage.setItem('fwTenant', $('tenant').value);
  const res = await fetch('/process-management/api' + path, {
    method,
    headers: { 'X-Process-Management-Key': $('key').value, 'x-fw-tenant-id': $('tenant').value, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(res.status + ': ' + (data.message || 'error'));
  return data;
}
function table(rows, columns) {
  const t = document.createElement('table');
  const head = t.insertRow();
  for (const c of columns) { const th = document.createElement('th'); th.textContent = c; head.appendChild(th); }
  for (const r of rows) { const tr = t.insertRow(); for (const c of columns) tr.insertCell().textContent = r[c] == null ? '' : String(r[c]); }
  return t;
}
function show(node) { $('out').replaceChildren(node); }
function fail(e) { const p = document.createElement('p'); p.className = 'err'; p.textContent = e.message; show(p); }
$('processes').onclick = () => call('GET', '/processes?size=50').then((page) =>
  show(table(page.content, ['createdTime', 'processType', 'status', 'completedPercent', 'id', 'parentId', 'predecessorId', 'triggerId'])), fail);
$('executions').onclick = () => call('GET', '/executions?size=50').then((page) =>
  show(table(page.content, ['receivedTime', 'source', 'status', 'triggerId', 'processId', 'failureMessage'])), fail);
$('trigger').onclick = () => call('POST', '/triggers', { payload: { processDefName: 'word-count', args: { text: 'to be or not to be that is the question' } } })
  .then((r) => { const p = document.createElement('p'); p.textContent = 'Triggered ' + r.triggerId + ' (dispatched: ' + r.dispatched + ')'; show(p); }, fail);
</script>
</body>
</html>
`;
