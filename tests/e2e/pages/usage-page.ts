/** Usage: the report of a past range (Today, yesterday, 7 d, custom): per endpoint, busiest minutes, CSV and PNG. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class UsagePage extends ViewPage {
  readonly name = 'Usage' as const;

  get period(): Locator {
    return this.page.getByRole('group', { name: 'Period' });
  }

  get perEndpoint(): Locator {
    return this.table('Usage per endpoint and day');
  }

  get busiestMinutes(): Locator {
    return this.table('Busiest minutes');
  }

  get exportCsv(): Locator {
    return this.page.getByRole('button', { name: 'Export CSV' });
  }
}
