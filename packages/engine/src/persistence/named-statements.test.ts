import { type RawBuilder, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { compileNamed } from "./named-statements.ts";
import { compiler as kysely } from "./offline-compiler.ts";

let compiles = 0;
function compile(query: RawBuilder<unknown>) {
  compiles += 1;
  return query.compile(kysely);
}

const fixedPart = sql.raw("select 1 as one");

/** A statement shaped like the movement's: nested templates, a module-level raw part, an array. */
function statement(
  tag: string,
  userId: number,
  wallets: readonly string[],
  note: string | null,
  last: boolean,
) {
  const bounds = sql`set_config('lock_timeout', ${String(userId * 10)}, true)`;
  return sql`/* ${sql.raw(tag)} */ with bounds as (select ${bounds}), fixed as (${fixedPart})
    select ${userId}::bigint, ${[...wallets]}::text[], ${note}::text${last ? sql.raw(" -- last") : sql``}`;
}

/** Compiles `query` as the answered statement `name`, counting full compiles. */
function named(name: string, query: RawBuilder<unknown>) {
  return compileNamed(query, name, "answered", compile);
}

describe("compileNamed", () => {
  it("answers the declared text and the compiler's own parameters, compiling only the first call", () => {
    compiles = 0;
    const first = named("probe_shape", statement("shape", 1, ["A1"], null, false));
    const second = named("probe_shape", statement("shape", 7, ["B2", "C3"], "x", false));
    const full = statement("shape", 7, ["B2", "C3"], "x", false).compile(kysely);
    expect(compiles).toBe(1);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe(full.sql);
    expect(second.parameters).toEqual(full.parameters);
    expect(second.parameters).toEqual(["70", 7, ["B2", "C3"], "x"]);
  });

  it("compiles in full, and refuses, a second text under one name", () => {
    named("probe_second_text", statement("second", 1, [], null, false));
    compiles = 0;
    expect(() => named("probe_second_text", statement("second", 1, [], null, true))).toThrow(
      /second SQL text/,
    );
    expect(compiles).toBe(1);
  });

  it("compiles in full, and refuses, a second role under one name", () => {
    named("probe_second_role", statement("role", 1, [], null, false));
    compiles = 0;
    expect(() =>
      compileNamed(statement("role", 1, [], null, false), "probe_second_role", "commits", compile),
    ).toThrow(/declared answered, now commits/);
    expect(compiles).toBe(1);
  });

  it("takes the same text from a raw fragment built afresh on each call", () => {
    named("probe_raw_again", statement("again", 1, [], null, true));
    compiles = 0;
    const again = named("probe_raw_again", statement("again", 2, ["D4"], null, true));
    expect(compiles).toBe(0);
    expect(again.text).toBe(statement("again", 2, ["D4"], null, true).compile(kysely).sql);
  });
});
