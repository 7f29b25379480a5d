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
import { type MapperStatement, type StatementResolver } from './mapped-statement';
import { combinedProblems } from './mapper-load-error';
import { type ParsedMapperDocument } from './mapper-parser';
import { type MappedStatement } from './mapper-types';
import { type ResultMapSpec } from './result-map-parser';
import { type FragmentDefinition } from './sql-node-compiler';

/** Mapper documents by namespace, with statements linked across namespaces. */
export class MapperRegistry {
  private readonly documents = new Map<string, ParsedMapperDocument>();
  private statements = new Map<string, MapperStatement>();

  /** A registry holding `documents` (same rules as {@link MapperRegistry.add}). */
  constructor(documents: Iterable<ParsedMapperDocument> = []) {
    const refused = this.addAll(documents);
    if (refused.length > 0) throw refused[0].error;
  }

  /**
   * Adds a document.
   *
   * @throws ConfigError when its namespace is already present (naming both sources).
   */
  add(document: ParsedMapperDocument): void {
    const refused = this.addAll([document]);
    if (refused.length > 0) throw refused[0].error;
  }

  /**
   * Adds every document whose namespace is not loaded yet, linking statements afresh once (adding
   * hundreds of mappers one by one would re-bind every statement each time).
   *
   * @returns the documents refused because their namespace is already loaded, each with why.
   */
  addAll(documents: Iterable<ParsedMapperDocument>): { document: ParsedMapperDocument; error: ConfigError }[] {
    const refused: { document: ParsedMapperDocument; error: ConfigError }[] = [];
    for (const document of documents) {
      const existing = this.documents.get(document.namespace);
      if (existing) {
        const message = `${document.source}: mapper namespace '${document.namespace}' is already loaded from ${existing.source}; namespaces must be unique`;
        refused.push({ document, error: new ConfigError(message) });
      } else {
        this.documents.set(document.namespace, document);
      }
    }
    this.rebind();
    return refused;
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
   * Links every statement now and returns why each one that does not link fails, by statement
   * id (empty when everything links). The mapper check command reports these one by one.
   */
  linkProblems(): Map<string, ConfigError> {
    const problems = new Map<string, ConfigError>();
    for (const statement of this.statements.values()) {
      try {
        statement.link();
      } catch (error) {
        if (error instanceof ConfigError) problems.set(statement.id, error);
        else throw error;
      }
    }
    return problems;
  }

  /**
   * Links every statement now.
   *
   * @throws ConfigError listing every unresolved include or result map (one line each).
   */
  link(): void {
    const problem = combinedProblems([...this.linkProblems().values()], 'mapper references cannot be resolved');
    if (problem) throw problem;
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
