/**
 * API documents: probes `/openapi.json`, `/v3/api-docs`, `/swagger.json`, `/api-docs`, links to
 * what answers and lists the operations of the first document found.
 */
import { useConnection } from '../../api/connection-context';
import { infoApi, urlFor } from '../../api/info-client';
import type { ApiDocument } from '../../api/info-types';
import { useInfoQuery } from '../../api/use-info-query';
import { ErrorMessage, Loading } from '../../components/query-state';
import { TableHead } from '../../components/table-head';

export const API_DOC_PATHS = ['/openapi.json', '/v3/api-docs', '/swagger.json', '/api-docs'] as const;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

export function operationsOf(
  document: ApiDocument,
): Array<{ method: string; path: string; id: string; summary: string }> {
  const out: Array<{ method: string; path: string; id: string; summary: string }> = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!METHODS.includes(method) || op === null || typeof op !== 'object') continue;
      out.push({
        method: method.toUpperCase(),
        path,
        id: op.operationId ?? '',
        summary: op.summary ?? op.description ?? '',
      });
    }
  }
  return out;
}

export function ApiDocsPage() {
  const { connection } = useConnection();
  const probes = useInfoQuery(['api-docs'], (c) => infoApi.apiDocs(c, API_DOC_PATHS));
  if (probes.isPending) return <Loading what="the API documents" />;
  if (probes.isError) return <ErrorMessage error={probes.error} what="the API documents" />;
  const found = probes.data.find((p) => p.document !== undefined);
  const operations = found?.document ? operationsOf(found.document) : [];
  return (
    <section aria-labelledby="docs-title">
      <header className="page-header">
        <h1 id="docs-title">API documents</h1>
      </header>
      <table className="probes">
        <caption>Probed paths</caption>
        <TableHead columns={['Path', 'Answer']} />
        <tbody>
          {probes.data.map((p) => (
            <tr key={p.path}>
              <td>{p.document ? <a href={urlFor(connection, p.path)}>{p.path}</a> : <code>{p.path}</code>}</td>
              <td>
                {p.document
                  ? `${p.document.openapi ? `OpenAPI ${p.document.openapi}` : `Swagger ${p.document.swagger}`} — ${p.document.info?.title ?? ''} ${p.document.info?.version ?? ''}`
                  : p.status === 0
                    ? 'no answer'
                    : p.status === 200
                      ? 'HTTP 200, but not an OpenAPI or Swagger document'
                      : `HTTP ${p.status}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {found?.document ? (
        <>
          <h2>
            Operations in {found.path} ({operations.length})
          </h2>
          <table className="doc-operations">
            <TableHead columns={['Method', 'Path', 'Operation', 'Summary']} />
            <tbody>
              {operations.map((op) => (
                <tr key={`${op.method} ${op.path}`}>
                  <td>
                    <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span>
                  </td>
                  <td>
                    <code>{op.path}</code>
                  </td>
                  <td>{op.id}</td>
                  <td>{op.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p className="empty">No OpenAPI or Swagger document answers on this host.</p>
      )}
    </section>
  );
}
