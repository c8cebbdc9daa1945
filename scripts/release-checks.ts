/*
 * What `npm run release` (scripts/release.ts) checks before and after it packs, as functions of what it
 * read: the versions that must agree, and what a packed tarball must and must not hold. Each returns the
 * problems it found, in words a person releasing can act on; none means the check passed.
 */

/** A package.json as far as a release reads it. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly main?: string;
  readonly types?: string;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly exports?: unknown;
  readonly scripts?: Readonly<Record<string, string>>;
}

/** The newest release of a Keep a Changelog text: its first `## [X.Y.Z] - YYYY-MM-DD` heading. */
export function newestRelease(changelog: string): { readonly version: string; readonly date: string } | undefined {
  const heading = /^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\] - (\d{4}-\d{2}-\d{2})$/m.exec(changelog);
  return heading === null ? undefined : { version: heading[1]!, date: heading[2]! };
}

/** Each place that states a version and does not state `expected`. */
export function versionMismatches(expected: string, stated: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(stated)
    .filter(([, version]) => version !== expected)
    .map(([where, version]) => `${where} says ${version === undefined ? 'no version' : version}, not ${expected}`);
}

/** The files an `exports` map points at, every condition of every subpath. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

/** A path as `npm pack` lists it: relative to the package, without `./`. */
const packed = (file: string) => file.replace(/^\.\//, '');

/**
 * The files an installed package reaches by its manifest alone: package.json, `main`, `types`, each bin,
 * each export, and each script file that `npm start` runs there (`node FILE`).
 */
export function filesTheManifestNames(manifest: Manifest): string[] {
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  const startScripts = ['prestart', 'start'].flatMap((name) => [...(manifest.scripts?.[name] ?? '').matchAll(/\bnode (\S+)/g)].map((match) => match[1]!));
  const named = ['package.json', manifest.main, manifest.types, ...bins, ...exportTargets(manifest.exports), ...startScripts];
  return [...new Set(named.filter((file): file is string => file !== undefined).map(packed))];
}

/** What no tarball ships: tests, benchmarks, CI, TypeScript sources, source maps, build state, installed packages. */
const NOT_SHIPPED: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /^(test|bench|\.ci)\//, what: 'a file of the tests, the benchmarks or CI' },
  { pattern: /(^|\/)node_modules\//, what: 'a file of an installed package' },
  { pattern: /\.test\.[cm]?[jt]s$/, what: 'a test' },
  // Declarations (.d.ts) are shipped: they type the exports.
  { pattern: /^(src\/.*|[^/]+)(?<!\.d)\.[cm]?ts$/, what: 'a TypeScript source' },
  { pattern: /\.map$/, what: 'a source map, whose source is not shipped' },
  { pattern: /\.tsbuildinfo$/, what: "the compiler's build state" },
];

/**
 * The problems of a tarball's file list: a file its manifest names, or one of `needed` (with why), that it
 * lacks; a file it holds and should not.
 */
export function tarballProblems(tarball: string, manifest: Manifest, needed: Readonly<Record<string, string>>, files: readonly string[]): string[] {
  const holds = new Set(files);
  const missing = [
    ...filesTheManifestNames(manifest).map((file) => [file, 'which its package.json names'] as const),
    ...Object.entries(needed),
  ]
    .filter(([file]) => !holds.has(file))
    .map(([file, why]) => `${tarball} lacks ${file}, ${why}`);
  const extra = files.flatMap((file) => {
    const rule = NOT_SHIPPED.find(({ pattern }) => pattern.test(file));
    return rule === undefined ? [] : [`${tarball} holds ${file} (${rule.what}), which a release does not ship`];
  });
  return [...missing, ...extra];
}
