/** The app's one window, with every webPreference the security checklist asks for spelled out. */
import { BrowserWindow } from 'electron';
import type { WebPreferences } from 'electron';

export function secureWebPreferences(preloadPath: string, devTools: boolean): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools,
  };
}

export function createMainWindow(preloadPath: string, devTools: boolean): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Partner Console',
    webPreferences: secureWebPreferences(preloadPath, devTools),
  });
  window.once('ready-to-show', () => window.show());
  return window;
}
