/**
 * Where browser mode keeps its settings and profiles by default: the user's config folder, next to
 * (not inside) the desktop app's, because the desktop's tokens are sealed with the OS keychain and
 * browser mode keeps tokens in memory only.
 */
import os from 'node:os';
import path from 'node:path';

export function userConfigDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  if (platform === 'win32') return env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
}

export function defaultWebDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(userConfigDir(platform, env, home), 'partner-console-web');
}
