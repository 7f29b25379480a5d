/**
 * Which top-level elements of a mapper are used, by MyBatis' `databaseId` rule with this engine's
 * database id, `postgresql` (the id MyBatis' VendorDatabaseIdProvider is usually mapped to for
 * PostgreSQL; compared ignoring case, so the unmapped product name `PostgreSQL` matches too):
 *
 * - an element whose `databaseId` names another database is skipped;
 * - an element for `postgresql` replaces the element of the same kind and id without `databaseId`
 *   (vendor-specific variants of one statement live side by side in many mappers).
 */
import { type XmlElement, childElements } from './xml-tree';

/** The database id mapper `databaseId` attributes and `_databaseId` in expressions are compared with. */
export const DATABASE_ID = 'postgresql';

/** Elements that declare a statement (MyBatis' mapped statements share one id space). */
export type StatementElementName = 'select' | 'insert' | 'update' | 'delete';

const STATEMENTS = new Set(['select', 'insert', 'update', 'delete']);

/** The id space an element's id lives in: statements share one, fragments have theirs. */
function idSpace(element: XmlElement): string | undefined {
  if (STATEMENTS.has(element.name)) return 'statement';
  return element.name === 'sql' ? 'sql' : undefined;
}

function keyOf(element: XmlElement): string | undefined {
  const space = idSpace(element);
  const id = element.attributes.id?.trim();
  return space === undefined || !id ? undefined : `${space}#${id}`;
}

/** True when `element` says it is for PostgreSQL. */
export function isForThisDatabase(element: XmlElement): boolean {
  return element.attributes.databaseId?.trim().toLowerCase() === DATABASE_ID;
}

/**
 * The child elements of a `<mapper>` that MyBatis would use with database id `postgresql`, in
 * document order.
 */
export function selectElements(root: XmlElement): XmlElement[] {
  const children = childElements(root);
  const specific = new Set<string>();
  for (const element of children) {
    const key = keyOf(element);
    if (key !== undefined && isForThisDatabase(element)) specific.add(key);
  }
  return children.filter((element) => {
    if (element.attributes.databaseId !== undefined) return isForThisDatabase(element);
    const key = keyOf(element);
    return key === undefined || !specific.has(key);
  });
}
