export type Source = { path: string; text: string };
export type FeatureGraph = Map<string, Map<string, string>>;
export function featureGraph(sources: Source[]): FeatureGraph;
export function featureCycles(graph: FeatureGraph): string[][];
export function readSources(src: string): Source[];
