// No import cycles between features: src/features/<a> may import src/features/<b> only if <b> never
// reaches <a> back (static imports, dynamic import() and re-exports alike; tests included, since a test
// that needs another feature's page is a route-level composition too). Features compose at the route
// level (src/App.tsx, src/routes) instead. Run by `npm run lint`; scripts/check-feature-cycles.test.ts
// proves it fails on a cycle.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SOURCE = /\.(ts|tsx)$/;

/** Every .ts/.tsx file below `dir`. */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : SOURCE.test(name) ? [path] : [];
  });
}

/** The feature a path (relative to src) belongs to, or null for shared code. */
function featureOf(srcPath) {
  const parts = srcPath.split(sep);
  return parts[0] === "features" && parts.length > 2 ? parts[1] : null;
}

/** The src-relative target of an import specifier written in `fromFile`, or null for a package. */
function target(specifier, fromFile, src) {
  if (specifier.startsWith("@/")) return specifier.slice(2).split("/").join(sep);
  if (specifier.startsWith(".")) return relative(src, resolve(dirname(fromFile), specifier));
  return null;
}

/** Feature -> the features it imports, with one importing file each as evidence. */
export function featureGraph(sources) {
  const graph = new Map();
  for (const { path, text } of sources) {
    const from = featureOf(path);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map();
    graph.set(from, edges);
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const to = featureOf(target(ref.fileName, path, ".") ?? "");
      if (to && to !== from && !edges.has(to)) edges.set(to, path);
    }
  }
  return graph;
}

/** The cycles of the feature graph, each as [a, b, …, a], found by a depth-first walk. */
export function featureCycles(graph) {
  const cycles = [];
  const seen = new Set();
  const key = (cycle) => [...cycle.slice(0, -1)].sort().join(">");
  const walk = (node, path) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      const cycle = [...path.slice(at), node];
      if (!seen.has(key(cycle))) {
        seen.add(key(cycle));
        cycles.push(cycle);
      }
      return;
    }
    if (path.length > 12) return;
    for (const next of graph.get(node)?.keys() ?? []) walk(next, [...path, node]);
  };
  for (const node of [...graph.keys()].sort()) walk(node, []);
  return cycles;
}

/** The sources below `src`, paths relative to it. */
export function readSources(src) {
  return files(src).map((file) => ({ path: relative(src, file), text: readFileSync(file, "utf8") }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");
  const graph = featureGraph(readSources(src));
  const cycles = featureCycles(graph);
  for (const cycle of cycles) {
    const evidence = cycle.slice(0, -1).map((node, i) => graph.get(node).get(cycle[i + 1]));
    console.error(`feature import cycle: ${cycle.join(" -> ")}\n  (${evidence.join(", ")})`);
  }
  if (cycles.length) process.exit(1);
}
