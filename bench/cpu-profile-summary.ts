import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** `node_modules/pino/lib/x.js` → `pino`, `packages/engine/...` → `@purse/engine`, node internals → `node:`. */
function packageOf(url: string): string {
  if (!url) return "(native/gc/idle)";
  if (url.startsWith("node:")) return "node:internal";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url.replace(/.*node_modules\//, "node_modules/"));
  if (modules?.[1]) return modules[1];
  const own = /\/packages\/([^/]+)\//.exec(url);
  if (own?.[1]) return `@purse/${own[1]}`;
  return url.replace(/^file:\/\//, "");
}

function frameKey(frame: ProfileNode["callFrame"]): string {
  const place = frame.url
    ? `${frame.url.replace(/^.*node_modules\//, "").replace(/^.*\/packages\//, "packages/")}:${frame.lineNumber + 1}`
    : "";
  return `${frame.functionName || "(anonymous)"} ${place}`.trim();
}

export interface ProfileSummary {
  /** Heaviest functions by self time. */
  readonly self: string[];
  /** Heaviest functions by inclusive time (the function and everything it called). */
  readonly inclusive: string[];
  /** Self time summed per package. */
  readonly packages: string[];
}

/** Where a process spent its CPU, with each entry's share of all samples (idle included). */
export async function summariseProfileDetail(directory: string, top = 12): Promise<ProfileSummary> {
  const files = (await readdir(directory).catch(() => [])).filter((file) => file.endsWith(".cpuprofile"));
  const selfSamples = new Map<string, number>();
  const inclusiveSamples = new Map<string, number>();
  const packageSamples = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const add = (map: Map<string, number>, key: string, count: number) =>
    map.set(key, (map.get(key) ?? 0) + count);
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(directory, file), "utf8")) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const hits = new Map<number, number>();
    for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
    for (const [id, count] of hits) {
      const frame = byId.get(id)?.callFrame;
      if (!frame) continue;
      total += count;
      if (frame.functionName === "(idle)") idle += count;
      add(selfSamples, frameKey(frame), count);
      add(packageSamples, frame.functionName === "(idle)" ? "(idle)" : packageOf(frame.url), count);
      // Inclusive: every distinct function on the stack once.
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const node = byId.get(at);
        if (!node) break;
        const key = frameKey(node.callFrame);
        if (!seen.has(key)) {
          seen.add(key);
          add(inclusiveSamples, key, count);
        }
      }
    }
  }
  const busy = Math.max(total - idle, 1);
  const rank = (map: Map<string, number>, skip: (key: string) => boolean = () => false) =>
    [...map.entries()]
      .filter(([key]) => !skip(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, count]) => `${((100 * count) / busy).toFixed(1)}% ${key}`);
  const structural = (key: string) =>
    key.startsWith("(root)") || key.startsWith("(idle)") || key.startsWith("(program)");
  return {
    self: [
      `busy ${((100 * busy) / Math.max(total, 1)).toFixed(0)}% of samples; shares below are of busy samples`,
      ...rank(selfSamples, (key) => key.startsWith("(idle)")),
    ],
    inclusive: rank(inclusiveSamples, structural),
    packages: rank(packageSamples, (key) => key === "(idle)"),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = await summariseProfileDetail(
    process.argv[2] ?? "/tmp/purse-bench-profile",
    Number(process.argv[3] ?? 25),
  );
  console.log(`self:\n  ${summary.self.join("\n  ")}`);
  console.log(`inclusive:\n  ${summary.inclusive.join("\n  ")}`);
  console.log(`packages (self):\n  ${summary.packages.join("\n  ")}`);
}
