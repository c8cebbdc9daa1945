import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newestRelease, tarballProblems, versionMismatches, type Manifest } from './release-checks';

// npm run release: what a release ships, built from the commit checked out. It checks first (a clean work
// tree, one version in package.json, its lock, the client's package and CHANGELOG.md's newest release),
// builds dist/ afresh, packs the server and the client as `npm pack` tarballs into release/ and checks what
// each holds, builds the container image where there is a Dockerfile and podman or docker (CONTAINER_ENGINE
// names another, or `none`), and prints each file's size and SHA-256, which release/SHA256SUMS keeps. A
// failed check or step ends it with exit code 1 and one message. docs/versioning.md says what a version
// promises and how a release is made.

const ROOT = path.resolve(__dirname, '..');
const CLIENT = path.join(ROOT, 'src/client');
const OUTPUT = path.join(ROOT, 'release');
const IMAGE_NAME = 'ivr-reporting';

/** A check that failed, or a step: its message is all the person releasing needs. */
class Refusal extends Error {}

function run(command: string, args: readonly string[], { capture = false } = {}): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  if (result.error !== undefined) throw new Refusal(`\`${command}\` could not be run: ${result.error.message}`);
  if (result.status !== 0) throw new Refusal(`\`${[command, ...args].join(' ')}\` failed (${result.status === null ? `killed by ${result.signal}` : `exit code ${result.status}`})`);
  return result.stdout ?? '';
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T;

interface Lock {
  readonly version?: string;
  readonly packages?: Readonly<Record<string, { readonly version?: string }>>;
}

/** The commit a release is built from, once the work tree is known to hold nothing else. */
function commitToRelease(): string {
  if (spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) {
    throw new Refusal('this folder is no git work tree: a release is built from a commit, in a clone of the repository');
  }
  const changes = run('git', ['status', '--porcelain'], { capture: true }).split('\n').filter((line) => line !== '');
  if (changes.length > 0) {
    const shown = changes.slice(0, 10).map((line) => `  ${line}`);
    if (changes.length > shown.length) shown.push(`  and ${changes.length - shown.length} more`);
    throw new Refusal(`the work tree is not clean: a release is built from a commit alone, so commit or stash these first:\n${shown.join('\n')}`);
  }
  return run('git', ['rev-parse', 'HEAD'], { capture: true }).trim();
}

/** The release's version, package.json's, once every other place that states it agrees. */
function versionToRelease(): string {
  const { version } = readJson<Manifest>('package.json');
  const lock = readJson<Lock>('package-lock.json');
  const clientLock = readJson<Lock>('src/client/package-lock.json');
  const newest = newestRelease(readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'));
  if (newest === undefined) {
    throw new Refusal(`CHANGELOG.md has no release heading: move the entries of ${version} from "## [Unreleased]" under "## [${version}] - YYYY-MM-DD"`);
  }
  const mismatches = versionMismatches(version, {
    "CHANGELOG.md's newest release heading": newest.version,
    'package-lock.json': lock.version,
    "package-lock.json's root package": lock.packages?.['']?.version,
    'src/client/package.json': readJson<Manifest>('src/client/package.json').version,
    'src/client/package-lock.json': clientLock.version,
    "src/client/package-lock.json's root package": clientLock.packages?.['']?.version,
  });
  if (mismatches.length > 0) {
    throw new Refusal(`package.json's version is ${version}, and not every place that states it agrees:\n${mismatches.map((line) => `  ${line}`).join('\n')}`);
  }
  return version;
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (program: string) =>
  program.includes('/') ? isExecutable(program) : (process.env.PATH ?? '').split(path.delimiter).some((folder) => folder !== '' && isExecutable(path.join(folder, program)));

const bytes = (size: number) => `${size.toLocaleString('en-US')} bytes`;

/** How the image is built: by which program, or why none is. */
type ImagePlan = { readonly engine: string } | { readonly skipped: string };

/** CONTAINER_ENGINE (`none` for no image), or else podman or docker, where there is a Dockerfile to build. */
function imagePlan(): ImagePlan {
  if (!existsSync(path.join(ROOT, 'Dockerfile'))) return { skipped: 'there is no Dockerfile at the top of the checkout' };
  const named = process.env.CONTAINER_ENGINE;
  if (named === 'none') return { skipped: 'CONTAINER_ENGINE is none' };
  if (named !== undefined && named !== '') {
    if (!onPath(named)) throw new Refusal(`CONTAINER_ENGINE is ${named}, which is not on PATH: install it, or set CONTAINER_ENGINE=none to build no image`);
    return { engine: named };
  }
  const found = ['podman', 'docker'].find(onPath);
  return found === undefined ? { skipped: 'neither podman nor docker is on PATH (CONTAINER_ENGINE names another program)' } : { engine: found };
}

/** Builds the image `ivr-reporting:VERSION` as planned; says what it built, or why it built none. */
function buildImage(plan: ImagePlan, version: string): string {
  if ('skipped' in plan) return `no image: ${plan.skipped}`;
  const tag = `${IMAGE_NAME}:${version}`;
  // podman writes OCI images by default, which drop the Dockerfile's HEALTHCHECK; Docker's format keeps it.
  const format = path.basename(plan.engine) === 'podman' ? ['--format', 'docker'] : [];
  // NODE_IMAGE, as in docs/deployment.md, for a machine that reaches no registry serving the official node image.
  const base = process.env.NODE_IMAGE ? ['--build-arg', `NODE_IMAGE=${process.env.NODE_IMAGE}`] : [];
  run(plan.engine, ['build', ...format, ...base, '--tag', tag, '--file', 'Dockerfile', '.']);
  const [id = '', size = '0'] = run(plan.engine, ['image', 'inspect', '--format', '{{.Id}} {{.Size}}', tag], { capture: true }).trim().split(' ');
  return `image ${tag}, built by ${plan.engine}: ${id}, ${bytes(Number(size))}`;
}

interface Packed {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/** `npm pack` of the package in `folder` into release/; a tarball that fails the checks of its files is removed. */
function pack(folder: string, needed: Readonly<Record<string, string>>): string {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as Manifest;
  // The build is done already: a pack's own prepare or prepack would only build it again.
  const [packed] = JSON.parse(run('npm', ['pack', folder, '--ignore-scripts', '--json', '--pack-destination', OUTPUT], { capture: true })) as Packed[];
  const expected = `${manifest.name}-${manifest.version}.tgz`;
  if (packed?.filename !== expected) throw new Refusal(`npm pack of ${path.relative(ROOT, folder) || '.'} made ${packed?.filename}, not ${expected}`);
  const problems = tarballProblems(`release/${expected}`, manifest, needed, packed.files.map((file) => file.path));
  if (problems.length > 0) {
    rmSync(path.join(OUTPUT, expected));
    throw new Refusal(`a tarball does not hold what it should:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  return expected;
}

function main(): void {
  const commit = commitToRelease();
  const version = versionToRelease();
  const plan = imagePlan();
  process.stdout.write(`release: ${IMAGE_NAME} ${version} from commit ${commit}\n`);

  // Afresh: an incremental build would leave in dist/ the output of a module since removed.
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  rmSync(path.join(CLIENT, 'dist'), { recursive: true, force: true });
  run('npm', ['run', 'build']);

  rmSync(OUTPUT, { recursive: true, force: true });
  mkdirSync(OUTPUT);
  const tarballs = [
    pack(ROOT, {
      'README.md': 'its README',
      LICENSE: 'its licence',
      'src/dashboard/browser/index.html': 'which the dashboard serves (src/dashboard/assets.ts reads its folder at start)',
    }),
    pack(CLIENT, { LICENSE: 'its licence' }),
  ];

  const image = buildImage(plan, version);

  const sums = tarballs.map((file) => {
    const content = readFileSync(path.join(OUTPUT, file));
    return { file, size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
  });
  writeFileSync(path.join(OUTPUT, 'SHA256SUMS'), sums.map(({ file, sha256 }) => `${sha256}  ${file}\n`).join(''));
  const width = Math.max(...sums.map(({ file }) => file.length));
  process.stdout.write(
    [
      `release: ${IMAGE_NAME} ${version}, in release/ (SHA256SUMS there for \`sha256sum -c\`):`,
      ...sums.map(({ file, size, sha256 }) => `  ${file.padEnd(width)}  ${bytes(size).padStart(15)}  sha256 ${sha256}`),
      `  ${image}`,
      '',
    ].join('\n'),
  );
}

try {
  main();
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  process.stderr.write(`release: ${error.message}\n`);
  process.exitCode = 1;
}
