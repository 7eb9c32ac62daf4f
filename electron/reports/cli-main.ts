/**
 * The report CLI's work: find the data folder and its database, resolve the profile by name, read the
 * usage history (read only: the database, also the purchase ledger, is never migrated, moved aside,
 * created, rolled up or pruned here) and print the report as CSV or JSON.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { usageReportCsv } from '../../shared/usage-report-csv';
import { systemClock } from '../client/clock';
import { DEMO_PROFILES } from '../app/embedded-demo';
import { SETTINGS_FILE_NAME } from '../profiles';
import { openDatabaseReadOnly, STORE_FILE_NAME, USAGE_LEVELS, UsageStore } from '../store';
import { retentionOf } from '../usage/usage-service';
import { userConfigDir, defaultWebDataDir } from '../web/data-dir';
import { parseReportArgs, REPORT_USAGE } from './cli-args';
import { usageReportFrom } from './usage-report-source';

export interface ReportCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
  now?: () => number;
}

interface KnownProfile {
  id: string;
  name: string;
  vendor: string;
}

/** The desktop app's folder (shell/desktop.ts: appData/partner-console), then browser mode's. */
function candidateDirs(env: NodeJS.ProcessEnv): string[] {
  if (env.PARTNER_CONSOLE_DATA_DIR) return [env.PARTNER_CONSOLE_DATA_DIR];
  return [join(userConfigDir(process.platform, env), 'partner-console'), defaultWebDataDir(process.platform, env)];
}

/** Profiles of the settings file, read as is (never repaired or moved: the app owns that file). */
function readProfiles(dataDir: string): { profiles: KnownProfile[]; usageHistory: unknown } {
  const demo = DEMO_PROFILES.map(({ id, name, vendor }) => ({ id, name, vendor }));
  const path = join(dataDir, SETTINGS_FILE_NAME);
  if (!existsSync(path)) return { profiles: demo, usageHistory: undefined };
  const state = JSON.parse(readFileSync(path, 'utf8')) as { profiles?: Partial<KnownProfile>[]; settings?: { usageHistory?: unknown } };
  const profiles = (state.profiles ?? []).filter(
    (p): p is KnownProfile => typeof p.id === 'string' && typeof p.name === 'string' && typeof p.vendor === 'string',
  );
  return { profiles: [...profiles, ...demo], usageHistory: state.settings?.usageHistory };
}

export async function runReportCli(argv: readonly string[], io: ReportCliIo): Promise<number> {
  const parsed = parseReportArgs(argv, Intl.DateTimeFormat().resolvedOptions().timeZone);
  if (parsed.kind === 'help') {
    io.stdout.write(`${REPORT_USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`report: ${parsed.message}\n\n${REPORT_USAGE}\n`);
    return 2;
  }
  const options = parsed.options;
  const fail = (message: string): number => {
    io.stderr.write(`report: ${message}\n`);
    return 1;
  };

  const dirs = options.dataDir ? [resolve(io.cwd, options.dataDir)] : candidateDirs(io.env);
  const dataDir = dirs.find((dir) => existsSync(join(dir, STORE_FILE_NAME)));
  if (!dataDir) return fail(`No usage database (${STORE_FILE_NAME}) in ${dirs.join(' or ')}. Open the app once with history on, or give --data-dir.`);

  let known: ReturnType<typeof readProfiles>;
  try {
    known = readProfiles(dataDir);
  } catch (e) {
    return fail(`Cannot read the profiles in ${join(dataDir, SETTINGS_FILE_NAME)}: ${(e as Error).message}`);
  }
  const wanted = options.profile.toLowerCase();
  const matches = known.profiles.filter((p) => p.id === options.profile || p.name.toLowerCase() === wanted);
  if (matches.length !== 1) {
    const names = known.profiles.map((p) => `"${p.name}"`).join(', ');
    return fail(
      matches.length === 0
        ? `No profile named "${options.profile}". Profiles: ${names}.`
        : `${matches.length} profiles are named "${options.profile}": give the id instead (${matches.map((p) => p.id).join(', ')}).`,
    );
  }
  const profile = matches[0]!;

  const opened = openDatabaseReadOnly(dataDir, { tables: USAGE_LEVELS.map((l) => l.table) });
  if (!opened.db) return fail(opened.problem ?? `Cannot open ${opened.path}.`);
  const retention = retentionOf(known.usageHistory as Parameters<typeof retentionOf>[0]);
  const store = new UsageStore(opened.db, { clock: systemClock, retention });
  try {
    const report = usageReportFrom(
      { rows: (q) => store.read(q), now: io.now?.() ?? Date.now(), minuteRetentionMs: retention.minuteMs },
      {
        profileId: profile.id,
        profileName: profile.name,
        vendor: options.vendor ?? profile.vendor,
        fromMs: options.fromMs,
        toMs: options.toMs,
        timeZone: options.timeZone,
      },
    );
    const text = options.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : usageReportCsv(report);
    if (options.out) writeFileSync(resolve(io.cwd, options.out), text);
    else io.stdout.write(text);
    if (report.days.length === 0)
      io.stderr.write(`report: no usage stored for "${profile.name}" (${profile.vendor}) from ${options.fromDay} to ${options.toDay}.\n`);
    return 0;
  } catch (e) {
    return fail((e as Error).message);
  } finally {
    store.close();
    opened.db.close();
  }
}
