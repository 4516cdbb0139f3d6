// A small line of a series over time, in plain SVG (no chart library): the market
// prices' 12 weeks. Weeks without a value break the line; each value is a dot, so a
// single week still shows. Named by its title and described by a sentence.
import { useId } from 'react';

const WIDTH = 120;
const HEIGHT = 36;
const PAD = 3;

export function Sparkline({
  values,
  title,
  description,
}: {
  values: (number | null)[];
  title: string;
  description: string;
}) {
  const id = useId();
  const known = values.filter((v): v is number => v !== null);
  const low = Math.min(...known);
  const high = Math.max(...known);
  const x = (i: number) => PAD + (i * (WIDTH - 2 * PAD)) / Math.max(1, values.length - 1);
  const y = (v: number) => (high === low ? HEIGHT / 2 : PAD + ((high - v) * (HEIGHT - 2 * PAD)) / (high - low));
  // Runs of consecutive weeks with a value, each drawn as one line.
  const runs: string[] = [];
  let run: string[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length) runs.push(run.join(' '));
      run = [];
    } else run.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (run.length) runs.push(run.join(' '));
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${id}-t`}
      aria-describedby={`${id}-d`}
    >
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{description}</desc>
      {runs.map((points) => (
        <polyline key={points} points={points} fill="none" stroke="currentColor" strokeWidth="2" />
      ))}
      {values.map((v, i) => (v === null ? null : <circle key={i} cx={x(i)} cy={y(v)} r="2" fill="currentColor" />))}
    </svg>
  );
}
