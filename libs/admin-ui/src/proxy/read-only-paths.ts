/**
 * The read-only host paths (see libs/service/README.md#info-endpoints-and-openapi) that the admin UI reads, and so the only paths its proxy
 * forwards: the info endpoints, the service registry's catalog, the OpenAPI documents it probes
 * and a workflow service's introspection.
 */

/** A service, flow, state or check name: what `@fw/service` and `@fw/stm` accept, plus ':' of check names (`database:t1`). */
const NAME = '[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}';

const READ_ONLY_PATHS: readonly RegExp[] = [
  /^\/info$/,
  /^\/service-info$/,
  new RegExp(`^/service-info/${NAME}$`),
  /^\/health-check$/,
  new RegExp(`^/health-check/${NAME}$`),
  /^\/serviceregistry$/,
  /^\/openapi\.json$/,
  /^\/v3\/api-docs$/,
  /^\/swagger\.json$/,
  /^\/api-docs$/,
  new RegExp(`^/${NAME}/info$`),
  new RegExp(`^/${NAME}/info/flows/${NAME}$`),
  new RegExp(`^/${NAME}/info/flows/${NAME}/diagram$`),
  new RegExp(`^/${NAME}/info/flows/${NAME}/test-cases$`),
  new RegExp(`^/${NAME}/info/flows/${NAME}/states/${NAME}/allowed-actions$`),
];

/** The OpenAPI documents the UI probes, in order. */
export const API_DOC_PATHS = ['/openapi.json', '/v3/api-docs', '/swagger.json', '/api-docs'] as const;

/**
 * Whether `path` is one of the read-only paths. Plain characters only: no percent-encoding, no
 * query, no `.`/`..` segment (a name never starts with '.'), so nothing can step outside the list.
 *
 * @example
 * isReadOnlyInfoPath('/service-info/query'); // true
 * isReadOnlyInfoPath('/process-management/api/processes'); // false
 */
export function isReadOnlyInfoPath(path: string): boolean {
  return READ_ONLY_PATHS.some((pattern) => pattern.test(path));
}
