/**
 * Kysely's PostgreSQL dialect with two changes for {@link Database}: every transaction begins
 * with the handle's timeouts (`SET LOCAL`, sent with the `begin` in one round trip, so it costs
 * no extra trip to the server), and destroying the Kysely instance leaves the `pg` pool open,
 * because several handles share it and `Database.close` ends it.
 */
import {
  CompiledQuery,
  PostgresDialect,
  PostgresDriver,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type TransactionSettings,
} from 'kysely';

class SessionTimeoutsDriver extends PostgresDriver {
  constructor(
    config: PostgresDialectConfig,
    private readonly localSettingsSql: string,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let begin = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      begin = 'start transaction';
      if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) begin += ` ${settings.accessMode}`;
    }
    // Without parameters `pg` sends this as one simple-protocol message, so both statements
    // travel together.
    await connection.executeQuery(
      CompiledQuery.raw(this.localSettingsSql ? `${begin}; ${this.localSettingsSql}` : begin),
    );
  }

  override async destroy(): Promise<void> {
    // The pool belongs to the Database handle, which ends it on close.
  }
}

/** A {@link PostgresDialect} whose transactions begin with `localSettingsSql` (`set local …; …`, or `''`). */
export class SessionTimeoutsDialect extends PostgresDialect {
  constructor(
    private readonly dialectConfig: PostgresDialectConfig,
    private readonly localSettingsSql: string,
  ) {
    super(dialectConfig);
  }

  override createDriver(): Driver {
    return new SessionTimeoutsDriver(this.dialectConfig, this.localSettingsSql);
  }
}
