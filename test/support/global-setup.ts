import type { TestProject } from "vitest/node";
import { createTemplateDatabase, dropDatabase } from "../../packages/engine/src/testing/index.ts";

/** Migrates one template database per run; every test file copies it (see createTestDatabase). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createTemplateDatabase();
  project.provide("templateDatabase", template);
  return () => dropDatabase(template);
}
