/**
 * The generator's ceiling: a trivial node:http server that answers each path with an answer captured from
 * a server under measurement (its status, headers and bytes), having read the request's body. wrk's
 * rate against it is what wrk reaches when the server costs next to nothing: shown beside every load
 * figure, at least twice the fastest server measured, it shows that the generator was not the limit.
 * Argument: the answers file (bench/answers.ts). Announces its URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAnswers } from './answers';
import { announce } from './processes';

const answers = new Map(readAnswers(process.argv[2] as string).map((answer) => [answer.path, { ...answer, body: Buffer.from(answer.body) }]));

const server = createServer((req, res) => {
  req.resume();
  req.once('end', () => {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined) res.writeHead(404).end();
    else res.writeHead(answer.status, answer.headers).end(answer.body);
  });
});
server.listen(0, '127.0.0.1', () => announce({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
