/**
 * The GraphQL door's HTTP mount on a fastify host, apart from the package's index: importing it
 * loads the door's bounds and GraphiQL's file list only; yoga, Pothos and the schema load on the
 * first request (mount-graphql.ts).
 */
export { mountGraphQL } from "./http/mount-graphql.ts";
