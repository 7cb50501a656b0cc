/**
 * The GraphQL door's HTTP mount on a fastify host, apart from the package's index: importing it
 * loads the door's bounds and GraphiQL's file list only; yoga, Pothos and the schema load when the
 * host asks (`load`, once it listens) or on the first request (mount-graphql.ts).
 */
export { type MountedGraphQL, mountGraphQL } from "./http/mount-graphql.ts";
