// A per-key usage chart: requests and test runs per day as SVG bars, with the same numbers in a table
// for screen readers and anyone who prefers figures.
import type { UsageDay } from './api.ts';

const WIDTH = 560;
const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };

export function UsageChart({ days, title }: { days: UsageDay[]; title: string }) {
  const max = Math.max(1, ...days.map((d) => Math.max(d.requests, d.testRuns)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const bar = Math.max(2, slot / 2 - 2);
  const y = (value: number) => PAD.top + plotH - (value / max) * plotH;
  const total = days.reduce((sum, d) => ({ requests: sum.requests + d.requests, testRuns: sum.testRuns + d.testRuns }), { requests: 0, testRuns: 0 });
  const labelEvery = Math.ceil(days.length / 7);

  return (
    <figure class="usage">
      <figcaption>
        {title}: <strong>{total.requests}</strong> {plural(total.requests, 'request')} and <strong>{total.testRuns}</strong> {plural(total.testRuns, 'test run')} in the last {days.length} days.
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Bar chart of requests and test runs per day for ${title}`} class="chart">
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} class="axis" />
        <text x={PAD.left - 6} y={y(max) + 4} class="tick" text-anchor="end">{max}</text>
        <text x={PAD.left - 6} y={y(0) + 4} class="tick" text-anchor="end">0</text>
        {days.map((d, i) => {
          const x = PAD.left + i * slot + 1;
          return (
            <g key={d.day}>
              <rect x={x} y={y(d.requests)} width={bar} height={y(0) - y(d.requests)} class="bar-requests"><title>{`${d.day}: ${d.requests} requests`}</title></rect>
              <rect x={x + bar + 1} y={y(d.testRuns)} width={bar} height={y(0) - y(d.testRuns)} class="bar-tests"><title>{`${d.day}: ${d.testRuns} test runs`}</title></rect>
              {i % labelEvery === 0 && <text x={x + bar} y={HEIGHT - 8} class="tick" text-anchor="middle">{d.day.slice(5)}</text>}
            </g>
          );
        })}
      </svg>
      <p class="legend"><span class="swatch swatch-requests" aria-hidden="true" /> Requests <span class="swatch swatch-tests" aria-hidden="true" /> Test runs</p>
      <details>
        <summary>Show as a table</summary>
        <table class="compact">
          <thead><tr><th scope="col">Day</th><th scope="col">Requests</th><th scope="col">Test runs</th></tr></thead>
          <tbody>{days.map((d) => <tr key={d.day}><td>{d.day}</td><td>{d.requests}</td><td>{d.testRuns}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}
