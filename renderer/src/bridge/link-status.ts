/** The state of the renderer's own link to the services (the WebSocket in browser mode; IPC is always up). */
export interface LinkStatus {
  state: 'connecting' | 'open' | 'offline';
  /** Epoch ms of the next reconnection attempt while offline. */
  retryAt: number | null;
  /** Why the link is down, in words; null when up. */
  problem: string | null;
  /**
   * The server keeps refusing this page's socket while it still answers HTTP: the page's secret is
   * wrong or from an earlier run. No automatic retries then (the secret cannot become valid again).
   */
  refused: boolean;
}

export interface LinkSource {
  get(): LinkStatus;
  subscribe(listener: () => void): () => void;
  /** Try to reconnect now instead of waiting for the backoff. */
  retryNow(): void;
}

/** The desktop app's IPC link: there is nothing to drop. */
export const ALWAYS_OPEN: LinkSource = {
  get: () => OPEN_STATUS,
  subscribe: () => () => undefined,
  retryNow: () => undefined,
};

const OPEN_STATUS: LinkStatus = { state: 'open', retryAt: null, problem: null, refused: false };
