import { Migration } from "@mikro-orm/migrations";

/**
 * Test mode (contract: "Test mode"). Every migration runs twice: in the live schema, then in test
 * mode's (`purse_test`, persistence/test-schema.ts), whose connections find their own tables
 * first and the live schema's after. This one does nothing in the live schema. In test mode's it
 * drops the copies of what both modes share (users, currencies, rates, settings: one merchant, one
 * price list), so those names fall through to the live tables, and points test mode's foreign keys
 * at them; events and webhook endpoints recorded there say `livemode: false`; and each merchant's
 * test clock gets its table (test-mode/test-clock.ts).
 *
 * A later migration that alters a shared table must do so in the live schema only (`if
 * current_schema() <> 'purse_test'`): run in test mode's, the unqualified name reaches the live
 * table a second time. The migration test in test-mode/ runs every migration on an empty
 * database in both schemas and catches one that does not.
 */
/** Frozen with the migration: persistence/test-schema.ts names the same schema for the connections. */
const testSchema = "purse_test";

export class Migration0019TestMode extends Migration {
  override name = "0019-test-mode";

  override up(): void {
    this.addSql(`
do $$
declare
  key record;
begin
  if current_schema() <> '${testSchema}' then
    return;
  end if;
  for key in
    select constraint_row.conrelid::regclass::text as owner, constraint_row.conname as name,
           pg_get_constraintdef(constraint_row.oid) as definition
    from pg_constraint constraint_row
    join pg_class target on target.oid = constraint_row.confrelid
    where constraint_row.contype = 'f'
      and constraint_row.connamespace = '${testSchema}'::regnamespace
      and target.relnamespace = '${testSchema}'::regnamespace
      and target.relname in ('users', 'currencies', 'rates', 'settings')
  loop
    execute format('alter table %s drop constraint %I', key.owner, key.name);
    execute format('alter table %s add constraint %I %s', key.owner, key.name,
      replace(key.definition, 'REFERENCES ', 'REFERENCES public.'));
  end loop;
  drop table ${testSchema}.users, ${testSchema}.currencies, ${testSchema}.rates, ${testSchema}.settings;
  alter table events alter column livemode set default false;
  alter table webhook_endpoints alter column livemode set default false;
  create table test_clocks (
    user_id bigint primary key references public.users (id),
    advanced_ms bigint not null default 0 check (advanced_ms >= 0),
    updated_at timestamptz not null default now()
  );
end
$$`);
  }
}
