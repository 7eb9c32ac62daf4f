/**
 * The main navigation, in the order shown in the header. The number shortcuts (1 opens the first) and
 * the `?` list follow this list, so that "3" is always the third link a user sees.
 */
import type { ViewId } from './hash-route';

export interface NavItem {
  view: ViewId;
  label: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { view: 'overview', label: 'Overview' },
  { view: 'budget', label: 'Budget' },
  { view: 'catalog', label: 'Catalog' },
  { view: 'purchases', label: 'Purchases' },
  { view: 'requests', label: 'Requests' },
  { view: 'alerts', label: 'Alerts' },
  { view: 'usage', label: 'Usage' },
  { view: 'settings', label: 'Settings' },
];
