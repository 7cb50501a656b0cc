import type { MikroORM } from "@mikro-orm/core";
import { type SqlEntityManager, SqlSchemaGenerator } from "@mikro-orm/sql";

/**
 * MikroORM's migrator looks the database of DATABASE_URL up in `pg_database` before migrating and,
 * when the name is not there, reconnects to the `postgres` database to create it. Behind PgBouncer
 * that name is PgBouncer's alias, which PostgreSQL does not know: the migrator then hung inside
 * Purse's migration transaction, reconnecting. Purse never creates databases (`migrate` refuses a
 * missing one first, see database.ts), so the answer here is "it exists, nothing created".
 */
export class ExistingDatabaseSchemaGenerator extends SqlSchemaGenerator {
  static override register(orm: MikroORM): void {
    orm.config.registerExtension(
      "@mikro-orm/schema-generator",
      () => new ExistingDatabaseSchemaGenerator(orm.em as SqlEntityManager),
    );
  }

  override async ensureDatabase(): Promise<boolean> {
    return false;
  }
}
