import type { Account } from '../accounts/account';
import type { Tool } from '../domain/tool';
import type { CallRecord, PathStep } from '../domain/call-record';
import type { Region } from '../domain/caller-region';
import type { EpochDay } from '../time/calendar';
import type { DayTotalsTable } from './day-totals';

// Defined beside the table of them, which the interface returns: the table's file needs no other of storage.
export type { DayTotals } from './day-totals';

/**
 * The storage interface. Every method is asynchronous so that the in-memory store and a networked one
 * (PostgreSQL and Redis) are interchangeable; both must pass test/support/store-contract.ts.
 */

export interface TemporaryCredential {
  readonly login: string;
  /** SHA-256 of the temporary password, hex; the password itself is never stored. */
  readonly passwordDigest: string;
  readonly accountId: string;
  /** The account's credentialGeneration when this credential was issued. */
  readonly generation: number;
  /** Milliseconds since the epoch of the last successful use (or of issue). */
  readonly lastUsedAt: number;
}

/** Local days `first`..`last`, both included. */
export interface DaySpan {
  readonly first: EpochDay;
  readonly last: EpochDay;
}

/** Calls whose caller is from one region. */
export interface RegionCalls {
  readonly region: Region;
  readonly calls: number;
}

export interface AddCallsResult {
  readonly inserted: number;
  readonly duplicates: number;
  /** Positions, in the batch given, of records whose phone belongs to no account; none of them is kept. */
  readonly unknownPhone: readonly number[];
}

/**
 * Raw calls of whole UTC months, as retention drops them: one month, or (on PostgreSQL) the calls stored
 * before calls were kept by month, every month up to `lastMonth` together.
 */
export interface RawCallMonths {
  /** `YYYY-MM`; undefined for every month before `lastMonth` too. */
  readonly firstMonth: string | undefined;
  /** `YYYY-MM`. */
  readonly lastMonth: string;
  readonly calls: number;
}

/** `no-account`: the account does not exist (or was deleted meanwhile), and nothing was assigned. */
export type AssignPhoneResult = 'assigned' | 'already-owned' | 'owned-by-another' | 'no-account';

/** The fields of an account that can change; an absent field keeps its value. */
export interface AccountChange {
  readonly passwordHash?: string;
  readonly active?: boolean;
  readonly timeZone?: string;
  /**
   * Moves credentialGeneration on by one, in the same step as the other fields. Deactivating an account
   * (active from true to false) moves it on too, here and in `save`, so that reactivating it never
   * brings back the credentials it had.
   */
  readonly revokeCredentials?: boolean;
}

/** A temporary credential as a revocation reports it: never its digest. */
export type RevokedCredential = Pick<TemporaryCredential, 'login' | 'lastUsedAt'>;

/** What AccountRepository.revokeCredentials did. */
export interface Revocation {
  /** The account after it: its credentialGeneration moved on by one, nothing else changed. */
  readonly account: Account;
  /** The credentials of the generation it ended that were last used after the instant given, in no order. */
  readonly revoked: readonly RevokedCredential[];
}

export interface AccountRepository {
  find(id: string): Promise<Account | undefined>;
  /**
   * Creates or replaces the account with this id. When the time zone changes, the daily rollups of the
   * account's phones are rebuilt in the new zone in the same step, since rollups are keyed by local day.
   * The credential generation never goes back (a seed file saves accounts at 0 on every start): revoked
   * credentials must not work again. Saving an active account as inactive moves it on by one.
   */
  save(account: Account): Promise<void>;
  /** Creates the account unless one with its id exists; returns whether it did. */
  create(account: Account): Promise<boolean>;
  /**
   * Changes only the given fields, in one step, so that concurrent changes of different fields are all
   * kept; rebuilds the rollups on a time-zone change as `save` does. Undefined when there is no such account.
   */
  update(id: string, change: AccountChange): Promise<Account | undefined>;
  /**
   * Moves credentialGeneration on by one, as `update` with `revokeCredentials` does, and reads in the same
   * step the credentials that generation had, last used after `usedAfter` (ms): a login storing its
   * credential at that moment has either stored it before, and it is among them, or stores it under the
   * ended generation, never valid. The credentials stay stored, refused by their generation, until
   * `removeIdleSince` takes them. Undefined when there is no such account.
   */
  revokeCredentials(id: string, usedAfter: number): Promise<Revocation | undefined>;
  list(): Promise<Account[]>;
  /**
   * Deletes the account and what is its own, in one step: its numbers are released, and the calls of
   * those numbers go with every rollup of them and the account's daily sums; its temporary credentials
   * go (a credential saved meanwhile is refused: CredentialRepository.save). Its data version moves on
   * and is kept, so that no report kept of it passes for one of an account created again under its id.
   * The ids of the calls stay known, as after retention: the same calls imported again are duplicates.
   * Returns whether there was such an account.
   */
  remove(id: string): Promise<boolean>;
  /**
   * What a report of the account rests on, read in one step (one round trip on PostgreSQL), since every
   * data request needs it: the data version, and whether the account owns `phone` (asked for a report on
   * one number; undefined for all of its numbers).
   */
  reportBasis(id: string, phone: string | undefined): Promise<ReportBasis>;
}

export interface ReportBasis {
  /**
   * A number that moves on whenever what the account's reports show may change: calls added to its
   * numbers, a time-zone change, a number assigned to or released from it; moved in the same step as the
   * change. A report kept under an older version is stale. 0 for an account that never changed.
   */
  readonly dataVersion: number;
  /** Whether the account owns the number asked about; true when none was. */
  readonly ownsPhone: boolean;
}

export interface PhoneRepository {
  /**
   * A number's calls stay with the number: when it is assigned, its daily rollups are rebuilt in the
   * new owner's time zone in the same step. Nothing is assigned to an account that does not exist.
   */
  assign(phone: string, accountId: string): Promise<AssignPhoneResult>;
  /** Returns whether the account owned the number. */
  release(phone: string, accountId: string): Promise<boolean>;
  ownedBy(accountId: string): Promise<string[]>;
}

/** A credential with the account it was issued for, read together: every request of the reporting API needs both. */
export interface CredentialInUse {
  readonly credential: TemporaryCredential;
  /** Undefined when the account is gone. */
  readonly account: Account | undefined;
}

export interface CredentialRepository {
  /**
   * Stores the credential unless its account does not exist, and returns whether it did: a login that
   * read the account just before it was deleted stores nothing, so no credential outlives its account
   * (an account created again under the same id would otherwise inherit it).
   */
  save(credential: TemporaryCredential): Promise<boolean>;
  findWithAccount(login: string): Promise<CredentialInUse | undefined>;
  /** Records a use; does nothing when the credential is gone. */
  touch(login: string, usedAt: number): Promise<void>;
  /** Deletes credentials last used before `cutoff` and returns how many went. */
  removeIdleSince(cutoff: number): Promise<number>;
}

/** Every number an account owns when the read runs, whichever they are. */
export interface AccountPhones {
  readonly ownedBy: string;
}

/**
 * The numbers a read of calls covers: those listed (their ownership checked by the caller), or every
 * number of an account, which a store may read in one step with the calls.
 */
export type PhoneScope = readonly string[] | AccountPhones;

export const isAccountPhones = (scope: PhoneScope): scope is AccountPhones => !Array.isArray(scope);

export interface CallRepository extends CallReads {
  /**
   * Keeps each record whose `callId` was not seen before and whose phone has an owner, and updates the
   * per-day rollups in the owner's time zone in the same step, so a reader never sees one without the
   * other.
   */
  add(records: readonly CallRecord[]): Promise<AddCallsResult>;
  /**
   * Makes ready the place of the raw calls of the UTC months from the one `fromMs` falls in to the one
   * `toMs` falls in, ahead of their calls (PostgreSQL: a partition each; memory: nothing to make).
   */
  prepareMonths(fromMs: number, toMs: number): Promise<void>;
  /**
   * The raw calls that started before `cutoffMs` (the first instant of a UTC month), by whole month,
   * oldest first: dropped unless `dryRun`. Only raw calls go: every rollup stays, so reports over those
   * days answer as before; their call ids stay known, so a call imported again is still a duplicate.
   * From then on a rollup rebuild (a time-zone change, a number assigned) keeps the rows of the local
   * days before the first one that starts at or after the cut-off, and computes the later ones again.
   */
  dropRawCallsBefore(cutoffMs: number, dryRun: boolean): Promise<RawCallMonths[]>;
  /**
   * Sets the instant recorded by `dropRawCallsBefore` back to `latestMs` when it is later, and returns the
   * one it replaced (undefined when it was not later, or none was recorded): a horizon past every cut-off
   * retention can reach would keep rollup rebuilds away from the days before it, calls added since
   * included, for as long as the store lasts.
   */
  capRetentionHorizon(latestMs: number): Promise<number | undefined>;
}

/** The reads of calls a report makes: from rollups only. */
export interface CallReads {
  /** Totals per local day from `from` to `to` for the numbers in scope merged; a day without calls is all zeros. */
  dailyTotals(scope: PhoneScope, from: EpochDay, to: EpochDay): Promise<DayTotalsTable>;
  /**
   * For each span, how many distinct callers the calls of the numbers in scope in it had (calls with no
   * caller are not counted): exact, a caller counted once per span however many days or phones they called.
   */
  distinctCallers(scope: PhoneScope, spans: readonly DaySpan[]): Promise<number[]>;
  /** Calls per region of their caller over `from`..`to`, regions with calls only, in no order; no caller, no count. */
  regionTotals(scope: PhoneScope, from: EpochDay, to: EpochDay): Promise<RegionCalls[]>;
  /**
   * The form items the calls of `from`..`to` went through, each with its counters summed, in no order;
   * at most `limit` of them, so a caller asking for one more than it can answer learns that there are too many.
   */
  formItemTotals(scope: PhoneScope, from: EpochDay, to: EpochDay, limit: number): Promise<PathStep[]>;
}

/** What a report has seen of its account: the data version read where changes are written (`reportBasis`). */
export interface SeenData {
  readonly accountId: string;
  readonly dataVersion: number;
}

/**
 * How a read meant for a replica ended: `answered` by it; read from the primary instead because the
 * replica was `behind` the account's data version or `failed` (an error, or no answer within the
 * dependency timeout); or `set-aside`: every replica had failed lately, the primary read it at once.
 */
export type ReplicaReadOutcome = 'answered' | 'behind' | 'failed' | 'set-aside';

export interface ReplicaReadCount {
  /** `replica-1`, `replica-2`... in the order of DATABASE_READ_URL; `none` for the `set-aside` reads. */
  readonly replica: string;
  readonly outcome: ReplicaReadOutcome;
  readonly count: number;
}

/** Copies of the data that answer the reads of reports and may lag behind where changes are written. */
export interface ReplicaReads {
  /**
   * The reads of a report that has seen `seen`: each answered by a copy only when the copy holds at
   * least that data version of the account, else (or when the copy fails or does not answer within the
   * dependency timeout) where changes are written. A report never shows less than its account acknowledged.
   */
  readingAfter(seen: SeenData): CallReads;
  /** Every read so far, counted by replica and outcome, for the metrics. */
  counts(): readonly ReplicaReadCount[];
}

export interface RateLimitCounters {
  /**
   * Counts one hit for `key` in the fixed window that starts at `windowStart` (ms) and returns the
   * window's count including this hit. Atomic: concurrent hits never share a count.
   */
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
  decrement(key: string, windowStart: number): Promise<void>;
  reset(key: string): Promise<void>;
}

export interface SurveySession {
  /** The session cookie's value. */
  readonly id: string;
  /** JSON text of the state the survey handler returned on the session's last call. */
  readonly stateJson: string;
  /** Milliseconds since the epoch at which the session is gone unless saved again (idle expiry). */
  readonly expiresAt: number;
}

export interface SurveySessionRepository {
  /** The session, or undefined when the id is unknown or the session expired at or before `now`. */
  get(id: string, now: number): Promise<SurveySession | undefined>;
  /**
   * Creates or replaces the session with this id; `now` lets the store forget expired sessions. Beyond
   * `maxSessions` live sessions, the longest idle (the earliest to expire) are forgotten first.
   */
  save(session: SurveySession, now: number, maxSessions: number): Promise<void>;
  /** How many sessions are live (not expired) at `now`, for the metrics; the count every instance shares. */
  live(now: number): Promise<number>;
}

/**
 * A scenario's delay as it was given: whole milliseconds, or the distribution each request it answers draws
 * its own wait from (src/sandbox/scenarios/delay.ts).
 */
export type ScenarioDelay = number | { readonly uniform: [number, number] } | { readonly median: number; readonly p99: number };

/**
 * A failure scenario of the sandbox as the store keeps it (src/sandbox/scenarios/scenario.ts gives it its
 * meaning): which requests it matches, what it answers them, and how many it has answered.
 */
export interface StoredScenario {
  readonly id: string;
  /** One of the targets a request is (ScenarioRequest.targets). */
  readonly target: string;
  /** Only the requests of this account. */
  readonly account: { readonly tool: Tool; readonly login: string } | undefined;
  /** Only the requests from this client address, canonical as ScenarioRequest.clientAddress. */
  readonly clientAddress: string | undefined;
  readonly status: number | undefined;
  readonly faultString: string | undefined;
  readonly delayMs: ScenarioDelay | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** How many matching requests it answers; undefined: every one until it is removed. */
  readonly times: number | undefined;
  /** The chance that it answers a request it matches (0 < p <= 1); undefined: every one. */
  readonly probability: number | undefined;
  /** With a probability: the seed of its draws (scenario-draws.ts). */
  readonly seed: number | undefined;
  /** With a probability: how many requests it has drawn for, answered or not. */
  readonly draws: number;
  /** How many requests it has answered. */
  readonly fired: number;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** A fault of the connection (src/http/connection-faults/): reset, empty, truncated or drip. */
  readonly connection: string | undefined;
  /** A drip's rate. */
  readonly bytesPerSecond: number | undefined;
}

/** Whether a scenario has answers left: only those are matched. */
export const hasAnswersLeft = (scenario: StoredScenario): boolean => scenario.times === undefined || scenario.fired < scenario.times;

/** A request as the sandbox's scenarios match it. */
export interface ScenarioRequest {
  /** The targets it is: `auth`; `data` and the resource's name; `survey`. */
  readonly targets: readonly string[];
  /** The account it is for, when known (auth: the login posted; data: the credentials' account). */
  readonly account: { readonly tool: Tool; readonly login: string } | undefined;
  /** Canonical (sandbox/scenarios/scenario.ts's canonicalAddress). */
  readonly clientAddress: string;
}

export interface ScenarioFiring {
  /** The scenario that answers the request, its use counted (fired includes this request). */
  readonly fired: StoredScenario | undefined;
  /** How many scenarios matching the request still have answers left after it. */
  readonly stillActive: number;
}

/** What ScenarioRepository.add did: added the scenario, or refused it since the cap was reached. */
export type ScenarioAddition = 'added' | 'full';

export interface ScenarioRepository {
  /**
   * Adds the scenario unless `mostActive` scenarios have answers left (SANDBOX_MAX_SCENARIOS), the count
   * and the addition in one atomic step: additions at once, on several instances too, never pass the cap.
   */
  add(scenario: StoredScenario, mostActive: number): Promise<ScenarioAddition>;
  /** Every scenario, the used-up ones too, oldest first. */
  list(): Promise<StoredScenario[]>;
  /** Returns whether there was one. */
  remove(id: string): Promise<boolean>;
  /** Returns how many went. */
  clear(): Promise<number>;
  /**
   * The oldest scenario that matches the request (one of its targets, and the account and address the
   * scenario names, if it names them), has answers left and, if it has a probability, draws one that
   * answers (each such scenario matching the request draws its next number, scenario-draws.ts), takes
   * one, in one atomic step: scenarios shared by several instances answer exactly `times` requests between them.
   */
  fire(request: ScenarioRequest): Promise<ScenarioFiring>;
}

/**
 * A service the store needs to serve: where the data lives, and Redis when it holds the shared state.
 * GET /readyz runs each check, and failed store calls are counted under the same name in the metrics.
 */
export interface StoreDependency {
  /** `store` (where the data lives: PostgreSQL or memory), `redis` (the shared state) or `replica-N` (a read replica). */
  readonly name: string;
  /**
   * Whether the server can serve without it: a read replica, whose reads the primary takes over. Its check
   * is shown, and does not make the server unready.
   */
  readonly optional?: boolean;
  /**
   * Resolves once the service has answered and is fit to serve (PostgreSQL: its schema has every
   * migration of this build); rejects otherwise, with a NotReadyError when the service answered but is
   * not fit. Not bounded in time: the caller bounds it.
   */
  check(): Promise<void>;
}

export interface Store {
  readonly accounts: AccountRepository;
  readonly phones: PhoneRepository;
  readonly credentials: CredentialRepository;
  readonly calls: CallRepository;
  readonly rateLimits: RateLimitCounters;
  readonly surveySessions: SurveySessionRepository;
  /** The sandbox's failure scenarios (POST /admin/scenarios), where the data lives: every instance sees the same. */
  readonly scenarios: ScenarioRepository;
  /** What GET /readyz checks: the store itself, then Redis when it holds the shared state, then each read replica. */
  readonly dependencies: readonly StoreDependency[];
  /** PostgreSQL's read replicas (DATABASE_READ_URL), when configured; without them `calls` answers every read. */
  readonly replicas?: ReplicaReads;
  close(): Promise<void>;
}
