/**
 * The {@link MappedStatement} implementation. A statement keeps its compiled SQL tree, in which
 * includes of other namespaces are still pending, and links lazily: the first `render`, `mapRows`
 * or explicit `link()` expands pending includes and resolves its result map through the
 * statement's resolver (its own document, or the registry it was added to), then caches the result.
 */
import { ConfigError } from '@fw/core';
import { renderSql } from './dynamic-sql-renderer';
import { type BoundSql, type FrameworkSubstitution, type MappedStatement } from './mapper-types';
import { type ResolvedResultMap, type ResultMapLookup, mapResultRows, resolveResultMap } from './result-map';
import { type SqlNode, pendingIncludes, usesSubstitution } from './sql-node';
import { type FragmentLookup, expandIncludes } from './sql-node-compiler';
import { groupKeyColumns } from './result-map-grouping';
import type { StatementCache, StatementTuning } from './statement-tuning';

/** How a statement finds fragments and result maps of any namespace when it links. */
export interface StatementResolver {
  readonly fragment: FragmentLookup;
  readonly resultMap: ResultMapLookup;
}

/** What the parser hands to a statement. */
export interface StatementInit {
  readonly namespace: string;
  readonly statementId: string;
  readonly source: string;
  readonly resultType?: string;
  readonly resultMapId?: string;
  /** Compiled SQL; may contain `include` nodes of other namespaces. */
  readonly nodes: readonly SqlNode[];
  /** `timeout` and the mapper's `<cache>`. */
  readonly tuning?: StatementTuning;
}

interface Linked {
  readonly nodes: readonly SqlNode[];
  readonly resultMap?: ResolvedResultMap;
  /** Whether the linked SQL has `${orderby}` / `${pagination}`: asked on every execution, so walked once. */
  readonly uses: Readonly<Record<FrameworkSubstitution, boolean>>;
}

/** A parsed `<select>`; see the module comment for when it links. */
export class MapperStatement implements MappedStatement {
  readonly id: string;
  readonly namespace: string;
  readonly statementId: string;
  readonly resultType?: string;
  readonly resultMapId?: string;
  readonly source: string;
  private linked?: Linked;

  constructor(
    private readonly init: StatementInit,
    private readonly resolver: StatementResolver,
  ) {
    this.id = `${init.namespace}.${init.statementId}`;
    this.namespace = init.namespace;
    this.statementId = init.statementId;
    this.source = init.source;
    if (init.resultType !== undefined) this.resultType = init.resultType;
    if (init.resultMapId !== undefined) this.resultMapId = init.resultMapId;
  }

  /** The same statement, resolving references through `resolver` (links afresh). */
  withResolver(resolver: StatementResolver): MapperStatement {
    return new MapperStatement(this.init, resolver);
  }

  get timeoutSeconds(): number | undefined {
    return this.init.tuning?.timeoutSeconds;
  }

  get cache(): StatementCache | undefined {
    return this.init.tuning?.cache;
  }

  groupKeyColumns(): readonly string[] | undefined {
    return groupKeyColumns(this.link().resultMap);
  }

  /** Qualified ids of fragments of other namespaces this statement includes directly. */
  get pendingFragmentIds(): string[] {
    return pendingIncludes(this.init.nodes).map((node) => node.refid);
  }

  get usesOrderBy(): boolean {
    return this.uses('orderby');
  }

  get usesPagination(): boolean {
    return this.uses('pagination');
  }

  private uses(name: FrameworkSubstitution): boolean {
    const cached = this.linked?.uses[name];
    if (cached !== undefined) return cached;
    let nodes = this.init.nodes;
    try {
      nodes = this.link().nodes;
    } catch {
      // Unresolved references: answer from what is known; render() reports the problem.
    }
    return usesSubstitution(nodes, name);
  }

  /**
   * Expands includes of other namespaces and resolves the result map (once; cached).
   *
   * @throws ConfigError naming the source and statement when a reference cannot be resolved.
   */
  link(): Linked {
    if (this.linked) return this.linked;
    const nodes =
      pendingIncludes(this.init.nodes).length > 0
        ? expandIncludes(this.init.nodes, this.resolver.fragment, this.namespace)
        : this.init.nodes;
    let resultMap: ResolvedResultMap | undefined;
    if (this.init.resultMapId !== undefined) {
      const where = `${this.source}: select '${this.statementId}'`;
      const spec = this.resolver.resultMap(this.init.resultMapId);
      if (!spec) {
        throw new ConfigError(
          `${where} uses unknown resultMap '${this.init.resultMapId}'; define <resultMap id="..."> or fix the resultMap attribute`,
        );
      }
      resultMap = resolveResultMap(spec, this.resolver.resultMap, where);
    }
    const uses = { orderby: usesSubstitution(nodes, 'orderby'), pagination: usesSubstitution(nodes, 'pagination') };
    this.linked = resultMap ? { nodes, resultMap, uses } : { nodes, uses };
    return this.linked;
  }

  render(parameters: Readonly<Record<string, unknown>>): BoundSql {
    return renderSql(this.link().nodes, parameters);
  }

  mapRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
    const { resultMap } = this.link();
    return resultMap ? mapResultRows(resultMap, rows) : rows;
  }
}
