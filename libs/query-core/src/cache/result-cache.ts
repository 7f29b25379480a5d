import { createHash } from 'node:crypto';

/** One cached answer: the payload's JSON text and its entity tag. */
export interface CachedAnswer {
  readonly json: string;
  readonly etag: string;
  readonly expiresAt: number;
}

interface Entry extends CachedAnswer {
  readonly scope: string;
  readonly key: string;
  readonly bytes: number;
}

/** The strong entity tag of a payload's JSON text. */
export function entityTag(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/**
 * A TTL cache of answers with least-recently-used eviction: at most `size` entries per scope (a
 * tenant's query) and `maxBytes` of JSON text in all. Expired entries are dropped when met.
 *
 * @example
 * const cache = new ResultCache(64 * 1024 * 1024);
 * cache.set('t1/books', key, json, 30_000, 1024);
 * cache.get('t1/books', key)?.etag;
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly scopes = new Map<string, Map<string, Entry>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(scope: string, key: string): CachedAnswer | undefined {
    const id = `${scope}\u0000${key}`;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(id, entry);
      return undefined;
    }
    // Most recently used last, in both orders.
    this.entries.delete(id);
    this.entries.set(id, entry);
    const inScope = this.scopes.get(scope);
    inScope?.delete(key);
    inScope?.set(key, entry);
    return entry;
  }

  set(scope: string, key: string, json: string, ttlMillis: number, size: number): CachedAnswer {
    const id = `${scope}\u0000${key}`;
    const existing = this.entries.get(id);
    if (existing) this.remove(id, existing);
    const entry: Entry = {
      scope,
      key,
      json,
      etag: entityTag(json),
      expiresAt: this.now() + ttlMillis,
      bytes: json.length * 2,
    };
    if (entry.bytes > this.maxBytes) return entry;
    let inScope = this.scopes.get(scope);
    if (!inScope) this.scopes.set(scope, (inScope = new Map()));
    while (inScope.size >= size) {
      const oldest = inScope.values().next().value as Entry;
      this.remove(`${scope}\u0000${oldest.key}`, oldest);
    }
    while (this.bytes + entry.bytes > this.maxBytes) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldestId, oldest);
    }
    this.entries.set(id, entry);
    inScope.set(key, entry);
    this.bytes += entry.bytes;
    return entry;
  }

  /** Entries held now (expired ones not yet met included). */
  get size(): number {
    return this.entries.size;
  }

  private remove(id: string, entry: Entry): void {
    if (this.entries.get(id) !== entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
    const inScope = this.scopes.get(entry.scope);
    inScope?.delete(entry.key);
    if (inScope?.size === 0) this.scopes.delete(entry.scope);
  }
}

/** JSON with object keys sorted, so two requests that differ only in key order share an entry. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((k) => record[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
