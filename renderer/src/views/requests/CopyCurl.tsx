/**
 * The request as curl: "Copy as curl" puts `"$PARTNER_TOKEN"` where the token went (the page never
 * has the token); "Copy with token" (desktop only, after a confirmation) asks main to write the
 * command with the real token to the clipboard, so the token never crosses the bridge. Both are
 * POSIX shell commands: the button and the notes say so, since the app ships for Windows too.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CURL_SHELL_NOTE, curlCopiedNote, curlRefusal, toCurl, TOKEN_VARIABLE_NOTE } from '../../../../shared/curl';
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
      target: detail.target,
      headers: detail.requestHeaders,
      body: detail.requestBody,
      tokenHeader: detail.tokenHeader,
    });
    try {
      await navigator.clipboard.writeText(command);
      say(curlCopiedNote(detail.tokenHeader !== null));
    } catch {
      say('The clipboard refused: copy from the request headers below.');
    }
  };
  const withToken = useMutation({
    mutationFn: () => api.copyCurlWithToken({ requestId: detail.id }),
    onSuccess: () => say(`Copied with your token: anyone who reads the clipboard can use it. Copy something else when you are done. ${CURL_SHELL_NOTE}`),
    onError: (e) => say(errorData(e).message),
  });
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void copy()}
        disabled={refusal !== null}
        title={refusal ?? `${CURL_SHELL_NOTE}${detail.tokenHeader ? ` The token is written as "$PARTNER_TOKEN". ${TOKEN_VARIABLE_NOTE}` : ''}`}
      >
        Copy as curl (bash/zsh)
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
