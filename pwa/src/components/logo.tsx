// The MAVUNO mark (the same drawing as public/favicon.svg) and wordmark.
export function Mark({ size = 36 }: { size?: number }) {
  return (
    <svg viewBox="0 0 100 100" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="100" height="100" rx="22" fill="#1b5e3b" />
      <g transform="translate(50 50) scale(.9) translate(-50 -50)">
        <ellipse cx="50" cy="80" rx="27" ry="5.5" fill="#e0b84a" />
        <rect x="48.2" y="42" width="3.6" height="37" fill="#f4e9c8" />
        <ellipse cx="36" cy="41" rx="17" ry="7.5" transform="rotate(35 36 41)" fill="#f4e9c8" />
        <ellipse cx="64" cy="33" rx="20" ry="8.5" transform="rotate(-35 64 33)" fill="#f4e9c8" />
      </g>
    </svg>
  );
}

export function Logo() {
  return (
    <span className="logo">
      <Mark />
      <span className="logo-word">MAVUNO</span>
    </span>
  );
}
