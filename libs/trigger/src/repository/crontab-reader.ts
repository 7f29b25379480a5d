/** The reading half of the crontab store: pages, single crontabs, counts and the enabled set. */
import { sql } from 'kysely';
import type { TriggerDb } from '../schema/trigger-tables';
import { isUuid, validatePage, validateTenant } from '../model/trigger-validation';
import type { Crontab, Page, PageRequest } from '../model/trigger-model';
import { toCrontab } from './crontab-row';
import { emptyPage } from './execution-store';

/** The read methods of the crontab store. */
export interface CrontabReader {
  /** The tenant's crontabs, newest first. */
  list(tenant: string, page: PageRequest): Promise<Page<Crontab>>;
  /** One crontab of the tenant, or undefined. */
  get(id: string, tenant: string): Promise<Crontab | undefined>;
  /** Crontabs of every tenant whose payload starts `processDefName` (for the definition's delete). */
  countUsing(processDefName: string): Promise<number>;
  /** Every enabled crontab of every tenant (what a scheduler runs). */
  listEnabled(): Promise<Crontab[]>;
}

/** Makes the reader over the trigger tables. */
export function makeCrontabReader(db: TriggerDb): CrontabReader {
  return {
    async list(tenant, pageRequest) {
      const page = validatePage(pageRequest);
      validateTenant(tenant);
      const count = await db
        .selectFrom('fw_crontab')
        .where('tenant', '=', tenant)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const totalElements = Number(count.n);
      if (totalElements === 0) return emptyPage(page);
      const rows = await db
        .selectFrom('fw_crontab')
        .selectAll()
        .where('tenant', '=', tenant)
        .orderBy('seq', 'desc')
        .limit(page.size)
        .offset(page.page * page.size)
        .execute();
      return {
        content: rows.map(toCrontab),
        totalElements,
        page: page.page,
        size: page.size,
        totalPages: Math.ceil(totalElements / page.size),
      };
    },
    async countUsing(processDefName) {
      const row = await db
        .selectFrom('fw_crontab')
        .where(sql<boolean>`payload->>'processDefName' = ${processDefName}`)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async get(id, tenant) {
      if (!isUuid(id)) return undefined;
      const row = await db
        .selectFrom('fw_crontab')
        .selectAll()
        .where('id', '=', id)
        .where('tenant', '=', tenant)
        .executeTakeFirst();
      return row ? toCrontab(row) : undefined;
    },
    async listEnabled() {
      const rows = await db
        .selectFrom('fw_crontab')
        .selectAll()
        .where('enabled', '=', true)
        .orderBy('seq', 'asc')
        .execute();
      return rows.map(toCrontab);
    },
  };
}
