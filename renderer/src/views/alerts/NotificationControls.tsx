/**
 * Notifications: quiet mode (alerts still recorded and shown, no notification) and, in browser mode,
 * the button that asks the browser's permission for Web Notifications (browsers ask only after a click).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useAppContext } from '../../api/context';
import { keys, useSettings } from '../../api/queries';
import { webNotificationsAvailable } from './use-alert-wiring';

function currentPermission(): NotificationPermission | 'unsupported' {
  return webNotificationsAvailable() ? Notification.permission : 'unsupported';
}

const PERMISSION_TEXT: Record<NotificationPermission | 'unsupported', string> = {
  granted: 'Browser notifications are on.',
  denied: 'This browser blocks notifications for this page (change it in the site settings).',
  default: '',
  unsupported: 'This browser cannot show notifications.',
};

export function NotificationControls() {
  const { shell } = useAppContext();
  const api = useApi();
  const client = useQueryClient();
  const settings = useSettings();
  const quiet = settings.data?.alerts?.quiet === true;
  const [permission, setPermission] = useState(currentPermission);
  const save = useMutation({
    mutationFn: (next: boolean) => api.saveSettings({ alerts: { ...settings.data?.alerts, quiet: next } }),
    onSuccess: (saved) => client.setQueryData(keys.settings, saved),
  });

  return (
    <div className="toolbar alert-notify" role="group" aria-label="Notifications">
      <label className="check" title="Alerts are still recorded and shown here; no notification is raised">
        <input type="checkbox" checked={quiet} disabled={!settings.data || save.isPending} onChange={(e) => save.mutate(e.target.checked)} /> Quiet mode
      </label>
      {shell === 'web' && permission === 'default' ? (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => void Notification.requestPermission().then(setPermission, () => setPermission(currentPermission()))}
        >
          Allow notifications
        </button>
      ) : null}
      {shell === 'web' && permission !== 'default' ? (
        <span className="muted small" role="status">
          {PERMISSION_TEXT[permission]}
        </span>
      ) : null}
    </div>
  );
}
