/** What the catalog command line shows: the progress bar or lines on stderr, the summary, the failure line. */
import { hideUrlCredentials } from '../../shared/base-url';
import type { ErrorData } from '../../shared/errors';
import type { CatalogProgress } from './progress';

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

function figures(p: CatalogProgress): string[] {
  const items = p.total === null ? `${p.items} items` : `${p.items}/${p.total} items`;
  const parts = [items, `${p.pages} pages`, `${p.requestsPerSecond.toFixed(1)} req/s`, `waited ${(p.waitedMs / 1000).toFixed(1)}s`, `429s ${p.rateLimited}`];
  if (p.etaSeconds !== null && p.state === 'running') parts.push(`ETA ${formatDuration(p.etaSeconds)}`);
  if (p.sharing) parts.push(p.sharing.message);
  return parts;
}

/**
 * One line for a terminal, redrawn in place: a bar and the percent where the total is known. On a
 * narrow terminal the bar goes first, so that the figures still fit on one line.
 */
export function formatProgressBar(p: CatalogProgress, columns = 80): string {
  const tail = figures(p).join('  ');
  const max = Math.max(20, columns - 1);
  if (p.percent === null) return fit(`catalog  ${tail}`, max);
  const percent = `${p.percent.toFixed(1).padStart(5)}%`;
  const width = 20;
  const filled = Math.round((p.percent / 100) * width);
  const withBar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}  ${tail}`;
  return withBar.length <= max ? withBar : fit(`${percent}  ${tail}`, max);
}

/** A plain progress line for logs (stderr not a terminal). */
export function formatProgressLine(p: CatalogProgress): string {
  const percent = p.percent === null ? '' : ` (${p.percent.toFixed(1)}%)`;
  return `catalog: ${p.state}${percent}, ${figures(p).join(', ')}`;
}

function fit(line: string, max: number): string {
  return line.length > max ? line.slice(0, max) : line;
}

/** The one JSON object printed on stdout at the end. */
export function summaryJson(p: CatalogProgress): Record<string, unknown> {
  const summary: Record<string, unknown> = {
    state: p.state,
    out: p.out,
    format: p.format,
    resumed: p.resumed,
    items: p.items,
    items_this_run: p.itemsThisRun,
    pages: p.pages,
    total: p.total,
    bytes: p.bytes,
    requests: p.requests,
    statuses: p.statuses,
    rate_limited: p.rateLimited,
    seconds: Math.round(p.elapsedMs / 10) / 100,
    waited_seconds: Math.round(p.waitedMs / 10) / 100,
    requests_per_second: p.elapsedMs > 0 ? Math.round((p.requests * 100_000) / p.elapsedMs) / 100 : 0,
    checkpoint: p.checkpoint,
  };
  if (p.error) summary.error = { code: p.error.code, message: p.error.message, ...(p.error.status === undefined ? {} : { status: p.error.status }) };
  return summary;
}

/** One line that says what went wrong and what to do, for stderr. */
export function failureMessage(error: ErrorData, raw: { baseUrl: string; vendor: string; saved?: number }): string {
  // Never a credential on screen, whatever URL got this far.
  const context = { ...raw, baseUrl: hideUrlCredentials(raw.baseUrl) };
  const again = context.saved ? ` ${context.saved} items are saved: rerun with --resume to continue.` : '';
  switch (error.code) {
    case 'NETWORK':
    case 'TIMEOUT':
      return `catalog: cannot reach the Partner service at ${context.baseUrl} (${error.message}). Is it running?${again}`;
    case 'UNAUTHORIZED':
      return `catalog: the service at ${context.baseUrl} refused the token (401 Unauthorized) for vendor "${context.vendor}": check --token.`;
    case 'RATE_LIMITED':
      return `catalog: the service kept answering 429 Too Many Requests (${error.message}).${again}`;
    case 'SERVER_ERROR':
      return `catalog: the service at ${context.baseUrl} failed: ${error.message}.${again}`;
    default: {
      const hint = error.hint ? ` ${error.hint}` : '';
      return `catalog: ${error.message}${hint}${again}`;
    }
  }
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** A bar redrawn in place on a terminal; otherwise a plain line at most every `lineIntervalMs`. */
export class ProgressReporter {
  private lastLineAt = Number.NEGATIVE_INFINITY;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
    private readonly lineIntervalMs = 2_000,
  ) {}

  update(p: CatalogProgress): void {
    if (this.stream.isTTY) {
      this.stream.write(`\r${formatProgressBar(p, this.stream.columns || 80)}\x1b[K`);
      this.drawn = true;
      return;
    }
    if (p.state !== 'running') return;
    const t = this.now();
    if (t - this.lastLineAt < this.lineIntervalMs) return;
    this.lastLineAt = t;
    this.stream.write(`${formatProgressLine(p)}\n`);
  }

  /** The last figures, then the cursor on a fresh line. */
  finish(p: CatalogProgress): void {
    if (this.stream.isTTY) {
      this.stream.write(`\r${formatProgressBar(p, this.stream.columns || 80)}\x1b[K\n`);
    } else {
      this.stream.write(`${formatProgressLine(p)}\n`);
    }
    this.drawn = false;
  }

  /** Ends a bar line before another message is written to the same stream. */
  breakLine(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
