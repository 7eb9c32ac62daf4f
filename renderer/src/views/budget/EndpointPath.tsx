/**
 * An endpoint's path that wraps after a "/" or a "-" where its cell or panel is narrow: read in full on
 * two lines rather than cut ("/assets/cat…" could be any of several).
 */
import { Fragment } from 'react';

export function EndpointPath({ path }: { path: string }) {
  // After each "/" but the leading one: "/purchase/" + "validate-purchase-before-payment" (hyphens break by themselves).
  const parts = path.split(/(?<=.\/)/);
  return (
    <span className="mono endpoint-path">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
