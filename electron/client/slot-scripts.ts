/**
 * The Lua scripts of the Redis slot store, run atomically by Redis on its own clock (one per
 * reservation, as redis-cell does), and their commands' types on ioredis.
 */
import type { Result } from 'ioredis';

/**
 * A worker's pace counts until this long after its latest slot (or two of its own intervals, for a slow pace;
 * at most MAX_SLOT_WAIT_MS): it asks again once that slot's answer is read, which a slow service may take
 * seconds to send. A gone worker's pace counting a little longer only keeps the schedule nearer the limit.
 */
export const PACE_KEPT_MS = 5_000;

/** How long a worker's pace counts after its slot: PACE_KEPT_MS, or two of its intervals at a slow pace. */
export function paceKeptMs(pace: number, mostMs: number): number {
  return Math.min(mostMs, Math.max(PACE_KEPT_MS, pace > 0 ? 2000 / pace : 0));
}

/** How long a per-second count outlives its second: the longest fleetUse window (300 s) and a margin. */
export const COUNT_KEEP_MS = 310_000;

/** 2^52 ms (about 140,000 years): a stored time this far from zero, or NaN, is not one; as a reset: the stored value was not a time. */
export const NOT_A_TIME = 2 ** 52;

/** Workers whose paces one key keeps: far past any fleet; more is another writer's flood. */
const MOST_PACES = 1_000;

/** The most slots one key is counted for in a second: far past any service's limit, and exact as text. */
const MOST_COUNT = 1e9;

/**
 * A stored per-second count we can use, or 0: text, NaN, infinities, fractions, negatives and values
 * past MOST_COUNT are another writer's, never a negative or endless use in the views.
 */
const COUNT_LUA = `
local function count(v)
  local x = tonumber(v)
  if x and x >= 0 and x < ${MOST_COUNT} and x == math.floor(x) then return x end
  return 0
end`;

/**
 * GCRA without burst: slots (1000 + spread) / limit ms apart on Redis's clock, so that no second
 * (whatever its alignment on the service) holds more than `limit` of the fleet's requests while each
 * reaches the service within `spread` ms of its slot. The spread adapts (see Spacing): it is kept
 * per key beside the TAT as { ms, at, widened }, narrows by ARGV[6] ms per second of Redis's clock
 * down to ARGV[4], and at most once a second a caller's report of a 429 (ARGV[3] = '1') doubles it
 * (at least to ARGV[7], at most ARGV[5]). A slot more than ARGV[8] ms away is not granted (nothing written). Returns { the wait, the spread, the reset (below), Redis's
 * clock } in whole ms (the clock tells a worker how late it read the answer: answer-lag.ts).
 * The granted slot is counted under `<key>:n:<second>` for the second it falls in. That second is
 * Redis's, not the worker's: the workers' clocks disagree, Redis's is the one every slot was
 * scheduled on, so each slot lands in exactly one second and the counts line up with the schedule.
 * (The count key is derived in the script from that clock, so it cannot be passed in KEYS: this
 * needs a single Redis, not a cluster, as the TAT key's script does.)
 * With a pace (ARGV[9], the caller's own fair-share pace; ARGV[10] the caller; ARGV[11] how long a pace counts
 * after its worker's latest slot) the slots are spaced by the sum of the live workers' paces where that is
 * under the limit (consumers outside the store spend the rest: machine-slot-store.ts says why), and the fifth
 * value returned is 1 then. Paces live in the hash `<key>:pace` as "pace:until"; anything else there is dropped.
 * A stored TAT ahead of Redis's clock is trusted only as a backlog of our own slots: one was counted
 * in the widest interval before it; otherwise (another writer, a key from a host whose clock was
 * ahead) it is reset to now and the third value says by how many ms (NOT_A_TIME: the stored value was
 * not a time; such values in the spread hash count as absent). When Redis's clock is behind
 * the one the key's last slot was granted on (a clock step back, a failover), the TAT moves back by
 * as much, so the fleet does not wait out the difference.
 */
export const GCRA_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local keep = tonumber(ARGV[2])
local floor, most, narrow, start = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
-- A stored number we can use, or nil: NaN, infinities and values past any clock (another writer, a bad edit)
-- count as absent. (NaN fails every comparison, and a second past 2^53 plus one is itself: a loop over it never ends.)
local function usable(v)
  local x = tonumber(v)
  if x and x == x and math.abs(x) < ${NOT_A_TIME} then return x end
  return nil
end
${COUNT_LUA}
-- Our hashes beside the key, as another program may have left them: a value of another type (a string, a list) would
-- fail every reservation with WRONGTYPE, so it goes.
local function ours(k)
  local t = redis.call('TYPE', k)['ok']
  if t ~= 'hash' and t ~= 'none' then redis.call('DEL', k) end
  return k
end
local sk = ours(KEYS[1] .. ':spread')
local s = redis.call('HMGET', sk, 'ms', 'at', 'widened')
local before = usable(s[2])
-- Kept within its bounds, and a widening stamped in the future (a clock step back, another writer) forgotten:
-- a stored value out of them would space slots wider than the backlog check below allows, or ignore 429s.
local spread = math.min(most, math.max(floor, usable(s[1]) or start))
local widened = usable(s[3]) or 0
if widened > now then widened = 0 end
spread = math.max(floor, spread - math.max(0, now - (before or now)) * narrow / 1000)
if ARGV[3] == '1' and now - widened >= 1000 then
  spread = math.min(most, math.max(start, spread * 2))
  widened = now
end
redis.call('HSET', sk, 'ms', tostring(spread), 'at', tostring(now), 'widened', tostring(widened))
redis.call('PEXPIRE', sk, keep)
-- The workers' paces: the schedule's rate where their sum is under the limit.
local rate = limit
local pk = ours(KEYS[1] .. ':pace')
local pace = ARGV[9] ~= '' and usable(ARGV[9]) or nil
-- How long this worker's pace counts after its slot (ARGV[11], at least: a slow pace's next request comes later).
local kept = tonumber(ARGV[11]) or 0
if pace and pace > 0 then kept = math.min(tonumber(ARGV[8]), math.max(kept, 2000 / pace)) end
if pace and pace >= 0 then
  pace = math.min(limit, pace)
  -- Another writer's flood of fields would make every reservation slow: start the hash afresh.
  if redis.call('HLEN', pk) > ${MOST_PACES} then redis.call('DEL', pk) end
  redis.call('HSET', pk, ARGV[10], tostring(pace) .. ':' .. tostring(now + kept))
  local all = redis.call('HGETALL', pk)
  local sum = 0
  for i = 1, #all, 2 do
    local p, u = string.match(all[i + 1], '^([^:]+):([^:]+)$')
    p, u = usable(p), usable(u)
    if p and u and p >= 0 and u > now and u <= now + 2 * tonumber(ARGV[8]) then sum = sum + math.min(limit, p)
    else redis.call('HDEL', pk, all[i]) end
  end
  redis.call('PEXPIRE', pk, keep)
  if sum > 0 then rate = math.min(limit, math.max(1, sum)) end
end
local paced = rate < limit and 1 or 0
local interval = (1000 + spread) / rate
local stored = redis.call('GET', KEYS[1])
local tat = usable(stored) or now
local reset = 0
if stored and not usable(stored) then
  -- Not a time at all: reset to now, said as NOT_A_TIME ms (the log tells it apart from a time ahead).
  reset = ${NOT_A_TIME}
elseif tat > now then
  -- A TAT ahead of now is a backlog of our own slots only if one was granted in the widest interval before it.
  local names = {}
  for sec = math.floor((tat - 1 - (1000 + most)) / 1000), math.floor((tat - 1) / 1000) do names[#names + 1] = KEYS[1] .. ':n:' .. sec end
  local led = false
  for _, c in ipairs(redis.call('MGET', unpack(names))) do if c then led = true end end
  if not led then
    reset = tat - now
    tat = now
  elseif before and before > now then
    -- Redis's clock went back (a step, a failover to a host behind): the schedule moves back with it.
    tat = tat - (before - now)
  end
end
if tat < now then tat = now end
-- A slot further off than anyone waits is refused unwritten: the caller goes on the headers and the schedule
-- drains in real time instead of being pushed further out by every refused request.
if tat - now > tonumber(ARGV[8]) then
  -- Unadvanced, but a reset or a clock step's shift is kept (marked as the fleet's own backlog at its new place,
  -- so the next call does not take it for another writer's); and the wait said is surely over the most.
  redis.call('SET', KEYS[1], tostring(tat), 'PX', math.ceil(tat - now) + 1000)
  local mark = math.floor((tat - 1) / 1000)
  redis.call('SET', KEYS[1] .. ':n:' .. mark, '0', 'NX', 'PX', (mark + 1) * 1000 - now + keep)
  return { math.max(math.ceil(tat - now), tonumber(ARGV[8]) + 1), math.floor(spread), math.floor(reset), now, paced }
end
local after = tat + interval
local second = math.floor(tat / 1000)
local n = KEYS[1] .. ':n:' .. second
-- Read before the TAT is written, through pcall (GET errors on a key of another type): a count that is not
-- ours restarts at this slot instead of failing the script with the TAT already moved.
local had = redis.pcall('GET', n)
if type(had) == 'table' then had = nil end
redis.call('SET', KEYS[1], tostring(after), 'PX', math.ceil(after - now) + 1000)
redis.call('SET', n, tostring(count(had) + 1), 'PX', (second + 1) * 1000 - now + keep)
-- Waiting for its slot, the worker is still here: its pace counts until it could ask again.
if pace and pace >= 0 then redis.call('HSET', pk, ARGV[10], tostring(pace) .. ':' .. tostring(tat + kept)) end
return { math.floor(tat - now), math.floor(spread), math.floor(reset), now, paced }
`;

/**
 * The counts of the last ARGV[1] complete seconds of Redis's clock for every key, in one round
 * trip: { first second, counts of key 1..., counts of key 2... }.
 */
export const GRANTED_SCRIPT = `
${COUNT_LUA}
local last = tonumber(redis.call('TIME')[1]) - 1
local n = tonumber(ARGV[1])
local first = last - n + 1
local out = { first }
for i = 1, #KEYS do
  local names = {}
  for s = first, last do names[#names + 1] = KEYS[i] .. ':n:' .. s end
  local counts = redis.call('MGET', unpack(names))
  for j = 1, n do out[#out + 1] = count(counts[j]) end
end
return out
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** GCRA_SCRIPT: [the wait, the spread, how far ahead a stored TAT was reset (0: none; NOT_A_TIME: it was not a time), Redis's clock] in ms for the slot granted under key, and 1 where the slots were spaced by the workers' paces. */
    reserveSlot(
      key: string,
      limit: string,
      keepMs: string,
      refused: '0' | '1',
      floorMs: string,
      mostMs: string,
      narrowMsPerS: string,
      startMs: string,
      maxWaitMs: string,
      pace: string,
      worker: string,
      paceKeptMs: string,
    ): Result<number[], Context>;
    /** GRANTED_SCRIPT: numkeys, keys..., seconds. */
    grantedCounts(numKeys: number, ...keysThenSeconds: string[]): Result<number[], Context>;
  }
}
