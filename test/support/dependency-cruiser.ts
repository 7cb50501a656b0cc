import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/**
 * dependency-cruiser with Purse's rules (`.dependency-cruiser.cjs`, `npm run cycles`), for tests
 * that show a rule refusing a probe import: on the repository, or on a probe tree of a few files.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const depcruise = join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const run = promisify(execFile);

export const repositoryRoot = root;

/** dependency-cruiser's text report and exit code for `paths` under `cwd`, with Purse's rules. */
export async function cruise(cwd: string, paths: string[]): Promise<{ code: number; report: string }> {
  const args = [
    depcruise,
    ...paths,
    "--config",
    join(root, ".dependency-cruiser.cjs"),
    "--output-type",
    "err",
  ];
  try {
    const { stdout } = await run(process.execPath, args, { cwd });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, report: failed.stdout ?? "" };
  }
}

/** A temporary tree laid out as the repository (its tsconfig.base.json), for probe files. */
export interface ProbeTree {
  readonly dir: string;
  write(path: string, text: string): Promise<void>;
  remove(): Promise<void>;
}

export async function probeTree(prefix: string): Promise<ProbeTree> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await copyFile(join(root, "tsconfig.base.json"), join(dir, "tsconfig.base.json"));
  return {
    dir,
    async write(path, text) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
