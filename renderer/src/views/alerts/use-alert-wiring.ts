/**
 * Follows main's `alert` event once for the app: refreshes the alert list, and in browser mode shows
 * a firing alert as a Web Notification when main says to (the rule's first in 10 minutes, not in
 * quiet mode) and the user has allowed notifications. The desktop app's notifications come from main.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AlertEvent } from '../../../../shared/bridge/alert-schemas';
import { useAppContext } from '../../api/context';
import { alertKeys } from './alert-queries';

export function webNotificationsAvailable(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

function showWebNotification(event: AlertEvent): void {
  if (!webNotificationsAvailable() || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(`Partner Console: ${event.alert.vendor}`, { body: event.alert.message, tag: `alert-${event.alert.ruleId}` });
    n.onclick = () => {
      window.focus();
      window.location.hash = '#/alerts';
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the alert still shows in the app.
  }
}

export function useAlertWiring(): void {
  const { api, shell } = useAppContext();
  const client = useQueryClient();
  useEffect(
    () =>
      api.onAlert((event) => {
        void client.invalidateQueries({ queryKey: alertKeys.list });
        if (event.change === 'fired' && event.notify && shell === 'web') showWebNotification(event);
      }),
    [api, shell, client],
  );
}
