/**
 * The request as curl: "Copy as curl" puts `"$PARTNER_TOKEN"` where the token went (the page never
 * has the token); "Copy with token" (desktop only, after a confirmation) asks main to write the
 * command with the real token to the clipboard, so the token never crosses the bridge.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { curlRefusal, toCurl, TOKEN_VARIABLE_NOTE } from '../../../../shared/curl';
import { useApi } from '../../api/context';
import { useAppInfo } from '../../api/queries';
import type { LogDetail } from '../../api/queries';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { errorData } from '../../lib/error-text';

export function CopyCurl({ detail }: { detail: LogDetail }) {
  const api = useApi();
  // Never rebuilt from elsewhere (the connected profile's base URL, headers and body gone): refused, with the reason.
  const refusal = curlRefusal(detail);
  const desktop = useAppInfo().data?.shell === 'desktop';
  const [note, setNote] = useState<string>('');
  const [confirming, setConfirming] = useState(false);
  const say = (text: string) => {
    setNote(text);
    setTimeout(() => setNote((shown) => (shown === text ? '' : shown)), 6000);
  };
  const copy = async () => {
    const command = toCurl({
      method: detail.method,
      origin: detail.origin,
      path: detail.path,
      headers: detail.requestHeaders,
      body: detail.requestBody,
      tokenHeader: detail.tokenHeader,
    });
    try {
      await navigator.clipboard.writeText(command);
      say(detail.tokenHeader ? `Copied. ${TOKEN_VARIABLE_NOTE}` : 'Copied.');
    } catch {
      say('The clipboard refused: copy from the request headers below.');
    }
  };
  const withToken = useMutation({
    mutationFn: () => api.copyCurlWithToken({ requestId: detail.id }),
    onSuccess: () => say('Copied with your token: anyone who reads the clipboard can use it. Copy something else when you are done.'),
    onError: (e) => say(errorData(e).message),
  });
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void copy()}
        disabled={refusal !== null}
        title={refusal ?? (detail.tokenHeader ? `The token is written as "$PARTNER_TOKEN". ${TOKEN_VARIABLE_NOTE}` : undefined)}
      >
        Copy as curl
      </button>
      {desktop && detail.tokenHeader && !refusal ? (
        <button type="button" className="btn btn-small" onClick={() => setConfirming(true)} disabled={withToken.isPending}>
          Copy with token…
        </button>
      ) : null}
      <span className="muted small" role="status" aria-live="polite">
        {note || refusal}
      </span>
      {desktop ? (
        <ConfirmDialog
          open={confirming}
          title="Copy the command with your token?"
          confirmLabel="Copy with token"
          danger
          onClose={() => setConfirming(false)}
          onConfirm={() => withToken.mutate()}
        >
          The command is written to the clipboard with the real token in its {detail.tokenHeader?.header} header. Anyone or any app that reads the clipboard can
          use that token until it is revoked. Copy as curl keeps it out and reads it from PARTNER_TOKEN instead.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
