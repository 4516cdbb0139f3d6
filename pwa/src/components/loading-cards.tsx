// While a list's first records arrive: its heading and cards of the final size, so
// nothing on screen (nor the footer) jumps when they come (layout shift on slow links).
import type { ReactNode } from 'react';
import { Spinner } from './spinner';

export function LoadingCards({ className, label, head }: { className: string; label: string; head: ReactNode }) {
  return (
    <section className={`page marketplace ${className}`} aria-busy="true">
      {head}
      <Spinner label={label} />
      <ul className="product-grid" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <li key={i} className="card product-card skeleton">
            <div className="product-image placeholder" />
            <div className="product-body">
              <span className="skeleton-line wide" />
              <span className="skeleton-line" />
              <span className="skeleton-line" />
              <span className="skeleton-line short" />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
