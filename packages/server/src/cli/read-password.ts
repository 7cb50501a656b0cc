import { stderr, stdin } from "node:process";
import { warnDeprecated } from "./deprecated-option.ts";

/** Longer than any password a person types or a manager generates; stdin is not read past it. */
const maxPasswordBytes = 1_024;

/**
 * A new user's password, never from the command line (where the shell history and `ps` keep it):
 * with `--password-stdin` from standard input, as `docker login` takes one; otherwise asked twice
 * in the terminal, without echo. Without a terminal and without the flag it refuses rather than
 * read whatever standard input a script happens to pass on. `--password` still works, with a
 * warning (docs/versioning.md).
 */
export async function readNewPassword(options: {
  passwordStdin?: boolean;
  password?: string;
}): Promise<string> {
  if (options.password !== undefined && options.passwordStdin)
    throw new Error("give --password-stdin or --password, not both");
  if (options.password !== undefined) {
    warnDeprecated("--password", "--password-stdin, or leave it out to be asked");
    return checked(options.password, "--password");
  }
  if (stdin.isTTY) {
    const first = await ask("Password: ");
    if ((await ask("Password again: ")) !== first)
      throw new Error("the two passwords differ; nothing was created");
    return checked(first, "the password");
  }
  if (!options.passwordStdin) {
    throw new Error(
      "no password: pipe it in with --password-stdin (e.g. printf '%s' \"$PASSWORD\" | purse users create ... --password-stdin), or run this in a terminal to be asked",
    );
  }
  return checked(await readStdin(), "--password-stdin");
}

function checked(password: string, source: string): string {
  if (password === "") throw new Error(`${source}: the password is empty`);
  if (Buffer.byteLength(password) > maxPasswordBytes)
    throw new Error(`${source}: the password is longer than ${maxPasswordBytes} bytes`);
  return password;
}

/** Standard input up to its end, without the one line break `echo` adds. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    bytes += buffer.length;
    // Room for the line break; past that, stop reading rather than hold whatever is piped in.
    if (bytes > maxPasswordBytes + 2) {
      stdin.destroy();
      throw new Error(`--password-stdin: the password is longer than ${maxPasswordBytes} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/**
 * One line typed in the terminal, not echoed: raw mode hands over each key, and only the prompt
 * and a line break are written (to stderr, so `--json` output on stdout stays one document).
 */
function ask(prompt: string): Promise<string> {
  // Raw mode before the prompt: what is typed as soon as it shows must not be echoed.
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = "";
    const finish = (error?: Error) => {
      stdin.off("data", onKeys);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onKeys = (keys: string) => {
      for (const key of keys) {
        if (key === "\r" || key === "\n") return finish();
        // Raw mode turns Ctrl-C and Ctrl-D into plain keys: both give up here.
        if (key === "\u0003" || (key === "\u0004" && typed === ""))
          return finish(new Error("cancelled; nothing was created"));
        if (key === "\u007f" || key === "\b") typed = Array.from(typed).slice(0, -1).join("");
        else if (key === "\u0015") typed = "";
        else if (key >= " ") typed += key;
        if (Buffer.byteLength(typed) > maxPasswordBytes)
          return finish(new Error(`the password is longer than ${maxPasswordBytes} bytes`));
      }
      return undefined;
    };
    stdin.on("data", onKeys);
  });
}
