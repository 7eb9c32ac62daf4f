/** The report CLI on a real database file seeded through the app's own store (LocalStore.openUsage, UsageStore.record). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReportCli } from '../../electron/reports/cli-main';
import { LocalStore } from '../../electron/store';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import type { UsageReport } from '../../shared/bridge/report-schemas';
import { REPORT_CLI_BUNDLE } from '../helpers/cli-bundles';

const NOW = Date.parse('2026-11-21T12:00:00Z');
let dir: string;

function sample(endpoint: BudgetSample['endpoint'], iso: string, status: number, limit: number, remaining: number, waitedMs = 0): BudgetSample {
  const at = Date.parse(iso);
  return {
    vendor: 'acme',
    endpoint,
    at,
    serverSecond: Math.floor(at / 1000) * 1000,
    status,
    limit,
    remaining,
    reset: 1,
    latencyMs: 40,
    waitedMs,
    attempt: 1,
    headerProblems: [],
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-cli-'));
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      version: 1,
      activeId: null,
      settings: {},
      profiles: [
        {
          id: 'p-acme',
          name: 'Acme Books',
          vendor: 'acme',
          baseUrl: 'https://api.acme.test',
          tokens: [],
          tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
          pageSizeParam: 'per-page',
          idField: 'id',
          createdAt: 0,
          updatedAt: 0,
        },
      ],
    }),
  );
  const clock: Clock = { now: () => NOW, setTimeout: () => 0, clearTimeout: () => undefined };
  const local = new LocalStore(dir);
  // Minutes kept 60 days while seeding: the 1 November rows exist as minutes AND hours; the report must count them once.
  const usage = local.openUsage({ clock, retention: { minuteMs: 60 * 86_400_000 } })!;
  usage.record('p-acme', sample('listAssets', '2026-11-20T09:00:05.100Z', 200, 10, 6));
  usage.record('p-acme', sample('listAssets', '2026-11-20T09:00:05.300Z', 200, 10, 2, 100));
  usage.record('p-acme', sample('listAssets', '2026-11-20T09:00:05.500Z', 429, 10, 0, 300), 1);
  usage.record('p-acme', sample('listAssets', '2026-11-20T09:00:05.700Z', 200, 10, 5));
  usage.record('p-acme', sample('searchAssets', '2026-11-20T14:30:10Z', 200, 5, 4));
  usage.record('p-acme', sample('searchAssets', '2026-11-20T14:30:11Z', 200, 5, 4));
  for (const s of [0, 1, 2]) usage.record('p-acme', sample('listAssets', `2026-11-01T10:00:0${s}Z`, 200, 10, 9));
  usage.record('someone-else', { ...sample('listAssets', '2026-11-20T09:00:05Z', 200, 10, 1), vendor: 'other' });
  usage.downsample(NOW);
  local.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runReportCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: {},
    cwd: dir,
    now: () => NOW,
  });
  return { code, stdout, stderr };
}

describe('npm run report', () => {
  it('prints the per endpoint and day CSV of the profile, hours older than the minute retention counted once', async () => {
    const { code, stdout, stderr } = await run(
      '--profile',
      'acme books',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-20',
      '--time-zone',
      'UTC',
      '--data-dir',
      dir,
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\r\n')).toEqual([
      'day,endpoint,requests,mean_use_pct,peak_use_pct,our_429s,our_429s_explained_by_others,others_requests_inferred,other_failures,wait_mean_ms,wait_p95_ms,held_back_pct,mean_use_measure,mean_use_ours_pct',
      '2026-11-01,listAssets,3,10.0,10.0,0,0,0,0,0.0,0.0,0.0,per_second,10.0',
      // 09:00:05 served 3 of its 10 (the 429 took none): 30%, not the mean of 1 - Remaining/Limit over the 4 answers (67.5%).
      '2026-11-20,listAssets,4,35.0,100.0,1,1,1,0,100.0,100.0,0.7,per_second,30.0',
      '2026-11-20,searchAssets,2,20.0,20.0,0,0,0,0,0.0,0.0,0.0,per_second,20.0',
      '',
    ]);
  });

  it('writes the whole report as JSON with --out', async () => {
    const { code } = await run(
      '--profile',
      'p-acme',
      '--from',
      '2026-11-20',
      '--format',
      'json',
      '--out',
      'r.json',
      '--time-zone',
      'Europe/Berlin',
      '--data-dir',
      '.',
    );
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as UsageReport;
    expect(report).toMatchObject({ profileId: 'p-acme', profileName: 'Acme Books', vendor: 'acme', timeZone: 'Europe/Berlin', hourlyBeforeMs: null });
    expect(report.fromMs).toBe(Date.parse('2026-11-19T23:00:00Z'));
    expect(report.busiestMinutes[0]).toEqual({ startMs: Date.parse('2026-11-20T09:00:00Z'), requests: 4, throttled: 1, peakUse: 1, topEndpoint: 'listAssets' });
    // Hours of day in Berlin: 09:00Z is 10 o'clock there.
    expect(report.heatMap.find((c) => c.endpoint === 'listAssets')).toMatchObject({ hour: 10, requests: 4, peakUse: 1 });
  });

  it('says so, exit 1, for an unknown profile or no database', async () => {
    const unknown = await run('--profile', 'Nobody', '--from', '2026-11-20', '--data-dir', dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No profile named "Nobody"\. Profiles: "Acme Books", "Built-in demo service", "Built-in demo service: acme"\./);
    const empty = mkdtempSync(join(tmpdir(), 'report-empty-'));
    const none = await run('--profile', 'demo', '--from', '2026-11-20', '--data-dir', empty);
    rmSync(empty, { recursive: true, force: true });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/No usage database \(partner-console\.db\) in .*report-empty-/);
  });

  it('refuses bad flags with exit 2 and the usage', async () => {
    for (const argv of [
      ['--profile', 'demo', '--from', '2026-02-30'],
      ['--profile', 'demo', '--from', '20.11.2026'],
      ['--profile', 'demo', '--from', '2026-11-20', '--to', '2026-11-19'],
      ['--profile', 'demo', '--from', '2026-11-20', '--format', 'xlsx'],
      ['--from', '2026-11-20'],
      ['--profile', 'demo', '--from', '2026-11-20', '--time-zone', 'Mars/Olympus'],
    ]) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^report: .+\n\nUsage: npm run report/);
    }
    expect((await run('--profile', 'demo', '--from', '2026-02-30')).stderr).toContain('"2026-02-30" is not a date: write it as YYYY-MM-DD');
  });

  it('runs as its own process with exit codes', () => {
    const ok = spawnSync(process.execPath, [REPORT_CLI_BUNDLE, '--profile', 'Acme Books', '--from', '2026-11-20', '--time-zone', 'UTC', '--data-dir', dir], {
      encoding: 'utf8',
    });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('2026-11-20,listAssets,4,35.0,100.0,1,1,1,0,100.0,100.0,0.7,per_second,30.0');
    const bad = spawnSync(process.execPath, [REPORT_CLI_BUNDLE, '--profile', 'x', '--from', 'yesterday'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
  }, 30_000);
});
