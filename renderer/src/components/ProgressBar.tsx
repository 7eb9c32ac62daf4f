export function ProgressBar({ value, max, label }: { value: number; max: number | null; label: string }) {
  const known = max !== null && max > 0;
  const share = known ? Math.min(1, value / max) : 0;
  return (
    <div
      className={known ? 'progress' : 'progress progress-indeterminate'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={value}
      aria-valuetext={known ? `${value} of ${max} (${Math.round(share * 100)}%)` : `${value}`}
    >
      <div className="progress-fill" style={{ width: known ? `${share * 100}%` : undefined }} />
    </div>
  );
}
