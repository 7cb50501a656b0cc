import { createTemplateDatabase, dropDatabase } from "@purse/testing";
import type { TestProject } from "vitest/node";

/** Migrates one template database per run; every test file copies it (see createTestDatabase). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createTemplateDatabase();
  project.provide("templateDatabase", template);
  return () => dropDatabase(template);
}
