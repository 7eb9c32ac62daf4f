/** Opens a URL in the system browser, best effort: detached, output ignored, failures only logged. */
import { spawn } from 'node:child_process';

export type OpenDecision = { open: true; command: string; args: string[] } | { open: false; reason: string };

export function browserCommand(url: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): OpenDecision {
  if (platform === 'darwin') return { open: true, command: 'open', args: [url] };
  // `start` is a cmd built-in; the empty title keeps it from taking the URL as the window title.
  if (platform === 'win32') return { open: true, command: 'cmd', args: ['/c', 'start', '""', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { open: false, reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  return { open: true, command: 'xdg-open', args: [url] };
}

/** Returns why it did not try, or null when it launched the opener. */
export function openInBrowser(url: string, onError: (message: string) => void = () => {}): string | null {
  const decision = browserCommand(url);
  if (!decision.open) return decision.reason;
  try {
    const child = spawn(decision.command, decision.args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: process.platform === 'win32' });
    child.on('error', (error) => onError(`could not open a browser (${decision.command}): ${error.message}`));
    child.unref();
  } catch (error) {
    onError(`could not open a browser: ${error instanceof Error ? error.message : String(error)}`);
  }
  return null;
}
