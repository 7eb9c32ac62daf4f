/** The catalog service: whole-catalog download with export and resume, and the one-page reader. */
export { CatalogDownload } from './download';
export type { CatalogDownloadOptions, CancelOptions } from './download';
export type { CatalogProgress, DownloadState } from './progress';
export { readPage } from './read-page';
export type { ReadPageOptions } from './read-page';
export { parsePage } from './page';
export type { CatalogItem, Cursor, ParsedPage } from './page';
export type { CatalogClient, ListRequestOptions } from './client-port';
export { checkpointPathFor, readCheckpoint } from './checkpoint';
export type { Checkpoint } from './checkpoint';
export { DEFAULT_DOWNLOAD_PAGE_SIZE, formatForPath, pageShape, validatePageSize } from './settings';
export type { ExportFormat, PageShape } from './settings';
