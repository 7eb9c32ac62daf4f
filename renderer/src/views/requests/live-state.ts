/**
 * Whether the request log follows the newest entries. A selected row stays where it is (the table
 * anchors it), so the log is not following then, and the Live button must say Paused.
 */
export interface LogFollow {
  /** The user's choice: Live (true) or Paused. */
  follow: boolean;
  /** The opened row's id; null: none. */
  selected: number | null;
}

export function followsNewest(s: LogFollow): boolean {
  return s.follow && s.selected === null;
}

/** The Live/Paused button: pause what follows; otherwise follow the newest again (letting go of the selected row). */
export function toggledFollow(s: LogFollow): LogFollow {
  return followsNewest(s) ? { ...s, follow: false } : { follow: true, selected: null };
}
