/** What the Overview's colours and marks mean. */
import { BANDS, WINDOW_S } from './overview-model';

export function OverviewLegend() {
  return (
    <ul className="ov-legend" aria-label="Legend">
      <li>
        <span className="ov-swatch ov-band-idle" aria-hidden="true" /> no requests
      </li>
      {BANDS.map((b) => (
        <li key={b.band}>
          <span className={`ov-swatch ov-band-${b.band}`} aria-hidden="true" /> {b.label}
        </li>
      ))}
      <li>
        <span className="ov-429" aria-hidden="true">
          429
        </span>{' '}
        refused by the service
      </li>
      <li>
        <span className="ov-alert" aria-hidden="true">
          !
        </span>{' '}
        alert firing
      </li>
      <li className="ov-legend-note">
        Figure and colour: the whole budget's use over the last {WINDOW_S} complete seconds, this app's and other consumers' (estimated from the answers'
        headers) against the limit; "ours" is this app's part. At the limit whenever the service answered 429 in the minute; at least 80–99% while requests were
        "held back" for budget most of the minute. Hover or focus a cell for its last minute.
      </li>
    </ul>
  );
}
