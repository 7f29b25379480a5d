/**
 * The set of loaded mapper documents ("one mapper factory"): statements by `<namespace>.<id>`.
 *
 * Linking: statements resolve `<include refid="other.ns.frag">` and result maps of other
 * namespaces through the registry. Call {@link MapperRegistry.link} once every document is added
 * (startup does): it links every statement and throws one {@link ConfigError} listing every
 * unresolved reference with its source file and statement. Statements not linked explicitly
 * link lazily on their first `render` / `mapRows` and throw the same error there.
 * Adding or replacing a document re-links everything, so fetch statements again afterwards.
 */
import { ConfigError } from '@fw/core';
import { MapperStatement, StatementResolver } from './mapped-statement';
import { ParsedMapperDocument } from './mapper-parser';
import { MappedStatement } from './mapper-types';
import { ResultMapSpec } from './result-map-parser';
import { FragmentDefinition } from './sql-node-compiler';

/** Mapper documents by namespace, with statements linked across namespaces. */
export class MapperRegistry {
  private readonly documents = new Map<string, ParsedMapperDocument>();
  private statements = new Map<string, MapperStatement>();

  /** A registry holding `documents` (same rules as {@link MapperRegistry.add}). */
  constructor(documents: Iterable<ParsedMapperDocument> = []) {
    for (const document of documents) this.add(document);
  }

  /**
   * Adds a document.
   *
   * @throws ConfigError when its namespace is already present (naming both sources).
   */
  add(document: ParsedMapperDocument): void {
    const existing = this.documents.get(document.namespace);
    if (existing) {
      throw new ConfigError(
        `${document.source}: mapper namespace '${document.namespace}' is already loaded from ${existing.source}; namespaces must be unique`,
      );
    }
    this.documents.set(document.namespace, document);
    this.rebind();
  }

  /**
   * Adds `document`, replacing any document of the same namespace — the merge rule for a catalog
   * mapper over a packaged one. Statements of the replaced document disappear.
   *
   * @returns the replaced document, if any.
   */
  replaceNamespace(document: ParsedMapperDocument): ParsedMapperDocument | undefined {
    const replaced = this.documents.get(document.namespace);
    this.documents.set(document.namespace, document);
    this.rebind();
    return replaced;
  }

  /** The statement `<namespace>.<id>`, or undefined. */
  getStatement(id: string): MappedStatement | undefined {
    return this.statements.get(id);
  }

  /** True when the statement `<namespace>.<id>` is loaded. */
  hasStatement(id: string): boolean {
    return this.statements.has(id);
  }

  /** Every statement id, sorted. */
  statementIds(): string[] {
    return [...this.statements.keys()].sort();
  }

  /** Every namespace, sorted. */
  namespaces(): string[] {
    return [...this.documents.keys()].sort();
  }

  /** The document of `namespace`, or undefined. */
  getDocument(namespace: string): ParsedMapperDocument | undefined {
    return this.documents.get(namespace);
  }

  /**
   * Links every statement now.
   *
   * @throws ConfigError listing every unresolved include or result map (one line each).
   */
  link(): void {
    const problems: string[] = [];
    for (const statement of this.statements.values()) {
      try {
        statement.link();
      } catch (error) {
        if (error instanceof ConfigError) problems.push(error.message);
        else throw error;
      }
    }
    if (problems.length === 1) throw new ConfigError(problems[0]);
    if (problems.length > 1) throw new ConfigError(`${problems.length} mapper references cannot be resolved:\n- ${problems.join('\n- ')}`);
  }

  private fragment(id: string): FragmentDefinition | undefined {
    const namespace = id.slice(0, id.lastIndexOf('.'));
    return this.documents.get(namespace)?.fragments.get(id);
  }

  private resultMap(id: string): ResultMapSpec | undefined {
    const namespace = id.slice(0, id.lastIndexOf('.'));
    return this.documents.get(namespace)?.resultMaps.get(id);
  }

  private rebind(): void {
    const resolver: StatementResolver = {
      fragment: (id) => this.fragment(id),
      resultMap: (id) => this.resultMap(id),
    };
    const statements = new Map<string, MapperStatement>();
    for (const document of this.documents.values()) {
      for (const statement of document.statements) statements.set(statement.id, statement.withResolver(resolver));
    }
    this.statements = statements;
  }
}
