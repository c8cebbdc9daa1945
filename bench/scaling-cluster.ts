/**
 * The services of bench:scaling, its own rather than any shared server's: a PostgreSQL primary with
 * PostgreSQL's default settings (fsync on) and a streaming replica of it holding a replication slot (as an
 * operator's does, so that a bulk load's WAL waits for it), as test/support/dedicated-services.ts makes them for
 * the suites that stop theirs, in a temporary folder under BENCH_SCALING_DIR (else the system's),
 * and a Redis server for the instances' shared state. Everything is stopped and removed by `destroy`.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import {
  createDedicatedPostgres,
  createDedicatedRedis,
  createDedicatedReplica,
  postgresBin,
  type DedicatedService,
} from '../test/support/dedicated-services';

export interface ScalingCluster {
  readonly folder: string;
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  readonly redisUrl: string;
  /** Runs `work` on a connection of its own to the primary or the replica. */
  query<T>(server: 'primary' | 'replica', work: (client: Client) => Promise<T>): Promise<T>;
  destroy(): Promise<void>;
}

export async function startScalingCluster(parent: string | undefined): Promise<ScalingCluster> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error('initdb, pg_ctl and pg_basebackup are needed (Debian: postgresql; see .ci/services.sh)');
  const folder = mkdtempSync(path.join(parent ?? os.tmpdir(), 'ivr-bench-scaling-'));
  // The clusters' folders inside belong to the postgres user, who must be able to reach them.
  chmodSync(folder, 0o755);
  const started: DedicatedService[] = [];
  const destroy = async () => {
    for (const service of started.reverse()) await service.destroy();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const primary = await createDedicatedPostgres(bin, { parent: folder, settings: 'defaults' });
    started.push(primary);
    await primary.start();
    const replica = await createDedicatedReplica(bin, new URL(primary.url).host, { parent: folder, settings: 'defaults', replicationSlot: 'bench_replica' });
    started.push(replica);
    await replica.start();
    const redis = await createDedicatedRedis('redis-server');
    started.push(redis);
    await redis.start();
    const urls = { primary: primary.url, replica: replica.url };
    return {
      folder,
      primaryUrl: primary.url,
      replicaUrl: replica.url,
      redisUrl: redis.url,
      query: async (server, work) => {
        const client = new Client({ connectionString: urls[server] });
        await client.connect();
        try {
          return await work(client);
        } finally {
          await client.end();
        }
      },
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}
