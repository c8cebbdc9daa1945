/**
 * The baseline of the event tracker: a plain Express 5 route per path, sending the exact bytes the app
 * answers it with (captured by the parent), listening as the app does (src/listen.ts), in a process of
 * its own. Argument: the answers file (bench/answers.ts). Announces its URL.
 */
import express from 'express';
import { readAnswers } from './answers';
import { serverModules } from './compiled';
import { announce } from './processes';

async function main(): Promise<void> {
  const { loadConfig, listen, listenOptions } = await serverModules();
  const app = express();
  for (const { path, body } of readAnswers(process.argv[2] as string)) {
    app.get(path, (_req, res) => {
      res.type('application/json; charset=utf-8').send(body);
    });
  }
  const { url } = await listen(app, '127.0.0.1', 0, listenOptions(loadConfig({}).server));
  announce({ url });
}

void main();
