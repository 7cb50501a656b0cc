// A module resolve hook: resolve workspace packages to their TypeScript sources ("source" export condition).
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: ["source", ...context.conditions] });
}
