import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOLS } from '../domain/tool';

/** One file of the dashboard as it is sent: bytes read once at start. */
export interface DashboardAsset {
  readonly contentType: string;
  readonly bytes: Buffer;
}

export interface DashboardAssets {
  /** The reports page at `/`, its asset addresses filled in. */
  readonly page: Buffer;
  /** The call inspector's page at `/inspector`, its asset addresses filled in. */
  readonly inspectorPage: Buffer;
  /** Each asset by its path under the site's root, e.g. `/dashboard/1a2b3c4d5e6f/app.js`. */
  readonly files: ReadonlyMap<string, DashboardAsset>;
}

/**
 * tsc copies no HTML, CSS or browser JavaScript, so both `src/dashboard` (tsx, jest) and
 * `dist/dashboard` (`npm start`) read them from the one folder in the source tree, two levels above either.
 */
const BROWSER_FOLDER = path.resolve(__dirname, '../../src/dashboard/browser');
const PAGE = 'index.html';
const INSPECTOR_PAGE = 'inspector.html';
/** The pages' templates: served filled in, at their own addresses, never as assets. */
const TEMPLATES = [PAGE, INSPECTOR_PAGE];

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** uPlot from node_modules, under names of the dashboard's own (browser/*.js import `./vendor/uplot.js`). */
const VENDOR_FILES: Readonly<Record<string, string>> = {
  'vendor/uplot.js': require.resolve('uplot/dist/uPlot.esm.js'),
  'vendor/uplot.css': require.resolve('uplot/dist/uPlot.min.css'),
};

function contentTypeOf(name: string): string {
  const type = CONTENT_TYPES[path.extname(name)];
  if (type === undefined) throw new Error(`the dashboard has no content type for ${name}`);
  return type;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

let loaded: DashboardAssets | undefined;

/**
 * The dashboard's files, read once per process (every app of it serves the same). Their addresses carry
 * a digest of every file, so a browser may keep them for good: any change to any of them gives them all
 * new addresses, and the pages, which are never kept without asking, name the new ones.
 */
export function loadDashboardAssets(): DashboardAssets {
  loaded ??= readDashboardAssets();
  return loaded;
}

function readDashboardAssets(): DashboardAssets {
  const sources = new Map<string, string>(
    readdirSync(BROWSER_FOLDER)
      .filter((name) => !TEMPLATES.includes(name))
      .map((name) => [name, path.join(BROWSER_FOLDER, name)]),
  );
  for (const [name, file] of Object.entries(VENDOR_FILES)) sources.set(name, file);
  const names = [...sources.keys()].sort();
  const contents = new Map(names.map((name) => [name, readFileSync(sources.get(name) as string)]));
  const [template, inspectorTemplate] = TEMPLATES.map((name) => readFileSync(path.join(BROWSER_FOLDER, name), 'utf8')) as [string, string];

  const digest = createHash('sha256');
  digest.update(template).update(inspectorTemplate);
  for (const name of names) digest.update(name).update(contents.get(name) as Buffer);
  // Relative to the page, so a proxy that serves the site under a path prefix keeps working.
  const prefix = `dashboard/${digest.digest('hex').slice(0, 12)}`;

  const toolOptions = TOOLS.map((tool) => `<option>${escapeHtml(tool)}</option>`).join('');
  const page = Buffer.from(template.replaceAll('{{assets}}', prefix).replace('{{tools}}', toolOptions));
  const inspectorPage = Buffer.from(inspectorTemplate.replaceAll('{{assets}}', prefix));
  const files = new Map(
    names.map((name) => [`/${prefix}/${name}`, { contentType: contentTypeOf(name), bytes: contents.get(name) as Buffer }]),
  );
  return { page, inspectorPage, files };
}
