import type { CompiledQuery, OperationNode, RawBuilder } from "kysely";

/**
 * How a named statement travels (prepared-pg-client.ts):
 * - "answered": on its own, its rows awaited (every named statement unless said otherwise);
 * - "sent-with-next": its rows are not needed, so it is held and leaves in the same write as the
 *   transaction's next statement (a transaction's bounds);
 * - "commits": the transaction's COMMIT leaves in the same write, right behind it. Only for the
 *   last statement of a transaction whose caller commits next, whatever it does in between.
 */
export type StatementRole = "answered" | "sent-with-next" | "commits";

/** SQL text → statement name and role, for the connection class (prepared-pg-client.ts) to look up. */
const statementsByText = new Map<string, NamedStatement>();
const statementTexts = new Map<string, string>();

export interface NamedStatement {
  readonly name: string;
  readonly role: StatementRole;
}

/**
 * Declares `text` as the one SQL text of the prepared statement `name`. Kysely and MikroORM send
 * every statement unnamed (parsed and planned on each call), and pass the driver only the text and
 * the values, so the name travels by this map: the PostgreSQL connection class sends a known text
 * under its name. A name is bound to one text (and one role) for the life of the process: a query
 * whose text varies (a list spliced in, an optional clause) must not be named, and throws here.
 * Answers the declared text.
 */
export function nameStatement(name: string, text: string, role: StatementRole = "answered"): string {
  // By name first: a hot statement's text (kilobytes, built afresh by each compile) is compared,
  // not hashed, and the declared copy (hash already computed) is what travels on.
  const known = statementTexts.get(name);
  if (known !== undefined) {
    if (known !== text) throw new Error(`the prepared statement ${name} was given a second SQL text`);
    const declaredRole = statementsByText.get(known)?.role;
    if (declaredRole !== role)
      throw new Error(`the prepared statement ${name} was declared ${declaredRole}, now ${role}`);
    return known;
  }
  const declared = statementsByText.get(text);
  if (declared !== undefined)
    throw new Error(`the SQL text of ${declared.name} was declared again as ${name} (${role})`);
  statementTexts.set(name, text);
  statementsByText.set(text, { name, role });
  return text;
}

/** The name and role `text` was declared under, if any. */
export function namedStatement(text: string): NamedStatement | undefined {
  return statementsByText.get(text);
}

/** Per statement name, the template fragments its text was compiled from (see `compileNamed`). */
const shapes = new Map<
  string,
  { readonly fragments: readonly (readonly string[])[]; readonly text: string; readonly role: StatementRole }
>();

/**
 * Compiles a named statement's query: its declared text and this call's parameters. A hot
 * statement is rebuilt on every call from the same templates, so after its first compile (which
 * declares the text) only the parameters are collected from the query's tree, as the compiler
 * would number them; the text, kilobytes built afresh and compared each time, is not. The tree's
 * fragments and role are checked against those of the first compile (the same template literals
 * are the same arrays), so a statement whose text or role could differ is compiled and checked in
 * full. The parameters are a fresh array, the caller's to hand to the driver.
 */
export function compileNamed(
  query: RawBuilder<unknown>,
  name: string,
  role: StatementRole,
  compile: (query: RawBuilder<unknown>) => CompiledQuery,
): { readonly text: string; readonly parameters: unknown[] } {
  const fragments: (readonly string[])[] = [];
  const parameters: unknown[] = [];
  const flat = flatten(query.toOperationNode(), fragments, parameters);
  const known = shapes.get(name);
  // Another role, or other fragments, go the full way: nameStatement refuses what does not match.
  if (flat && known?.role === role && sameFragments(known.fragments, fragments))
    return { text: known.text, parameters };
  const compiled = compile(query);
  const text = nameStatement(name, compiled.sql, role);
  if (flat) shapes.set(name, { fragments, text, role });
  return { text, parameters: [...compiled.parameters] };
}

/** A raw tree's fragments and bound values in compile order; false if it holds anything else. */
function flatten(node: OperationNode, fragments: (readonly string[])[], parameters: unknown[]): boolean {
  if (node.kind === "ValueNode") {
    const value = node as unknown as { value: unknown; immediate?: boolean };
    if (value.immediate) return false;
    parameters.push(value.value);
    return true;
  }
  if (node.kind !== "RawNode") return false;
  const raw = node as unknown as { sqlFragments: readonly string[]; parameters: readonly OperationNode[] };
  fragments.push(raw.sqlFragments);
  for (const child of raw.parameters) if (!flatten(child, fragments, parameters)) return false;
  return true;
}

function sameFragments(
  known: readonly (readonly string[])[],
  found: readonly (readonly string[])[],
): boolean {
  if (known.length !== found.length) return false;
  for (let index = 0; index < known.length; index += 1) {
    const a = known[index] as readonly string[];
    const b = found[index] as readonly string[];
    // The same template literal is the same array; a `sql.raw` text is a new one-element array.
    if (a !== b && (a.length !== b.length || a.some((fragment, at) => fragment !== b[at]))) return false;
  }
  return true;
}
