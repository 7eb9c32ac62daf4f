/** Requests: the request log, its filters and search (bodies too), and a request's detail. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class RequestsPage extends ViewPage {
  readonly name = 'Requests' as const;

  get log(): Locator {
    return this.table('Request log');
  }

  get rows(): Locator {
    return this.log.locator('tbody tr[data-row-id]');
  }

  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search requests' });
  }

  async filterEndpoint(label: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Filter by endpoint' }).selectOption({ label });
  }

  async filterStatus(label: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label });
  }

  get detail(): Locator {
    return this.page.getByRole('complementary', { name: 'Request detail' });
  }

  /** A header table of the detail: 'Request headers' or 'Response headers'. */
  headers(which: 'Request headers' | 'Response headers'): Locator {
    return this.detail.getByRole('table', { name: which });
  }
}
