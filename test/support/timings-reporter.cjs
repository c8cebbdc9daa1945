const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

/**
 * A jest reporter that writes where a run's time went: each test file's project, time and tests, and the
 * run's wall time, as JSON (`outputFile`), for `npm run test:timings` to print. jest's own JSON (--json)
 * does not say which project ran a file that two projects run, and loads no TypeScript reporter: this one
 * is CommonJS.
 */
class TimingsReporter {
  constructor(globalConfig, { outputFile }) {
    this.rootDir = globalConfig.rootDir;
    this.outputFile = outputFile;
    this.files = [];
  }

  onTestResult(test, result) {
    this.files.push({
      project: test.context.config.displayName?.name ?? '',
      file: path.relative(this.rootDir, result.testFilePath),
      seconds: (result.perfStats.end - result.perfStats.start) / 1000,
      tests: result.numPassingTests + result.numFailingTests,
      skipped: result.numPendingTests + result.numTodoTests,
    });
  }

  onRunComplete(_contexts, results) {
    const report = { wallSeconds: (Date.now() - results.startTime) / 1000, files: this.files };
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, `${JSON.stringify(report, null, 1)}\n`);
  }
}

module.exports = TimingsReporter;
