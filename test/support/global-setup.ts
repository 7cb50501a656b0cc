// Filled in with the migrated template database once persistence lands.
export default async function setup(): Promise<void> {}
