/**
 * What the router's server-side context names from the engine, as a front end sees it: nothing.
 * The client package's declarations are bundled with `@purse/engine` resolved to this file, so the
 * router's context (database, ports, the caller) never drags server code into a front end's types.
 * A client never builds or reads that context; it only calls procedures.
 */
export type EngineDependencies = { readonly serverOnly: never };
export type Actor = { readonly serverOnly: never };
