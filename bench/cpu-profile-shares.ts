/**
 * tsx bench/cpu-profile-shares.ts <file.cpuprofile> [seconds] [skip]: the self time of a V8 CPU profile
 * (`node --cpu-prof`) as shares of the busy time, by package (a node_modules package, a Node module, a
 * folder of the app's dist/) and by function. Only the samples of the `seconds` before the last `skip`
 * seconds of the profile count, so that a profile of a server started, loaded by wrk and then stopped
 * shows the load rather than the start (the demo data) or the shutdown. Idle samples are left out.
 * How docs/performance-costs.md's shares of a request's fixed cost were read.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const SHOWN = 40;

function packageOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (url === '') return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const own = /dist\/(?:src\/)?(.*)\/[^/]+$/.exec(url) ?? /dist\/(?:src\/)?([^/]+)$/.exec(url);
  if (own) return `app: ${own[1]}`;
  if (url.startsWith('node:')) return url.replace(/\.js$/, '');
  return url;
}

function functionOf({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const where = url.replace(/.*node_modules\//, '').replace(/.*dist\//, 'dist/');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

function main(): void {
  const [file, seconds = '10', skip = '0.3'] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: tsx bench/cpu-profile-shares.ts <file.cpuprofile> [seconds] [skip]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const times: number[] = [];
  let time = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((time += delta));
  const end = times.at(-1)! - Number(skip) * 1e6;
  const start = end - Number(seconds) * 1e6;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const at = times[index]!;
    const frame = nodes.get(id)!.callFrame;
    if (at < start || at > end || frame.functionName === '(idle)') return;
    const span = (times[index + 1] ?? at) - at;
    busy += span;
    byPackage.set(packageOf(frame), (byPackage.get(packageOf(frame)) ?? 0) + span);
    byFunction.set(functionOf(frame), (byFunction.get(functionOf(frame)) ?? 0) + span);
  });
  const table = (title: string, shares: Map<string, number>) => [
    '',
    `| share | ${title} |`,
    '|---:|---|',
    ...[...shares].sort((a, b) => b[1] - a[1]).slice(0, SHOWN).map(([name, span]) => `| ${((100 * span) / busy).toFixed(1)}% | ${name} |`),
  ];
  const lines = [`${(busy / 1e6).toFixed(2)} s busy in the ${seconds} s counted`, ...table('package or module', byPackage), ...table('function', byFunction)];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
