/**
 * The time bench:scaling takes to drop the oldest month of calls. The schema of main holds calls in one
 * table, so the month goes as rows: one DELETE of the calls that started before the second month (their
 * rollups stay; the bench ends after this).
 */
import type { ScalingCluster } from './scaling-cluster';
import type { ScalingPlan } from './scaling-records';

export interface DroppedMonth {
  readonly how: string;
  readonly calls: number;
  readonly seconds: number;
}

export async function dropOldestMonth(cluster: ScalingCluster, plan: ScalingPlan): Promise<DroppedMonth> {
  const second = new Date(plan.from);
  second.setUTCMonth(second.getUTCMonth() + 1);
  return cluster.query('primary', async (client) => {
    const began = performance.now();
    const { rowCount } = await client.query('DELETE FROM calls WHERE started_at < $1', [second.getTime()]);
    return { how: 'DELETE FROM calls of an unpartitioned table', calls: rowCount ?? 0, seconds: (performance.now() - began) / 1000 };
  });
}
