/** Catalog: the assets page by page (by cursor), search, category filter, and an asset's details. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class CatalogPage extends ViewPage {
  readonly name = 'Catalog' as const;

  get assets(): Locator {
    return this.table('Assets');
  }

  get rows(): Locator {
    return this.assets.locator('tbody tr');
  }

  get nextPage(): Locator {
    return this.page.getByRole('button', { name: 'Next page' });
  }

  get previousPage(): Locator {
    return this.page.getByRole('button', { name: 'Previous page' });
  }

  get pageSize(): Locator {
    return this.page.getByRole('combobox', { name: 'Page size' });
  }

  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search assets' });
  }

  get category(): Locator {
    return this.page.getByRole('combobox', { name: 'Category' });
  }

  /** "Page 2 · items 21–40 …": where the table is in the catalog. */
  position(page: number): Locator {
    return this.page.getByText(new RegExp(`^Page ${page} ·`));
  }

  /** The id (first cell) of a row. */
  idOf(row: Locator): Promise<string> {
    return row.locator('td').first().innerText();
  }

  /** The side panel of an asset, by id. */
  detail(id: string): Locator {
    return this.page.getByRole('complementary', { name: `Asset ${id}` });
  }

  /** Opens a row's asset with the keyboard (rows are focusable, Enter opens them). */
  async openRow(row: Locator): Promise<void> {
    await row.focus();
    await this.page.keyboard.press('Enter');
  }
}
