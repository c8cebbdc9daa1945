import { NO_DEMO_DATA, startServerProcess, stopIfRunning, type ServerProcess } from '../../test/support/server-process';

let server: ServerProcess | undefined;

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
});

describe('the dashboard of the compiled server (npm start)', () => {
  test('is at the address the banner prints, its modules and uPlot served from the files dist/ reads', async () => {
    server = startServerProcess(NO_DEMO_DATA);
    await server.listening();
    const address = /^Dashboard: (\S+)$/m.exec(server.messages.text())?.[1] as string;
    const page = await fetch(address);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1] as string;
    expect(script).toMatch(/^dashboard\/[0-9a-f]{12}\/app\.js$/);

    for (const asset of [script, script.replace('app.js', 'series-view.js'), script.replace('app.js', 'vendor/uplot.js')]) {
      const response = await fetch(new URL(asset, address));
      expect([asset, response.status, response.headers.get('content-type')]).toEqual([asset, 200, 'text/javascript; charset=utf-8']);
    }
  });
});
