import { p } from "@mikro-orm/core";

/** When a row was made: the database's clock for SQL inserts, the process's through the ORM. */
export const createdAtColumn = () =>
  p
    .datetime()
    .defaultRaw("now()")
    .onCreate(() => new Date());

/** A row's making and last change, both kept by the ORM (`updatedAt` on every update). */
export const timestampColumns = () => ({
  createdAt: createdAtColumn(),
  updatedAt: createdAtColumn().onUpdate(() => new Date()),
});
