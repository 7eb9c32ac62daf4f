/** The Requests view's filters live in shared/, so that main exports exactly what the page shows (HAR). */
export * from '../../../../shared/request-log-filter';
