/** An Express route (`/events/:start/...`) under its mount, as OpenAPI writes a path (`/api/events/{start}/...`). */
export function openApiPath(mount: string, expressPath: string): string {
  return `${mount}${expressPath}`.replace(/:(\w+)/g, '{$1}');
}
