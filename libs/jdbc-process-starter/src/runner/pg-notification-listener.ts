/**
 * A {@link WakeSource} that LISTENs on the starter's NOTIFY channel over its own `pg` connection
 * (PostgreSQL only). Lost connections are re-opened after `reconnectMillis`; meanwhile polling
 * carries on, so a missed notification only costs latency.
 *
 * LISTEN needs a session of its own: behind a transaction pooler (`pooler: 'transaction'`) the
 * listener does not connect and the runner relies on polling alone (it logs so once). Give it a
 * direct URL to the server (or one through a session pooler) to keep the wake-ups there.
 *
 * @example
 * const starter = makeWorkItemStarter({ notify: true });
 * const runner = makeWorkItemRunner({ database, handler, wakeSource: makePgNotificationListener({ url }) });
 */
import { createLogger, type DatabasePooler, type Logger } from '@fw/core';
import pg from 'pg';
import { WORK_ITEM_CHANNEL } from '../starter/work-item-starter';
import type { WakeSource } from './work-item-runner';

export interface PgNotificationListenerOptions {
  /** `postgres://` URL of the queue's database. */
  url: string;
  channel?: string;
  /** Default 1000 ms. */
  reconnectMillis?: number;
  /** What sits between this process and `url` (default `none`); `transaction`: no LISTEN, polling only. */
  pooler?: DatabasePooler;
  logger?: Logger;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Makes the listener; it connects on `subscribe`. */
export function makePgNotificationListener(options: PgNotificationListenerOptions): WakeSource {
  const channel = options.channel ?? WORK_ITEM_CHANNEL;
  const reconnectMillis = options.reconnectMillis ?? 1000;
  if (options.pooler === 'transaction') {
    const logger = options.logger ?? createLogger({ name: 'pg-notification-listener' });
    return {
      async subscribe() {
        logger.info(
          { channel },
          "no LISTEN behind a transaction pooler (pooler: 'transaction'): wake-ups come from polling; give the listener a direct or session-pooled URL to have them",
        );
        return async () => undefined;
      },
    };
  }
  return {
    async subscribe(onWake) {
      let closed = false;
      let client: pg.Client | undefined;
      let timer: NodeJS.Timeout | undefined;
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: options.url });
        next.on('notification', (message) => {
          if (message.channel === channel) onWake();
        });
        next.on('error', () => {
          void next.end().catch(() => undefined);
          if (client === next) client = undefined;
          if (!closed) timer = setTimeout(() => void connect().catch(() => undefined), reconnectMillis);
        });
        await next.connect();
        await next.query(`listen ${quoteIdent(channel)}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        onWake(); // items may have arrived while no one listened
      };
      await connect();
      return async () => {
        closed = true;
        clearTimeout(timer);
        await client?.end().catch(() => undefined);
        client = undefined;
      };
    },
  };
}
