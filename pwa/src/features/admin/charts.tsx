// Charts drawn as plain SVG (docs/analytics.md: no chart library, a few hundred bytes
// in the admin-only chunk): stacked bars over time and horizontal bars for a table.
// Each scales to its card (360 px phones too), names itself with <title>/<desc>, and the
// card under it gives the numbers as a table: the text alternative.
import { useId, type ReactNode } from 'react';
import './analytics.css';

/** Series colours, distinct for common colour blindness (Okabe–Ito). */
export const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];

const WIDTH = 320;
const HEIGHT = 150;
const LEFT = 4;
const TOP = 16;
const BOTTOM = 18;

interface BarsProps {
  title: string;
  description: string;
  /** Bucket labels, as shown under the axis (the first and last are written). */
  labels: string[];
  series: { name: string; values: number[] }[];
  format: (value: number) => string;
}

/** An SVG chart named by its title and described by a sentence (its text alternative). */
function Frame(props: { height: number; title: string; description: string; children: ReactNode }) {
  const id = useId();
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${props.height}`}
      role="img"
      aria-labelledby={`${id}-t`}
      aria-describedby={`${id}-d`}
    >
      <title id={`${id}-t`}>{props.title}</title>
      <desc id={`${id}-d`}>{props.description}</desc>
      {props.children}
    </svg>
  );
}

/** Stacked bars, one per bucket. */
export function StackedBars({ title, description, labels, series, format }: BarsProps) {
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const top = Math.max(1, ...totals);
  const plot = { w: WIDTH - LEFT - 4, h: HEIGHT - BOTTOM - TOP };
  const step = plot.w / Math.max(1, labels.length);
  const bar = Math.max(1, step * 0.75);
  const y = (value: number) => (value / top) * plot.h;
  return (
    <Frame height={HEIGHT} title={title} description={description}>
      {/* The highest bar's value on a line across the top; the baseline is zero. */}
      <line x1={LEFT} x2={WIDTH - 4} y1={TOP} y2={TOP} className="axis dashed" />
      <text x={LEFT} y={TOP - 4} className="tick">
        {format(top)}
      </text>
      <line x1={LEFT} x2={WIDTH - 4} y1={TOP + plot.h} y2={TOP + plot.h} className="axis" />
      {labels.map((label, i) => {
        let base = TOP + plot.h;
        return (
          <g key={label}>
            {series.map((s, k) => {
              const height = y(s.values[i] ?? 0);
              base -= height;
              return height > 0 ? (
                <rect
                  key={s.name}
                  x={LEFT + i * step + (step - bar) / 2}
                  y={base}
                  width={bar}
                  height={height}
                  fill={COLOURS[k % COLOURS.length]}
                />
              ) : null;
            })}
          </g>
        );
      })}
      {labels.length > 0 && (
        <>
          <text x={LEFT} y={HEIGHT - 4} className="tick">
            {labels[0]}
          </text>
          <text x={WIDTH - 4} y={HEIGHT - 4} className="tick" textAnchor="end">
            {labels[labels.length - 1]}
          </text>
        </>
      )}
    </Frame>
  );
}

/** Horizontal bars for a table's first column: a row each, its name above its bar. */
export function RowBars({
  title,
  description,
  rows,
  format,
}: {
  title: string;
  description: string;
  rows: { name: string; value: number }[];
  format: (value: number) => string;
}) {
  const top = Math.max(1, ...rows.map((r) => r.value));
  const line = 30;
  const height = Math.max(line, rows.length * line);
  return (
    <Frame height={height} title={title} description={description}>
      {rows.map((row, i) => (
        <g key={`${row.name}-${i}`} transform={`translate(0 ${i * line})`}>
          <text x={0} y={11} className="tick">
            {row.name.length > 40 ? `${row.name.slice(0, 39)}…` : row.name}
          </text>
          <rect x={0} y={14} height={10} width={Math.max(1, ((WIDTH - 70) * row.value) / top)} fill={COLOURS[0]} />
          <text x={WIDTH - 4} y={23} className="tick" textAnchor="end">
            {format(row.value)}
          </text>
        </g>
      ))}
    </Frame>
  );
}
