/**
 * `npm run bench -- --only history` (issue 12 §1): the usage history's write cost per sample, its size
 * on disk after 14 simulated days of full demo traffic on all 10 endpoints, and the read latency per
 * range for all 10 endpoints. Days pass on a manual clock: minutes of traffic are written as ready
 * aggregates through the store's own API (recordAggregate), the last hour as per-second rows, and
 * the store's own schedule flushes, rolls up and drops what is past its retention.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ENDPOINT_LIST } from '../../shared/endpoints';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import { LocalStore } from '../../electron/store';
import { DEFAULT_USAGE_RETENTION } from '../../electron/store';
import { readHistory } from '../../electron/usage/history-query';
import { syntheticAggregate } from '../../electron/usage/synthetic-usage';
import type { BudgetSample } from '../../shared/rate-limit';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const DAYS = 14;
/** Full demo traffic: every endpoint at its whole limit. */
const SHARE = 1;
const PROFILE = 'bench';
const VENDOR = 'demo';
const READS = 40;

const RANGES = [
  { label: '1 h', ms: HOUR },
  { label: '6 h', ms: 6 * HOUR },
  { label: '24 h', ms: DAY },
  { label: '7 d', ms: 7 * DAY },
  { label: '14 d', ms: 14 * DAY },
  { label: '30 d', ms: 30 * DAY },
];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

export async function historyBench(): Promise<void> {
  console.log('\n## Usage history (SQLite, per-second 1 h / per-minute 14 d / per-hour 400 d)\n');
  const dir = mkdtempSync(join(tmpdir(), 'history-bench-'));
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const clock = new ManualClock(end - DAYS * DAY);
  const local = new LocalStore(dir);
  const usage = local.openUsage({ clock })!;
  const perSecond = ENDPOINT_LIST.reduce((n, e) => n + e.limit * SHARE, 0);
  try {
    // 14 days less the last hour: one aggregate per endpoint and minute, the clock stepping a minute.
    const t0 = performance.now();
    while (clock.now() < end - HOUR) {
      const minute = clock.now();
      for (const spec of ENDPOINT_LIST)
        usage.recordAggregate({ profileId: PROFILE, vendor: VENDOR, endpoint: spec.id }, minute, syntheticAggregate(spec, 60, { share: SHARE }));
      await clock.advance(MINUTE);
    }
    const simulateS = (performance.now() - t0) / 1000;

    // The last hour as real samples, every one through record(): the write cost per sample.
    let samples = 0;
    let recordMs = 0;
    let flushMs = 0;
    while (clock.now() < end) {
      const second = clock.now();
      const r0 = performance.now();
      for (const spec of ENDPOINT_LIST) {
        for (let i = 0; i < spec.limit * SHARE; i++) {
          const sample: BudgetSample = {
            vendor: VENDOR,
            endpoint: spec.id,
            at: second + i,
            serverSecond: second,
            status: 200,
            limit: spec.limit,
            remaining: spec.limit - i - 1,
            reset: 0,
            latencyMs: 20 + ((i * 37) % 180),
            waitedMs: i % 5,
            attempt: 1,
            headerProblems: [],
          };
          usage.record(PROFILE, sample);
          samples += 1;
        }
      }
      const r1 = performance.now();
      await clock.advance(SECOND); // the store's flush timer (and each minute its roll-up) runs here
      recordMs += r1 - r0;
      flushMs += performance.now() - r1;
    }
    usage.flush();

    const reads = RANGES.map((range) => {
      const times: number[] = [];
      let points = 0;
      let level = '';
      for (let i = 0; i < READS; i++) {
        const q0 = performance.now();
        const h = readHistory(usage, { profileId: PROFILE, vendor: VENDOR, fromMs: end - range.ms, toMs: end }, clock.now(), DEFAULT_USAGE_RETENTION);
        times.push(performance.now() - q0);
        points = h.points.length;
        level = `${h.level}, ${h.bucketMs / MINUTE >= 60 ? `${h.bucketMs / HOUR} h` : h.bucketMs >= MINUTE ? `${h.bucketMs / MINUTE} min` : `${h.bucketMs / SECOND} s`} points`;
      }
      times.sort((a, b) => a - b);
      return { range: range.label, level, points, p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
    });

    // Size on disk once closed: the last connection folds the write-ahead log into the file.
    local.close();
    const bytes = dirBytes(dir);

    const writeUs = ((recordMs + flushMs) * 1000) / samples;
    console.log(
      `Traffic: all 10 endpoints at ${SHARE * 100}% of their limits (${perSecond} requests/s), ${DAYS} simulated days (simulated in ${simulateS.toFixed(1)} s).\n`,
    );
    console.log('| figure | value | goal |');
    console.log('|---|---:|---|');
    console.log(
      `| write cost per sample (record + its share of the 1/s flush), ${samples} samples | ${writeUs.toFixed(2)} µs (record ${((recordMs * 1000) / samples).toFixed(2)} µs) | never blocks the client |`,
    );
    console.log(`| flush, one transaction a second (mean) | ${(flushMs / (samples / perSecond)).toFixed(2)} ms | |`);
    console.log(`| size on disk after ${DAYS} days | ${(bytes / 1024 / 1024).toFixed(1)} MB | <= 200 MB ${bytes <= 200 * 1024 * 1024 ? 'met' : 'MISSED'} |`);
    console.log('\n| range (10 endpoints) | level read | points | read p50 | read p95 | goal p95 <= 100 ms |');
    console.log('|---|---|---:|---:|---:|---|');
    for (const r of reads)
      console.log(`| ${r.range} | ${r.level} | ${r.points} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.p95 <= 100 ? 'met' : 'MISSED'} |`);
    writeFileSync('bench-results/history.json', JSON.stringify({ samples, writeUs, bytes, reads, simulateS }, null, 2));
  } finally {
    local.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
