/**
 * One process of a fleet scenario: downloads the whole catalog (pages of `pageSize`) with its own
 * token of the vendor, like the catalog CLI, and prints one JSON line. A call that fails for good
 * ends the download (the CLI would exit): that is "gave up". Kinds: partner-console (headers only,
 * or with a Redis or the machine budget store), naive, bottleneck-redis (Bottleneck clustered through Redis).
 */
import { BudgetRegistry, PartnerClient, ScopeStores } from '../../electron/client';
import { bottleneckRedisClient, naiveClient } from './baselines';
import type { BenchClient } from './bench-client';
import type { WaitCauses } from '../../shared/wait-causes';

export interface FleetWorkerArgs {
  kind: 'partner-console' | 'naive' | 'bottleneck-redis';
  url: string;
  vendor: string;
  token: string;
  pageSize: number;
  /** redis://host:port/db or machine for the budget store (partner-console), or Bottleneck's datastore. */
  redis?: string;
  /** The machine store's folder (PARTNER_CONSOLE_STORE_DIR of the worker). */
  storeDir?: string;
}

/**
 * Sent by the bench once every worker has said it is ready (loaded, its client made): the epoch ms of this
 * worker's first request, so that uneven process start-up does not stagger the fleet.
 */
export interface FleetGo {
  startAt: number;
}

export interface FleetTally {
  pages: number;
  /** Epoch ms of the first request and of the last page. */
  startedAt: number;
  finishedAt: number;
  gaveUp: boolean;
  error?: string;
  /** Epoch ms of every page (for the per-second timeline, FLEET_TIMELINE=1). */
  pageTimes: number[];
  /** Every 429 this worker was answered (partner-console): when, and what its request waited for, to tell slots from headers. */
  refusals: Refusal[];
  /** Epoch ms of every reservation a budget store did not answer in time (the request went on the headers alone). */
  unslotted: number[];
}

export interface Refusal {
  at: number;
  /** The page it asked for (1: the worker's first request). */
  page: number;
  attempt: number;
  waitedMs: number;
  causes?: WaitCauses;
}

const args = JSON.parse(process.argv[2]!) as FleetWorkerArgs;

function partnerConsole(): BenchClient & { closeAsync(): Promise<void> } {
  const stores = new ScopeStores();
  const store = stores.take({ baseUrl: args.url, vendor: args.vendor }, args.redis, (line) => process.stderr.write(`  [worker] ${line}\n`));
  // Reservations the store did not answer in time: those requests went on the headers alone.
  const slotStore = store.store;
  if (slotStore) {
    const reserve = slotStore.reserve.bind(slotStore);
    slotStore.reserve = async (...a) => {
      const slot = await reserve(...a);
      if (slot === null) tally.unslotted.push(Date.now());
      return slot;
    };
  }
  const client = new PartnerClient({ baseUrl: args.url, vendor: args.vendor, tokens: [args.token], budgets: new BudgetRegistry(), stores });
  client.onSample((s) => {
    if (s.status === 429) tally.refusals.push({ at: s.at, page: tally.pages + 1, attempt: s.attempt, waitedMs: s.waitedMs, causes: s.waitCauses });
  });
  return {
    name: 'partner-console',
    async request(endpoint, call) {
      try {
        const res = await client.request(endpoint, { query: call.query, token: call.token, priority: 'background' });
        return { status: res.status, waitedMs: 0, body: res.body };
      } catch (e) {
        return { status: -1, waitedMs: 0, body: e instanceof Error ? e.message : String(e) };
      }
    },
    close: () => client.close(),
    closeAsync: async () => {
      client.close();
      store.release();
    },
  };
}

const tally: FleetTally = { pages: 0, startedAt: Date.now(), finishedAt: Date.now(), gaveUp: false, pageTimes: [], refusals: [], unslotted: [] };
const client: BenchClient & { closeAsync?: () => Promise<void> } =
  args.kind === 'partner-console'
    ? partnerConsole()
    : args.kind === 'naive'
      ? naiveClient(args.url)
      : bottleneckRedisClient(args.url, args.redis!, args.vendor);
// The bench gone (it failed or was stopped): nobody will say go, and a Redis connection would keep this process alive.
process.once('disconnect', () => process.exit(1));
// Ready means able to send: Node's fetch is loaded with the client's transport, and this opens the connection
// to the service (outside any budget). 16 processes opening theirs in the fleet's first second on 2 cores
// reached the service hundreds of ms after their slots: a cold start measured, not the pacing.
await fetch(`${args.url}/_sim/state`).then((r) => r.arrayBuffer());
const go = await new Promise<FleetGo>((resolve) => {
  process.once('message', (m) => resolve(m as FleetGo));
  process.send!({ ready: true });
});
await new Promise((r) => setTimeout(r, Math.max(0, go.startAt - Date.now())));
tally.startedAt = Date.now();
tally.finishedAt = tally.startedAt;
let lastId: number | null = null;
for (;;) {
  const query: Record<string, string | number> = { 'per-page': args.pageSize };
  if (lastId !== null) query.last_id = lastId;
  const outcome = await client.request('listAssets', { token: args.token, query });
  if (outcome.status !== 200) {
    tally.gaveUp = true;
    tally.error = `${outcome.status} ${typeof outcome.body === 'string' ? outcome.body : ''}`.slice(0, 200);
    break;
  }
  tally.pages++;
  tally.finishedAt = Date.now();
  tally.pageTimes.push(tally.finishedAt);
  const body = outcome.body as { items: { id: number }[]; has_more: boolean };
  const last = body.items.at(-1);
  if (!body.has_more || !last) break;
  lastId = last.id;
}
if (client.closeAsync) await client.closeAsync();
else client.close();
process.stdout.write(JSON.stringify(tally) + '\n');
process.exit(0);
