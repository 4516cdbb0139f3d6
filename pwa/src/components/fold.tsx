// A part of a screen folded under its summary, as `<details>` does, that stays as the
// person left it on this phone (a manager who keeps the stock open finds it open).
import { useState, type ReactNode } from 'react';
import './fold.css';

const key = (id: string) => `fold:${id}`;

function remembered(id: string): boolean {
  try {
    return localStorage.getItem(key(id)) === 'open';
  } catch {
    return false;
  }
}

export function Fold({ id, summary, children }: { id: string; summary: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(() => remembered(id));
  return (
    <details
      className="fold"
      open={open}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        setOpen(now);
        try {
          if (now) localStorage.setItem(key(id), 'open');
          else localStorage.removeItem(key(id));
        } catch {
          // A phone that keeps nothing folds it again next time.
        }
      }}
    >
      <summary>{summary}</summary>
      {open && <div className="stack">{children}</div>}
    </details>
  );
}
