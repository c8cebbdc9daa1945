import { answersFile } from '../../bench/answers';
import { describeRuntimes } from '../../bench/machine';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childVersions, runChildrenOn, startNodeProgram, startServerProcess } from '../../bench/processes';

const ANSWER = { path: '/', status: 200, headers: { 'content-type': 'text/plain' }, body: 'ceiling' };

afterEach(() => runChildrenOn(process.execPath, process.version));

describe('the Node.js a pass runs its children on', () => {
  it('starts a child on the binary named, which says it runs that version, and counts it', async () => {
    runChildrenOn(process.execPath, process.version);
    const ceiling = await startServerProcess<{ url: string }>('bench/ceiling-server.ts', { args: [answersFile([ANSWER])] });
    try {
      const response = await fetch(`${ceiling.info.url}/`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('ceiling');
      expect([...childVersions()]).toEqual([[process.version, 1]]);
    } finally {
      await ceiling.stop();
    }
  });

  it('refuses a child that says it ran on another version than the pass names', async () => {
    runChildrenOn(process.execPath, 'v0.0.0');
    await expect(startServerProcess('bench/ceiling-server.ts', { args: [answersFile([ANSWER])] })).rejects.toThrow(
      `bench/ceiling-server.ts ran on Node.js ${process.version}, not on v0.0.0 (${process.execPath})`,
    );
    expect([...childVersions()]).toEqual([]);
  });
});

describe('the runtimes of BENCH_NODES', () => {
  it('asks each binary its version, and by default drops one of a major version already listed', () => {
    const twice = [process.execPath, process.execPath];
    const runtime = { binary: process.execPath, version: process.version, ofRecord: process.version.startsWith('v24.') };
    expect(describeRuntimes({ binaries: twice, given: false })).toEqual([runtime]);
    expect(describeRuntimes({ binaries: twice, given: true })).toEqual([runtime, { ...runtime, ofRecord: false }]);
  });

  it('names a binary that does not run', () => {
    expect(() => describeRuntimes({ binaries: ['/nonexistent/node'], given: true })).toThrow(/^BENCH_NODES: \/nonexistent\/node does not run: /);
  });
});

describe('a program of another project started by the bench', () => {
  it('is ready when it says so itself, not when its log holds an earlier run of it saying so', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'ivr-bench-program-'));
    const program = path.join(folder, 'program.js');
    writeFileSync(
      program,
      "const server = require('node:http').createServer((_req, res) => res.end('up'));\n" +
        "server.listen(0, '127.0.0.1', () => console.log(`ready ${server.address().port}`));\n",
    );
    const logFile = path.join(folder, 'program.log');
    appendFileSync(logFile, 'ready 1\n');
    const started = await startNodeProgram(process.execPath, program, [], { logFile, ready: /ready \d+/ });
    try {
      const port = readFileSync(logFile, 'utf8').trim().split('\n').at(-1)?.split(' ')[1];
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(await response.text()).toBe('up');
    } finally {
      await started.stop();
    }
  });
});
