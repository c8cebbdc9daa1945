import type { Pool } from 'pg';
import type { Tool } from '../../domain/tool';
import type { ScenarioDelay, ScenarioRepository, StoredScenario } from '../store';
import { inTransaction } from './transaction';

interface ScenarioRow {
  id: string;
  target: string;
  tool: Tool | null;
  login: string | null;
  client_address: string | null;
  status: number | null;
  fault_string: string | null;
  delay_ms: number | null;
  /** Migration 13: a delay given as a distribution, in place of delay_ms. */
  delay_distribution: Exclude<ScenarioDelay, number> | null;
  retry_after_seconds: number | null;
  times: number | null;
  /** Migration 14: a scenario answering by chance. */
  probability: number | null;
  seed: number | null;
  draws: number;
  fired: number;
  created_at: string;
  /** Migration 15: a scenario faulting the connection. */
  connection: string | null;
  bytes_per_second: number | null;
}

const COLUMNS =
  'id, target, tool, login, client_address, status, fault_string, delay_ms, delay_distribution, retry_after_seconds, times, probability, seed, draws, fired, created_at, connection, bytes_per_second';

/** store.ts's hasAnswersLeft, as migration 11's partial index has it. */
const HAS_ANSWERS_LEFT = '(times IS NULL OR fired < times)';

/**
 * Taken, until the commit, by each addition around its count of the scenarios with answers left and its
 * insert: two additions that counted together could both pass the cap, on one instance or several. Its
 * second key is the table's, so that deployments in other schemas of the database do not wait on one
 * another; the first, any fixed number that nothing else in the database takes in the two-key space (the
 * migrations' and partitions' locks have one key, a space of its own). Held by the transaction, not the
 * session, it holds through a transaction pooler as well.
 */
const SCENARIO_ADDITION_LOCK = 5_170_003;

const orUndefined = <T>(value: T | null): T | undefined => value ?? undefined;

function toScenario(row: ScenarioRow): StoredScenario {
  return {
    id: row.id,
    target: row.target,
    account: row.tool === null || row.login === null ? undefined : { tool: row.tool, login: row.login },
    clientAddress: orUndefined(row.client_address),
    status: orUndefined(row.status),
    faultString: orUndefined(row.fault_string),
    delayMs: orUndefined(row.delay_ms ?? row.delay_distribution),
    retryAfterSeconds: orUndefined(row.retry_after_seconds),
    times: orUndefined(row.times),
    probability: orUndefined(row.probability),
    seed: orUndefined(row.seed),
    draws: row.draws,
    fired: row.fired,
    createdAt: Number(row.created_at),
    connection: orUndefined(row.connection),
    bytesPerSecond: orUndefined(row.bytes_per_second),
  };
}

/**
 * ScenarioRepository.fire's rule (memory/scenarios.ts's `matches`) in SQL: each matching scenario with a
 * probability draws its next number, scenario-draws.ts's `scenarioDraw` written out step by step in
 * bigint arithmetic (each step below 2^63), and the oldest match with answers left that answers takes one.
 * The UPDATE re-reads a row another request changed meanwhile (READ COMMITTED), so a scenario shared by
 * several instances answers exactly `times` requests between them.
 */
const FIRE = `
WITH matching AS (
  SELECT id, position, probability, seed, draws + 1 AS draw FROM sandbox_scenarios
  WHERE target = ANY($1::text[])
    AND (tool IS NULL OR (tool = $2 AND login = $3))
    AND (client_address IS NULL OR client_address = $4)
    AND (times IS NULL OR fired < times)
), drawn AS (
  SELECT m.id, m.position, m.probability IS NOT NULL AS draws,
    m.probability IS NULL OR x3.x::double precision < m.probability * 4294967296::double precision AS answers
  FROM matching m
  LEFT JOIN LATERAL (SELECT (m.seed + (m.draw::bigint % 4294967296) * 2654435769) % 4294967296 AS x) x0 ON true
  LEFT JOIN LATERAL (SELECT (((x0.x >> 16) # x0.x) * 73244475) % 4294967296 AS x) x1 ON true
  LEFT JOIN LATERAL (SELECT (((x1.x >> 16) # x1.x) * 73244475) % 4294967296 AS x) x2 ON true
  LEFT JOIN LATERAL (SELECT (x2.x >> 16) # x2.x AS x) x3 ON true
), chosen AS (
  SELECT id FROM drawn WHERE answers ORDER BY position LIMIT 1
), changed AS (
  UPDATE sandbox_scenarios SET
    draws = draws + (CASE WHEN probability IS NULL THEN 0 ELSE 1 END),
    fired = fired + (CASE WHEN id = (SELECT id FROM chosen) THEN 1 ELSE 0 END)
  WHERE (id = (SELECT id FROM chosen) OR id IN (SELECT id FROM drawn WHERE draws)) AND (times IS NULL OR fired < times)
  RETURNING id = (SELECT id FROM chosen) AS answered, ${COLUMNS}
)
SELECT (SELECT count(*) FROM matching)::integer AS matching, chosen.*
FROM (VALUES (1)) AS one LEFT JOIN (SELECT * FROM changed WHERE answered) AS chosen ON true`;

type FireRow = { matching: number } & ({ [K in keyof ScenarioRow]: null } | ScenarioRow);

export function postgresScenarios(pool: Pool): ScenarioRepository {
  return {
    add: (scenario, mostActive) =>
      inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock($1, 'sandbox_scenarios'::regclass::oid::integer)`, [SCENARIO_ADDITION_LOCK]);
        // Each statement reads what committed before it began: after the lock, every earlier addition.
        const { rows } = await client.query<{ active: number }>(`SELECT count(*)::integer AS active FROM sandbox_scenarios WHERE ${HAS_ANSWERS_LEFT}`);
        if ((rows[0] as { active: number }).active >= mostActive) return 'full';
        await client.query(`INSERT INTO sandbox_scenarios (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`, [
          scenario.id,
          scenario.target,
          scenario.account?.tool ?? null,
          scenario.account?.login ?? null,
          scenario.clientAddress ?? null,
          scenario.status ?? null,
          scenario.faultString ?? null,
          typeof scenario.delayMs === 'number' ? scenario.delayMs : null,
          typeof scenario.delayMs === 'object' ? JSON.stringify(scenario.delayMs) : null,
          scenario.retryAfterSeconds ?? null,
          scenario.times ?? null,
          scenario.probability ?? null,
          scenario.seed ?? null,
          scenario.draws,
          scenario.fired,
          scenario.createdAt,
          scenario.connection ?? null,
          scenario.bytesPerSecond ?? null,
        ]);
        return 'added';
      }),
    list: async () => {
      const { rows } = await pool.query<ScenarioRow>(`SELECT ${COLUMNS} FROM sandbox_scenarios ORDER BY position`);
      return rows.map(toScenario);
    },
    remove: async (id) => ((await pool.query('DELETE FROM sandbox_scenarios WHERE id = $1', [id])).rowCount ?? 0) > 0,
    clear: async () => (await pool.query('DELETE FROM sandbox_scenarios')).rowCount ?? 0,
    fire: async (request) => {
      // Named, so that each connection parses and plans it once: every auth, data and survey request runs it.
      const { rows } = await pool.query<FireRow>({
        name: 'fire-scenario',
        text: FIRE,
        values: [request.targets, request.account?.tool ?? null, request.account?.login ?? null, request.clientAddress],
      });
      const row = rows[0] as FireRow;
      if (row.id === null) return { fired: undefined, stillActive: row.matching };
      const fired = toScenario(row);
      const usedUp = fired.times !== undefined && fired.fired >= fired.times;
      return { fired, stillActive: row.matching - (usedUp ? 1 : 0) };
    },
  };
}
