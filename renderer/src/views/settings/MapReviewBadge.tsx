/** A profile whose service map was detected and not yet reviewed says so in the list, with the one click to review it. */
import { useServiceMap } from '../../api/service-map-queries';
import { Pill } from '../../components/Pill';

export function MapReviewBadge({ profileId, onReview }: { profileId: string; onReview: () => void }) {
  const map = useServiceMap(profileId);
  if (map.data?.source !== 'detected') return null;
  return (
    <>
      <Pill tone="warn" title="The service map was detected from the service's answers and is in use">
        map detected, not yet reviewed
      </Pill>
      <button type="button" className="btn btn-small" onClick={onReview}>
        Review
      </button>
    </>
  );
}
