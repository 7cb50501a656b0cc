import { Migration } from "@mikro-orm/migrations";

/**
 * When each currency's exchange rate was last set (`GET /api/currencies` shows it as
 * `timeUpdatedRate`). A new currency gets its creation time; a trigger moves it whenever the rate
 * changes, whoever changes it. Currencies that exist before this migration get the time of the
 * upgrade: the earliest moment Purse can vouch for their current rate.
 */
export class Migration0003CurrencyRateTime extends Migration {
  override name = "0003-currency-rate-time";

  override up(): void {
    // One statement per call (PGlite prepares each); the function body keeps its own semicolons.
    this.addSql("alter table currencies add column rate_updated_at timestamptz not null default now()");
    this.addSql(`create function currencies_touch_rate_updated_at() returns trigger language plpgsql as $$
      begin
        if new.rate is distinct from old.rate then
          new.rate_updated_at := now();
        end if;
        return new;
      end
    $$`);
    this.addSql(`create trigger currencies_rate_updated_at before update of rate on currencies
      for each row execute function currencies_touch_rate_updated_at()`);
  }
}
