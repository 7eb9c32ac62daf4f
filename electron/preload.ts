/**
 * The preload (bundled by scripts/build-main.mjs to dist/main/preload.cjs: a sandboxed preload
 * cannot require npm modules, so everything it needs is in that one file). It exposes exactly the
 * contract's bridge as `window.partner`: one function per call resolving to a CallResult, one
 * `onX` per event whose listener gets the payload only (never Electron's event object) and which
 * returns an unsubscribe function.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { createPartnerBridge } from '../shared/bridge/api';
import type { PartnerBridge } from '../shared/bridge/api';
import type { CallResult } from '../shared/bridge/contract';
import { CANCEL_CHANNEL, callChannel, eventChannel } from './shell/channels';

export const partnerBridge = createPartnerBridge(
  async (name, request, callId): Promise<CallResult<unknown>> => {
    try {
      const args = callId === undefined ? [request] : [request, callId];
      return (await ipcRenderer.invoke(callChannel(name), ...args)) as CallResult<unknown>;
    } catch (error) {
      // Only when the main side has no handler (still starting, or gone): keep the result shape.
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: 'INTERNAL', message: `The call ${name} did not reach the app: ${message}`, retryable: true } };
    }
  },
  (name, listener) => {
    const channel = eventChannel(name);
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
  (callId) => ipcRenderer.send(CANCEL_CHANNEL, callId),
);

contextBridge.exposeInMainWorld('partner', partnerBridge);

/** The type of `window.partner` (the same as shared/bridge/api.ts's PartnerBridge). */
export type ExposedPartnerBridge = typeof partnerBridge;
export type { PartnerBridge };
