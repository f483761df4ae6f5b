/*
 * Small line icons drawn inline, so they show whatever fonts the system has (dingbat and arrow
 * glyphs are missing from many). Decorative: the control around them carries the accessible name.
 */

const common = {
  width: 14,
  height: 14,
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export function PencilIcon() {
  return (
    <svg {...common} className="icon">
      <path d="M11 2.5l2.5 2.5L5.5 13H3v-2.5z" />
      <path d="M9.5 4l2.5 2.5" />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg {...common} className="icon">
      <path d="M2.5 4h11" />
      <path d="M6 4V2.5h4V4" />
      <path d="M4 4l.7 9.5h6.6L12 4" />
      <path d="M6.8 6.5v4.5M9.2 6.5v4.5" />
    </svg>
  );
}

/** The bent arrow that marks a fork under the session it came from. */
export function ForkArrowIcon() {
  return (
    <svg {...common} width={12} height={12} className="icon">
      <path d="M4 2.5v6.5h8" />
      <path d="M9.5 6.5L12 9l-2.5 2.5" />
    </svg>
  );
}
