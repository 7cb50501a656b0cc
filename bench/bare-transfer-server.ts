/**
 * The bare reference: a transfer server of a few dozen lines (node:http + pg + raw SQL, one
 * transaction per request, no auth, no Redis, no validation beyond funds). Purse's benchmark runs it
 * on the same PostgreSQL as Purse, so the ratio between the two is what Purse's safety costs.
 * Run alone: `tsx bench/bare-transfer-server.ts <database-url> <port>`.
 */
import { createServer } from "node:http";
import pg from "pg";

export const bareSchema = `
  create table accounts (id int primary key, balance bigint not null check (balance >= 0));
  create table transfers (id bigserial primary key, from_id int not null, to_id int not null,
    amount bigint not null, created_at timestamptz not null default now());
  create table entries (id bigserial primary key, transfer_id bigint not null, account_id int not null,
    amount bigint not null);
`;

export function startBareServer(databaseUrl: string, port: number, poolSize = 32) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk;
    });
    request.on("end", async () => {
      const { from, to, amount } = JSON.parse(text) as { from: number; to: number; amount: number };
      const client = await pool.connect();
      try {
        await client.query("begin");
        const locked = await client.query<{ id: number; balance: string }>(
          "select id, balance from accounts where id = any($1) order by id for update",
          [[from, to]],
        );
        const sender = locked.rows.find((row) => row.id === from);
        if (!sender || BigInt(sender.balance) < BigInt(amount)) throw new Error("insufficient funds");
        await client.query(
          "update accounts set balance = balance + case when id = $1 then -$3::bigint else $3::bigint end where id in ($1, $2)",
          [from, to, amount],
        );
        const transfer = await client.query<{ id: string }>(
          "insert into transfers (from_id, to_id, amount) values ($1, $2, $3) returning id",
          [from, to, amount],
        );
        const id = transfer.rows[0]?.id;
        await client.query(
          "insert into entries (transfer_id, account_id, amount) values ($1, $2, -$4::bigint), ($1, $3, $4::bigint)",
          [id, from, to, amount],
        );
        await client.query("commit");
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ id: Number(id) }));
      } catch (error) {
        await client.query("rollback");
        response
          .writeHead(422, { "content-type": "application/json" })
          .end(JSON.stringify({ error: String(error) }));
      } finally {
        client.release();
      }
    });
  });
  return new Promise<{ close(): Promise<void> }>((resolve) => {
    server.listen(port, "127.0.0.1", () =>
      resolve({
        async close() {
          await new Promise((done) => server.close(done));
          await pool.end();
        },
      }),
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [databaseUrl, port, poolSize] = process.argv.slice(2);
  if (!databaseUrl || !port)
    throw new Error("usage: bare-transfer-server.ts <database-url> <port> [pool-size]");
  await startBareServer(databaseUrl, Number(port), poolSize ? Number(poolSize) : undefined);
  process.send?.("ready");
}
