/**
 * "Export HAR": main builds a HAR 1.2 file of the log as the view filters it (tokens masked); the page
 * saves it as it saves its CSVs (a download; in the desktop app the save dialog). Opens in Chrome
 * DevTools, Charles and Postman, and replays into the built-in simulator (Settings).
 */
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { ErrorCallout } from '../../components/states';
import { downloadText } from '../../lib/csv';
import { fmtInt } from '../../lib/format';
import type { LogFilter } from './log-filter';

export function ExportHarButton({ filter, matching }: { filter: LogFilter; matching: number }) {
  const api = useApi();
  const exportHar = useMutation({
    mutationFn: () => api.requestLogHar({ ...filter, minute: filter.minute ?? null }),
    onSuccess: (har) => downloadText(har.fileName, har.text, 'application/json;charset=utf-8'),
  });
  const done = exportHar.data;
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={matching === 0 || exportHar.isPending}
        title="The requests that match the filters, as a HAR 1.2 file (tokens masked): opens in Chrome DevTools, Charles or Postman"
        onClick={() => exportHar.mutate()}
      >
        Export HAR
      </button>
      {exportHar.isError ? <ErrorCallout error={exportHar.error} action="export the request log" /> : null}
      {done && !exportHar.isPending ? (
        <span className="muted small" role="status">
          {fmtInt(done.entries)} requests exported
          {done.withoutDetail > 0 ? ` (${fmtInt(done.withoutDetail)} without headers and bodies: the log keeps them for the newest only)` : ''}
        </span>
      ) : null}
    </>
  );
}
