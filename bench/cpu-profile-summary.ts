import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** Where a process spent its CPU: the heaviest functions by self time, with their share of all samples. */
export async function summariseProfiles(directory: string, top = 12): Promise<string[]> {
  const files = (await readdir(directory).catch(() => [])).filter((file) => file.endsWith(".cpuprofile"));
  const selfSamples = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(directory, file), "utf8")) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const sample of profile.samples) {
      const frame = byId.get(sample)?.callFrame;
      if (!frame) continue;
      total += 1;
      const place = frame.url
        ? frame.url.replace(/^.*node_modules\//, "").replace(/^.*\/packages\//, "packages/")
        : "";
      const key = `${frame.functionName || "(anonymous)"} ${place}`.trim();
      selfSamples.set(key, (selfSamples.get(key) ?? 0) + 1);
    }
  }
  return [...selfSamples.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, count]) => `${((100 * count) / Math.max(total, 1)).toFixed(1)}% ${key}`);
}
