import { createUser, listUsers, setUserBlocked } from "@purse/engine";
import type { Command } from "commander";
import { deprecatedOption } from "../deprecated-option.ts";
import { type ListOptions, listFilter, printPage, withListOptions } from "../list-options.ts";
import { nameArguments } from "../name-arguments.ts";
import { oneOf } from "../one-of.ts";
import { printResult } from "../print-result.ts";
import { readNewPassword } from "../read-password.ts";
import { withDatabase } from "../with-database.ts";

const roles = ["merchant", "partner"] as const;

/** `purse users create | list | block | unblock`. */
export function registerUsers(program: Command): void {
  const users = program.command("users").description("create and list users, block and unblock them");
  users
    .command("create")
    .requiredOption("--login <login>", "the sign-in name, unique")
    .requiredOption("--name <name>", "the display name")
    .option("--role <role>", "merchant or partner", "merchant")
    .option(
      "--password-stdin",
      "read the sign-in password from standard input (without it, a terminal asks for it twice, unechoed)",
    )
    .addOption(deprecatedOption("--password <password>", "--password-stdin"))
    .description(
      "create a user who can sign in on the payment page and own wallets (the password is stored as a hash)",
    )
    .action(
      async (o: {
        login: string;
        name: string;
        role: string;
        passwordStdin?: boolean;
        password?: string;
      }) => {
        const role = oneOf(o.role, roles, "--role");
        // Asked before the database opens: nothing waits on a person typing.
        const password = await readNewPassword(o);
        await withDatabase(async (db) => {
          const id = await createUser(db, { login: o.login, password, name: o.name, role });
          printResult({ id, login: o.login, role }, `Created ${role} ${o.login} (user ${id}).`);
        });
      },
    );
  withListOptions(users.command("list"), "login")
    .option("--role <role>", "only merchants or only partners")
    .description("users by login, with their role, whether blocked, and how many wallets they have")
    .action((o: ListOptions & { role?: string }) =>
      withDatabase(async (db) => {
        const filter = listFilter(o);
        const role = o.role === undefined ? undefined : oneOf(o.role, roles, "--role");
        const page = await listUsers(db, { ...filter, ...(role ? { role } : {}) });
        printPage(
          page,
          (u) =>
            `${u.login}\t${u.role}\t${u.blocked ? "blocked" : "active"}\t${u.wallets} wallet(s)\t${u.name}\tcreated ${u.createdAt}`,
          (u) => u.login,
          "No users.",
        );
      }),
    );
  for (const [verb, blocked] of [
    ["block", true],
    ["unblock", false],
  ] as const) {
    users
      .command(verb)
      .argument("<login>", "the user's login")
      .description(`${verb} a user (blocked users cannot pay or be paid)`)
      .action((login: string) =>
        withDatabase(async (db) => {
          await setUserBlocked(db, login, blocked).catch(
            nameArguments({ name: "<login>", value: login, field: "login", names: "user" }),
          );
          printResult({ login, blocked }, `${login} is ${blocked ? "blocked" : "unblocked"}.`);
        }),
      );
  }
}
