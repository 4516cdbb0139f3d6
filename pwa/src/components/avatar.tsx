// A person's picture, or a drawn silhouette when there is none or it fails to load.
import { useState } from 'react';

export function Avatar({ url, size = 40 }: { url: string | null | undefined; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed) {
    return <img className="avatar" src={url} alt="" width={size} height={size} onError={() => setFailed(true)} />;
  }
  return (
    <svg className="avatar" viewBox="0 0 40 40" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="20" fill="#d9e7dc" />
      <circle cx="20" cy="16" r="7" fill="#1b5e3b" />
      <path d="M7 35a13 13 0 0 1 26 0" fill="#1b5e3b" />
    </svg>
  );
}
