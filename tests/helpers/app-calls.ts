/** Calls through the app's own dispatch, and waiting for a condition: shared by the app integration tests. */
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import type { AppServices } from '../../electron/app';

/** The call's value; a failed call throws an Error that carries the error's code. */
export async function callApp<N extends CallName>(app: AppServices, name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await app.dispatch(name, request);
  if (!result.ok) throw Object.assign(new Error(`${name} failed: ${JSON.stringify(result.error)}`), { code: result.error.code });
  return result.value as CallResponse<N>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves once `check` holds; throws after `timeoutMs`. The default is headroom for a loaded machine (a
 * background connect took 7 s there, under a second on an idle one): a longer wait costs only a failing run.
 */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** The profile a page would show now (the active one): what a vendor-scoped call names as its `profileId`. */
export async function shownProfile(app: AppServices): Promise<string> {
  const { profileId } = await callApp(app, 'connection', {});
  if (profileId === null) throw new Error('no profile is active');
  return profileId;
}
