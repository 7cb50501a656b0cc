import pg from "pg";

/** Runs one statement on its own connection to `url` (a test reading or arranging rows directly). */
export async function queryDatabase<Row>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}
