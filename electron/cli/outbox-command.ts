// Over 400 lines: one handler per outbox verb (enqueue, drain, list, show, cancel, report), each only flags and output; what commands share is in command.ts.
import { DebitRequestId } from '../../shared/ipc/gift-cards.ts';
import type { IntegrationProfile } from '../../shared/profile/index.ts';
import { isCommerceApiError } from '../api/index.ts';
import type { Clock } from '../foundation/index.ts';
import { savedOfflineLimits, savedSettings } from '../kiosk/index.ts';
import type { Logger } from '../logging/index.ts';
import {
  connectivityOf,
  type ConnectivityStatus,
  createApiGateway,
  type DebitGateway,
  type DebitKey,
  debitStates,
  type DrainReport,
  heldReasonOf,
  isSettled,
  isWithdrawn,
  OfflineCardRefused,
  type OfflineLimits,
  Outbox,
  outboxClientRetry,
  type OutboxDebit,
  OutboxError,
  OutboxSender,
  type SenderOptions,
} from '../outbox/index.ts';
import { type KioskDatabase, openDatabase, StorageError } from '../storage/index.ts';
import { kioskSchema } from '../schema.ts';
import { apiBaseUrl, connectApi, withSavedBaseUrl } from './api-connection.ts';
import {
  CommandError,
  type CommandLine,
  type Failure,
  type GlobalFlags,
  type Io,
  dataDirOf,
  describeFailure,
  exitCodes,
  loggerFor,
  parseFlags,
  profileOf,
  profileReport,
  refuseFlagsBeyond,
  runCommand,
} from './command.ts';
import {
  parseAmount,
  parseCardId,
  parseDate,
  parseId,
  parsePolicy,
  parseReference,
  parseSeconds,
  parseState,
  required,
} from './outbox-flags.ts';

/**
 * `kioskctl outbox ...`: the durable gift-card debit outbox from a technician's shell, on the
 * kiosk's own data directory (the same database the kiosk app uses; the sender lease keeps the
 * two from sending at once), with the kiosk app's settings and integration profile.
 *
 *   kioskctl [global flags] outbox <command>
 *     enqueue --card <giftCardId> --amount <eur> [--reference <r>] [--policy prefer_online|require_online]
 *             [--request-id <uuid>] [--wait <s>]
 *         Prints {"id","idempotencyKey","requestId","state","replayed","profile"} on one line once
 *         the row is committed, then, if the debit is settled (at once, or within --wait), a
 *         second line {"outcome": {...}}. The request id names this logical debit (absent: a new
 *         one, printed so the command can be run again with it): run again with the same one
 *         after a lost session, it prints the debit already stored ("replayed": true), never a
 *         second one; the same id with another card, amount or reference is refused (exit 2,
 *         REQUEST_ID_REUSED). The app's card checks apply, --wait or not: the service, when
 *         configured, is probed and the card read from it first; else what the kiosk last read
 *         of it. Without --wait nobody waits for the answer: the offline limits apply before the
 *         commit. With --wait, a debit over them whose answer did not come is withdrawn if
 *         nothing of it reached the service (exit 6), else kept for the service (exit 4).
 *     drain [--until-empty] [--timeout <s>]    runs the sender; prints a JSON report, "profile"
 *                                              in it
 *     resume [--timeout <s>]                   after an administrator fixed the integration profile
 *                                              or the account's scopes: rebuilds with the profile
 *                                              the bodies of the debits held for their shape or
 *                                              scope (400/403) and of those never sent, never of
 *                                              one waiting for a retry (a changed body under a key
 *                                              already sent gets a new Idempotency-Key, the old
 *                                              one kept in the debit's key history), then drains
 *                                              once; prints {"profile","rebuilt","newKeys",
 *                                              "debits":[{"id","reason","previousKey",
 *                                              "idempotencyKey"}],"drain":{...}}
 *     list [--state <state>]                   {"debits": [...]}, each with "heldReason" (a 400 or
 *                                              403 holds it for an administrator) and "keys"
 *     show <id>                                the debit as JSON
 *     cancel <id>                              only a debit never attempted
 *     report --date <YYYY-MM-DD>               the end-of-day report: {"date","debits":[...]},
 *                                              each with "acceptedOffline" and "staffResolution"
 *
 * `--data-dir` defaults to env KIOSK_DATA_DIR. The service is `--base-url`, else the one saved in
 * Setup, else KIOSK_API_BASE_URL, with `--credentials` (or KIOSK_API_EMAIL, KIOSK_API_PASSWORD,
 * the vault); needed by `drain`, `resume`, `enqueue --wait` and `--policy require_online` only:
 * a debit can be accepted with the network down. The profile is the app's: `--profile`, else
 * KIOSK_API_PROFILE, else the one saved in Setup, else the default. The offline limits and the
 * shop are the kiosk app's too: what an administrator saved in the data directory's
 * kiosk-settings.json applies here (the shop, else KIOSK_SHOP_ID).
 *
 * Exit codes (kioskctl's 0-5, plus three of the outbox's own):
 *   0  done (enqueue: committed; --wait: applied)
 *   1  unexpected internal error
 *   2  refused locally: bad flag, bad amount, unknown id, missing configuration, a request id
 *      reused for another debit; nothing stored
 *   3  the API refused: --wait ended refused/failed, or drain paused on rejected credentials or
 *      a held debit (400: the integration profile's body; 403: the account's scopes), or every
 *      open debit is held as "outcome unknown" for a person (heldReason DEBIT_OUTCOME_UNKNOWN)
 *   4  no answer: drain --until-empty with rows still open when the timeout passed (service
 *      unreachable or slow); enqueue --wait over an offline limit, its answer not in and the
 *      debit perhaps with the service (OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN: not accepted, held as
 *      "outcome unknown" for a person, never sent again by itself; OUTBOX_ANSWER_AWAITED when an
 *      attempt ended before the wait did: run the same request id again for its outcome)
 *   5  contract violation (from the client)
 *   6  not accepted, nothing taken: an offline limit (OUTBOX_LIMIT_EXCEEDED; after --wait, the
 *      debit withdrawn before any of it reached the service), or require_online while offline;
 *      or what the kiosk knows of the card, whatever the connectivity: OUTBOX_OVER_KNOWN_BALANCE
 *      (over its balance minus the debits still waiting, every process's), OUTBOX_UNKNOWN_CARD
 *      (never read, over the unknownCardOffline policy), OUTBOX_CARD_NOT_DEBITABLE (expired,
 *      inactive...)
 *   7  not now: cancel of a debit already attempted or settled; drain while another process
 *      (the kiosk app) holds the sender lease
 *   8  storage: the data directory cannot be used; the database is empty, not SQLite, damaged or
 *      from a newer build; or the disk is full (nothing is re-created over it)
 *   9  enqueue --wait: the wait ended and the debit is not applied but still open (held for a
 *      person or its body/scope, or pending: stored offline, waiting for a retry); stderr says
 *      why, with the service's answer (DEBIT_NOT_APPLIED). A first-debit check passes on 0 only.
 */

export const outboxExitCodes = {
  ...exitCodes,
  notAccepted: 6,
  conflict: 7,
  storage: 8,
  /**
   * enqueue --wait: the wait ended with the debit not applied but still open: held for its body,
   * scope or an unknown outcome, or pending (stored offline, waiting for a retry). The service's
   * answer is said on stderr (DEBIT_NOT_APPLIED).
   */
  notApplied: 9,
} as const;

export interface OutboxCommandContext {
  readonly io: Io;
  /** A data directory decided by the caller; `--data-dir` and KIOSK_DATA_DIR come after it. */
  readonly dataDir?: string;
  /**
   * Builds the API side lazily, for drain and --wait; the default reads the base URL and the
   * credentials like `kioskctl api` and makes a client with one HTTP attempt per debit call.
   */
  readonly connect?: (settings: ConnectSettings) => Promise<ApiConnection>;
  /**
   * Limits before the kiosk's own: those an administrator saved in the data directory's settings
   * file (as the kiosk app applies them) win, key by key.
   */
  readonly limits?: Partial<OfflineLimits>;
  readonly sender?: Partial<Omit<SenderOptions, 'outbox' | 'gateway'>>;
  readonly clock?: Clock;
}

export interface ConnectSettings {
  readonly globals: GlobalFlags;
  readonly env: Io['env'];
  readonly logger: Logger;
  readonly profile: IntegrationProfile;
}

export interface ApiConnection {
  readonly gateway: DebitGateway;
  /** Probes the service once and says what the connectivity monitor now thinks. */
  readonly check: () => Promise<ConnectivityStatus>;
  readonly connectivity: () => ConnectivityStatus;
  /** Reads the card from the service (GET /v1/gift-cards/{id}), its reply as it came. */
  readonly readCard?: (giftCardId: string) => Promise<unknown>;
  close(): void;
}

const options = {
  card: { type: 'string' },
  amount: { type: 'string' },
  reference: { type: 'string' },
  policy: { type: 'string' },
  'request-id': { type: 'string' },
  wait: { type: 'string' },
  'until-empty': { type: 'boolean' },
  timeout: { type: 'string' },
  state: { type: 'string' },
  date: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const commandFlags: Readonly<Record<string, readonly string[]>> = {
  enqueue: ['card', 'amount', 'reference', 'policy', 'request-id', 'wait'],
  drain: ['until-empty', 'timeout'],
  resume: ['timeout'],
  list: ['state'],
  show: [],
  cancel: [],
  report: ['date'],
};

export const outboxUsage = `usage: kioskctl [global flags] outbox <command>
  enqueue --card <giftCardId> --amount <eur> [--reference <r>] [--policy prefer_online|require_online]
          [--request-id <uuid>] [--wait <s>]
      --request-id names this logical debit: run again with it (a lost session), the debit
      already stored is printed, never a second one; absent, a new one is printed
      the kiosk's card checks apply, --wait or not (the service, when reachable, is asked for
      the card first); without --wait the offline limits apply before the commit
  drain [--until-empty] [--timeout <s>]
  resume [--timeout <s>]
      once an administrator fixed the integration profile or the account's scopes: rebuilds the
      bodies of the debits held for them (400/403) and of those never sent, never of one
      waiting for a retry (a changed body gets a new key; the old one stays in its history),
      prints which, and sends them
the profile: --profile, else KIOSK_API_PROFILE, else the one saved in Setup; each command
that sends says which ("profile")
  list [--state ${debitStates.join('|')}]
  show <id>
  cancel <id>
  report --date <YYYY-MM-DD>
      every debit accepted that local day, its state, offline or not, and how staff resolved
      the refused ones
exit codes: 0 ok, 1 unexpected, 2 refused locally, 3 API refused, 4 no answer in time,
            5 contract violation, 6 not accepted (offline limit / offline / card checks),
            7 not now, 8 storage, 9 enqueue --wait ended with the debit held or pending (not
            applied; stderr says the service's answer)
`;

/** Runs `kioskctl outbox <command> ...` (`argv` is kioskctl's, as typed). */
export function runOutboxCommand(
  argv: readonly string[],
  context: OutboxCommandContext,
): Promise<number> {
  return runCommand(argv, context.io, (line) => run(line, context), describeOutboxFailure);
}

async function run({ globals, args }: CommandLine, context: OutboxCommandContext): Promise<number> {
  const { io } = context;
  const { values, positionals } = parseFlags(args, options, 'kioskctl outbox --help');
  if (values.help) {
    io.stdout(outboxUsage);
    return outboxExitCodes.ok;
  }
  const [command, ...rest] = positionals;
  if (command === undefined || !Object.hasOwn(commandFlags, command)) {
    throw new CommandError(
      'USAGE',
      command === undefined
        ? 'missing outbox command (kioskctl outbox --help)'
        : `unknown outbox command "${command}"`,
    );
  }
  refuseFlagsBeyond(values, commandFlags[command]!, `outbox ${command}`);
  const takesId = command === 'show' || command === 'cancel';
  if (rest.length > (takesId ? 1 : 0))
    throw new CommandError('USAGE', `unexpected argument "${rest[takesId ? 1 : 0]}"`);

  const dataDir = dataDirOf(globals, io.env, context.dataDir);
  const logger = loggerFor(globals, io, 'kioskctl.outbox');
  // The kiosk app's settings and profile, by its own rules (the commands that do not write a
  // body nor read the service load no profile: a broken one does not hide the rows).
  const saved = savedSettings(dataDir, logger);
  const profileInUse = once(() => profileOf(globals, io.env, saved.profilePath));
  const sendsOrReads = command === 'enqueue' || command === 'drain' || command === 'resume';
  if (sendsOrReads) profileInUse();
  const connectSettings = (): ConnectSettings => ({
    globals: withSavedBaseUrl(globals, saved.apiBaseUrl),
    env: io.env,
    logger,
    profile: profileInUse().profile,
  });
  const connect = () => (context.connect ?? connectWithClient)(connectSettings());
  const setup: OutboxSetup = {
    context,
    profile: () => profileInUse().profile,
    // The limits the kiosk app applies: its defaults, then what an administrator saved.
    limits: { ...context.limits, ...savedOfflineLimits(dataDir, logger) },
    // The shop the app writes in every body: Setup's choice, else the deployment's.
    shopId: saved.shopId !== undefined ? saved.shopId : nonEmpty(io.env['KIOSK_SHOP_ID']),
  };
  const said = () => ({ profile: profileReport(profileInUse()) });

  // Validate what needs no database before opening it.
  const id = takesId ? parseId(rest[0]) : undefined;
  const reportDate = command === 'report' ? parseDate(required(values.date, '--date')) : undefined;
  const db = openDatabase({ dataDir, schema: kioskSchema });
  let connection: ApiConnection | undefined;
  try {
    switch (command) {
      case 'enqueue': {
        const giftCardId = parseCardId(required(values.card, '--card'));
        const amount = parseAmount(required(values.amount, '--amount'));
        const policy = parsePolicy(values.policy);
        const requestId = parseRequestId(values['request-id']);
        const waitMs = values.wait === undefined ? undefined : parseSeconds(values.wait, '--wait');
        // The service is probed whenever it is configured, --wait or not: the card checks and
        // limits are the app's either way, and a reachable service gives the card's balance now.
        connection =
          waitMs !== undefined || policy === 'require_online'
            ? await connect()
            : await connectIfConfigured(connect, connectSettings().globals, io.env, logger);
        const outbox = makeOutbox(db, setup, connection?.connectivity);
        if (connection !== undefined) {
          await connection.check();
          if (connection.connectivity() === 'online') {
            await readCard(connection, outbox, giftCardId, logger);
          }
        }
        const { debit, replayed } = outbox.enqueue({
          giftCardId,
          amount,
          policy,
          ...(values.reference === undefined
            ? {}
            : { reference: parseReference(values.reference) }),
          ...(requestId === undefined ? {} : { requestId }),
          // Without --wait nobody waits for the answer: stored offline from the commit, so the
          // offline limits apply before it, whatever the connectivity.
          waitMs: waitMs ?? 0,
        });
        // The commit is done: this line is the receipt a script may rely on.
        io.stdout(
          `${JSON.stringify({
            id: debit.id,
            idempotencyKey: debit.idempotencyKey,
            requestId: debit.requestId,
            state: debit.state,
            replayed,
            ...said(),
          })}\n`,
        );
        if (isSettled(debit.state)) {
          // A debit already stored and settled: its outcome, as --wait would have printed it.
          io.stdout(`${JSON.stringify({ outcome: debitView(debit) })}\n`);
          if (isWithdrawn(debit)) {
            throw new OutboxError('OUTBOX_LIMIT_EXCEEDED', debit.lastErrorMessage ?? 'withdrawn');
          }
          if (waitMs === undefined) return outboxExitCodes.ok;
          return debit.state === 'applied' ? outboxExitCodes.ok : outboxExitCodes.apiError;
        }
        if (waitMs === undefined || connection === undefined) return outboxExitCodes.ok;
        const sender = new OutboxSender({
          outbox,
          gateway: connection.gateway,
          logger,
          ...context.sender,
        });
        sender.start();
        try {
          // Over an offline limit without its answer: withdrawn (exit 6) while nothing of it
          // reached the service, else held for a person (OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN, exit
          // 4); never "accepted".
          const outcome = await outbox.awaitAnswer(debit.id, waitMs);
          io.stdout(`${JSON.stringify({ outcome: debitView(outcome.debit) })}\n`);
          if (outcome.debit.state === 'applied') return outboxExitCodes.ok;
          if (isSettled(outcome.debit.state)) return outboxExitCodes.apiError;
          // Open still: held, or waiting. Never presented as done: say why, in the service's words.
          io.stderr(`${JSON.stringify({ error: notAppliedError(outcome.debit) })}\n`);
          return outboxExitCodes.notApplied;
        } finally {
          await sender.stop();
        }
      }
      case 'drain': {
        const untilEmpty = values['until-empty'] ?? false;
        const timeoutMs =
          values.timeout === undefined ? 60_000 : parseSeconds(values.timeout, '--timeout');
        connection = await connect();
        const outbox = makeOutbox(db, setup, connection.connectivity);
        const sender = new OutboxSender({
          outbox,
          gateway: connection.gateway,
          logger,
          ...context.sender,
        });
        const report = await sender.drain({ untilEmpty, timeoutMs });
        io.stdout(`${JSON.stringify({ ...report, ...said() })}\n`);
        return drainExitCode(report, untilEmpty);
      }
      case 'resume': {
        const timeoutMs =
          values.timeout === undefined ? 60_000 : parseSeconds(values.timeout, '--timeout');
        connection = await connect();
        const outbox = makeOutbox(db, setup, connection.connectivity);
        // Rebuilt first: committed whether or not this process gets to send them (the kiosk
        // app, holding the lease, sends them once resumed there). Only the rows held for their
        // body or scope (and those never sent): never one waiting for a retry.
        const { rebuilt, newKeys, debits, withheld } = outbox.rebuildBodies();
        const sender = new OutboxSender({
          outbox,
          gateway: connection.gateway,
          logger,
          ...context.sender,
        });
        const report = await sender.drain({ untilEmpty: false, timeoutMs });
        io.stdout(
          `${JSON.stringify({ ...said(), rebuilt, newKeys, debits, withheld, drain: report })}\n`,
        );
        return drainExitCode(report, false);
      }
      case 'list': {
        const state = values.state === undefined ? undefined : parseState(values.state);
        const outbox = makeOutbox(db, setup);
        const debits = outbox.list(state === undefined ? {} : { state });
        const views = debits.map((debit) => debitView(debit, outbox.keyHistory(debit.id)));
        io.stdout(`${JSON.stringify({ debits: views })}\n`);
        return outboxExitCodes.ok;
      }
      case 'show': {
        const outbox = makeOutbox(db, setup);
        io.stdout(`${JSON.stringify(debitView(outbox.get(id!), outbox.keyHistory(id!)))}\n`);
        return outboxExitCodes.ok;
      }
      case 'cancel': {
        io.stdout(`${JSON.stringify(debitView(makeOutbox(db, setup).cancel(id!)))}\n`);
        return outboxExitCodes.ok;
      }
      case 'report': {
        const debits = makeOutbox(db, setup).acceptedOn(reportDate!);
        io.stdout(
          `${JSON.stringify({ date: reportDate, debits: debits.map((debit) => debitView(debit)) })}\n`,
        );
        return outboxExitCodes.ok;
      }
      default:
        throw new CommandError('USAGE', `unknown outbox command "${command}"`);
    }
  } finally {
    connection?.close();
    db.close();
  }
}

/** What every outbox of one command is built with: the kiosk app's settings and profile. */
interface OutboxSetup {
  readonly context: OutboxCommandContext;
  readonly profile: () => IntegrationProfile;
  readonly limits: Partial<OfflineLimits>;
  readonly shopId: string | null | undefined;
}

/** The outbox as the app builds it: the bodies it writes are in the profile's shape. */
function makeOutbox(
  db: KioskDatabase,
  setup: OutboxSetup,
  connectivity?: () => ConnectivityStatus,
): Outbox {
  return new Outbox({
    db,
    ...(setup.context.clock ? { clock: setup.context.clock } : {}),
    limits: setup.limits,
    ...(connectivity ? { connectivity } : {}),
    ...(setup.shopId == null ? {} : { shopId: setup.shopId }),
    profile: setup.profile,
  });
}

/**
 * The service when it is configured (a base URL, an account), probed by the caller; undefined
 * when it is not, or its configuration is refused: a debit may be accepted with the network
 * down, checked against what the kiosk last read.
 */
async function connectIfConfigured(
  connect: () => Promise<ApiConnection>,
  globals: GlobalFlags,
  env: Io['env'],
  logger: Logger,
): Promise<ApiConnection | undefined> {
  try {
    if (apiBaseUrl(globals, env) === undefined) return undefined;
    return await connect();
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    logger.warn('kioskctl.outbox.not_probed', { code: error.code, message: error.message });
    return undefined;
  }
}

/**
 * The card as the service has it now, kept as the app keeps a card staff looked up: the card
 * checks then judge the debit against this balance. A read that fails leaves the last one.
 */
async function readCard(
  connection: ApiConnection,
  outbox: Outbox,
  giftCardId: string,
  logger: Logger,
): Promise<void> {
  if (connection.readCard === undefined) return;
  try {
    outbox.recordCard(await connection.readCard(giftCardId));
  } catch (error) {
    logger.warn('kioskctl.outbox.card_unread', {
      code: isCommerceApiError(error) ? error.code : 'UNEXPECTED',
    });
  }
}

/** `work` run once, on first use, its result (or its error) kept. */
function once<T>(work: () => T): () => T {
  let done: { value: T } | undefined;
  return () => (done ??= { value: work() }).value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A request id as a technician passes it: a UUID v4 (any case), checked before anything is opened. */
function parseRequestId(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!DebitRequestId.safeParse(text).success)
    throw new CommandError('USAGE', `--request-id expects a UUID v4, got "${text}"`);
  return text.toLowerCase();
}

/** Why a debit the wait ended on is not applied: its held reason, or the last answer it had. */
function notAppliedError(debit: OutboxDebit): {
  code: 'DEBIT_NOT_APPLIED';
  message: string;
  heldReason: string | null;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
} {
  const held = heldReasonOf(debit);
  const answer =
    debit.lastErrorCode === null
      ? 'no answer from the service yet'
      : `the service answered ${debit.lastErrorCode}${debit.lastErrorMessage ? `: ${debit.lastErrorMessage}` : ''}`;
  const message =
    held !== null
      ? `debit ${debit.id} is held (${held.code}), not applied: ${answer}`
      : `debit ${debit.id} is still pending (stored offline, ${debit.attempts} attempt${debit.attempts === 1 ? '' : 's'}), not applied: ${answer}`;
  return {
    code: 'DEBIT_NOT_APPLIED',
    message,
    heldReason: held?.code ?? null,
    lastErrorCode: debit.lastErrorCode,
    lastErrorMessage: debit.lastErrorMessage,
  };
}

function drainExitCode(report: DrainReport, untilEmpty: boolean): number {
  switch (report.result) {
    case 'empty':
    case 'idle':
      return outboxExitCodes.ok;
    case 'paused':
    case 'held':
      return outboxExitCodes.apiError;
    case 'lease-held':
      return outboxExitCodes.conflict;
    case 'timeout':
      return untilEmpty ? outboxExitCodes.network : outboxExitCodes.ok;
  }
}

/**
 * The debit as printed: times in ISO 8601, the body as the exact text sent; with `keys`, every
 * Idempotency-Key it was sent under (oldest first, the current one last) and its exact body.
 */
export function debitView(debit: OutboxDebit, keys?: readonly DebitKey[]): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: debit.id,
    idempotencyKey: debit.idempotencyKey,
    giftCardId: debit.giftCardId,
    amount: debit.amount,
    reference: debit.reference,
    state: debit.state,
    attempts: debit.attempts,
    policy: debit.policy,
    acceptedOffline: debit.acceptedOffline,
    createdAt: iso(debit.createdAt),
    firstAttemptAt: iso(debit.firstAttemptAt),
    lastAttemptAt: iso(debit.lastAttemptAt),
    nextAttemptAt: debit.state === 'pending' ? iso(debit.nextAttemptAt) : null,
    lastErrorCode: debit.lastErrorCode,
    lastErrorMessage: debit.lastErrorMessage,
    newBalance: debit.newBalance,
    reply: debit.reply,
    settledAt: iso(debit.settledAt),
    settledBy: debit.settledBy,
    requestId: debit.requestId,
    requestBody: debit.requestBody,
    heldReason: heldReasonOf(debit),
    ...(keys === undefined
      ? {}
      : {
          keys: keys.map((key) => ({
            idempotencyKey: key.idempotencyKey,
            requestBody: key.requestBody,
            firstUsedAt: iso(key.firstUsedAt),
            replacedAt: iso(key.replacedAt),
          })),
        }),
    staffResolution:
      debit.staffResolution === null
        ? null
        : {
            kind: debit.staffResolution.kind,
            method: debit.staffResolution.method,
            at: iso(debit.staffResolution.at),
          },
  };
}

async function connectWithClient(settings: ConnectSettings): Promise<ApiConnection> {
  const client = await connectApi(settings.globals, settings.env, {
    logger: settings.logger,
    retry: outboxClientRetry,
    timeouts: { responseMs: 15_000 },
    // A one-shot command has a single probe to judge by: unreachable once means offline.
    offlineAfter: 1,
  });
  return {
    gateway: createApiGateway(client, () => settings.profile),
    check: () => client.connectivity.check(),
    connectivity: connectivityOf(client),
    readCard: (giftCardId) => client.getGiftCard({ params: { giftCardId }, query: {} }),
    close: () => client.close(),
  };
}

/** The outbox's own failures; its line has never carried a status. */
function describeOutboxFailure(error: unknown): Failure {
  const { code, message, exitCode } = outboxFailure(error) ?? describeFailure(error);
  return { code, message, exitCode };
}

function outboxFailure(error: unknown): Failure | undefined {
  if (error instanceof StorageError)
    return { code: error.code, message: error.message, exitCode: outboxExitCodes.storage };
  if (error instanceof OutboxError) {
    const exitCode =
      error.code === 'OUTBOX_LIMIT_EXCEEDED' ||
      error.code === 'OUTBOX_OFFLINE' ||
      error instanceof OfflineCardRefused
        ? outboxExitCodes.notAccepted
        : error.code === 'OUTBOX_ANSWER_AWAITED' ||
            error.code === 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN'
          ? outboxExitCodes.network
          : error.code === 'OUTBOX_NOT_CANCELLABLE' || error.code === 'OUTBOX_INVALID_STATE'
            ? outboxExitCodes.conflict
            : outboxExitCodes.invalidRequest;
    return { code: error.code, message: error.message, exitCode };
  }
  if (isCommerceApiError(error)) {
    // Unlike `api`, any refusal by the service is "the API refused" here.
    const kind = error.kind;
    const exitCode =
      kind === 'NetworkError' || kind === 'Timeout'
        ? outboxExitCodes.network
        : kind === 'ContractViolation'
          ? outboxExitCodes.contractViolation
          : outboxExitCodes.apiError;
    return { code: error.code, message: error.message, exitCode };
  }
  return undefined;
}
