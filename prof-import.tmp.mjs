// usage: node prof-import.tmp.mjs <node-binary> <version 1|2> <outdir>
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
const [node, version, outdir] = process.argv.slice(2);
const { generateDemoCalls } = await import('./dist/startup-data/demo/calls.js');
const phones = Array.from({ length: 20 }, (_, i) => String(18005550200 + i));
const wire = generateDemoCalls({ phones, days: 120, callsPerDay: 200, seed: 11, timeZone: 'America/New_York', now: Date.UTC(2026, 0, 1) })[Symbol.iterator]();
const batches = [];
for (let b = 0; b < 60; b++) { const lines = []; for (let i = 0; i < 5000; i++) { const v = wire.next().value; const r = version === '1' ? { call_id: 'p-' + v.call_id, phone: v.phone, started_at: v.started_at, log_events: v.log_events, loops: v.loops, form_items: v.form_items } : { ...v, call_id: 'p-' + v.call_id }; lines.push(JSON.stringify(r)); } batches.push(lines.join('\n') + '\n'); }
const child = spawn('taskset', ['-c', '0', node, '--cpu-prof', `--cpu-prof-dir=${outdir}`, 'dist/main.js'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_TOKEN: 'x'.repeat(32), ADMIN_RATE_LIMIT: '1000000' }, stdio: ['ignore', 'ignore', 'pipe'] });
let url; for await (const line of createInterface({ input: child.stderr })) { const m = /http:\/\/127\.0\.0\.1:\d+/.exec(line); if (m) { url = m[0]; break; } }
const post = (body) => fetch(`${url}/admin/calls`, { method: 'POST', headers: { Authorization: 'Bearer ' + 'x'.repeat(32), 'Content-Type': 'application/x-ndjson' }, body });
for (const b of batches.slice(0, 10)) { const r = await post(b); if (r.status !== 200) { console.log(r.status, await r.text()); process.exit(1); } await r.arrayBuffer(); }
const start = performance.now(); let n = 0;
for (const b of batches.slice(10)) { const r = await post(b); await r.arrayBuffer(); n += 5000; }
const s = (performance.now() - start) / 1000;
console.log(node.includes('node24') ? 'v24' : 'v20', 'version', version, Math.round(n / s), 'records/s over', s.toFixed(1), 's');
child.kill('SIGINT'); await once(child, 'exit');
