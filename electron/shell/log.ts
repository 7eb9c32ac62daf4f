import { tolerateClosedOutput } from '../cli-process';

/** The shell's one logger: to stderr with a prefix, so shell messages stand out from the services'. */
export type ShellLog = (message: string, detail?: unknown) => void;

export function createShellLog(prefix: string, sink: (line: string) => void = (line) => console.error(line)): ShellLog {
  return (message, detail) => {
    const suffix = detail === undefined ? '' : ` ${describe(detail)}`;
    sink(`[${prefix}] ${message}${suffix}`);
  };
}

function describe(detail: unknown): string {
  if (detail instanceof Error) return detail.stack ?? `${detail.name}: ${detail.message}`;
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}

/**
 * Logs what would otherwise kill the process (an exception nobody caught, a promise nobody awaited)
 * and keeps it running: a bug in one call must not take the whole app down. Returns a remover.
 */
const guarded = new WeakSet<NodeJS.EventEmitter>();

export function installCrashGuards(log: ShellLog, target: NodeJS.EventEmitter = process): () => void {
  // Once per process: a second start-up (tests, a re-created shell) must not stack handlers.
  if (guarded.has(target)) return () => {};
  guarded.add(target);
  // A closed stderr would otherwise throw on every line logged here, each failure logged again.
  if (target === process) tolerateClosedOutput();
  const onException = (error: unknown) => log('uncaught exception (the process keeps running)', error);
  const onRejection = (reason: unknown) => log('unhandled promise rejection (the process keeps running)', reason);
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
    guarded.delete(target);
  };
}
