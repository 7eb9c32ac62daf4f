/**
 * Flags of the report CLI:
 *   npm run report -- --profile NAME --from DATE --to DATE [--format csv|json] [--data-dir DIR] [--out FILE]
 *                     [--vendor V] [--time-zone TZ]
 * Dates are calendar days (YYYY-MM-DD) in the time zone, --to included.
 */
import { isTimeZone, nextDay, startOfDay } from '../../shared/time-zone';

export const REPORT_USAGE = `Usage: npm run report -- --profile NAME --from YYYY-MM-DD --to YYYY-MM-DD [options]

The Usage report of one vendor profile over whole days (--to included), from the app's usage history.

  --profile NAME     the profile's name (or id); "demo" is the built-in demo service
  --from DATE        first day, YYYY-MM-DD
  --to DATE          last day, YYYY-MM-DD (default: --from)
  --format csv|json  csv: one row per endpoint and day; json: the whole report (default csv)
  --out FILE         write there instead of standard output
  --data-dir DIR     the app's data folder (default: the desktop app's, else browser mode's;
                     or PARTNER_CONSOLE_DATA_DIR)
  --vendor V         another vendor than the profile's
  --time-zone TZ     days and hours in this IANA zone (default: this computer's)

Exit codes: 0 done, 1 failed (no database, unknown profile, cannot write), 2 bad flags.`;

export interface ReportCliOptions {
  profile: string;
  fromDay: string;
  toDay: string;
  fromMs: number;
  /** Exclusive: the start of the day after --to. */
  toMs: number;
  format: 'csv' | 'json';
  out: string | null;
  dataDir: string | null;
  vendor: string | null;
  timeZone: string;
}

export type ParsedReportArgs = { kind: 'help' } | { kind: 'run'; options: ReportCliOptions } | { kind: 'error'; message: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text; // refuses 2026-02-30
}

export function parseReportArgs(argv: readonly string[], defaultTimeZone: string): ParsedReportArgs {
  const values = new Map<string, string>();
  const known = new Set(['--profile', '--from', '--to', '--format', '--out', '--data-dir', '--vendor', '--time-zone']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (!known.has(flag)) return { kind: 'error', message: `Unknown flag ${arg}.` };
    const value = inline ?? argv[++i];
    if (value === undefined || value.trim() === '' || (inline === undefined && value.startsWith('--')))
      return { kind: 'error', message: `${flag} needs a value.` };
    values.set(flag, value.trim());
  }
  const profile = values.get('--profile');
  if (!profile) return { kind: 'error', message: '--profile is required (the profile name as shown in Settings, or "demo").' };
  const fromDay = values.get('--from');
  if (!fromDay) return { kind: 'error', message: '--from is required (YYYY-MM-DD).' };
  const toDay = values.get('--to') ?? fromDay;
  for (const [flag, day] of [
    ['--from', fromDay],
    ['--to', toDay],
  ] as const) {
    if (!isDay(day)) return { kind: 'error', message: `${flag} "${day}" is not a date: write it as YYYY-MM-DD, e.g. 2026-11-20.` };
  }
  if (toDay < fromDay) return { kind: 'error', message: `--to ${toDay} is before --from ${fromDay}.` };
  const format = values.get('--format') ?? 'csv';
  if (format !== 'csv' && format !== 'json') return { kind: 'error', message: `--format must be csv or json, not "${format}".` };
  const timeZone = values.get('--time-zone') ?? defaultTimeZone;
  if (!isTimeZone(timeZone)) return { kind: 'error', message: `--time-zone "${timeZone}" is not a time zone (e.g. Europe/Berlin, UTC).` };
  const fromMs = startOfDay(fromDay, timeZone);
  const toMs = startOfDay(nextDay(toDay), timeZone);
  if (toMs - fromMs > 400 * 86_400_000) return { kind: 'error', message: 'A report covers at most 400 days.' };
  return {
    kind: 'run',
    options: {
      profile,
      fromDay,
      toDay,
      fromMs,
      toMs,
      format,
      timeZone,
      out: values.get('--out') ?? null,
      dataDir: values.get('--data-dir') ?? null,
      vendor: values.get('--vendor') ?? null,
    },
  };
}
