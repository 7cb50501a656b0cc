/**
 * `value` as one of `choices`, matched without regard to case (`--status pending` is `PENDING`);
 * anything else is an error naming the option and what it takes.
 */
export function oneOf<Choice extends string>(
  value: string,
  choices: readonly Choice[],
  option: string,
): Choice {
  const found = choices.find((choice) => choice.toLowerCase() === value.trim().toLowerCase());
  if (found === undefined) {
    const listed = `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`;
    throw new Error(`${option} takes ${listed} (got ${JSON.stringify(value)})`);
  }
  return found;
}
