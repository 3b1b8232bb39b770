import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type uPlot from 'uplot';
// uPlot's few layout rules (cursor and overlay positions); the page's CSS carries them.
import 'uplot/dist/uPlot.min.css';
import { TableFrame } from '../../components/islands/TableFrame';
import { StatsTexts as T } from './texts';

const SERIES = [
  { key: 'views', label: T.VIEWS },
  { key: 'visitors', label: T.VISITORS },
] as const;
type SeriesKey = (typeof SERIES)[number]['key'];

/** Line colours, light and dark: the admin dashboard chart's, each at least 3:1 against its card. */
const COLOURS: Record<'light' | 'dark', Record<SeriesKey, string>> = {
  light: { views: '#3b55d9', visitors: '#047857' },
  dark: { views: '#a5b4fc', visitors: '#34d399' },
};
const HEIGHT = 240;
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];

const isDark = () => document.documentElement.classList.contains('dark');

/** One day of the chart: [UTC day, views, visitors]. */
type Point = [day: string, views: number, visitors: number];
const COLUMN: Record<SeriesKey, 1 | 2> = { views: 1, visitors: 2 };

/**
 * Views and visitors per day (uPlot, the chart library the admin dashboard already loads: about
 * 50 KB, drawn on a canvas once the island is visible). `points` is the figures as one JSON string
 * (the island's only sizeable prop); the same figures come as a real table rendered on the server
 * (StatsSeriesTable, the island's content), visually hidden until 'Show as table' and always read
 * by screen readers, and `csv` is its Download CSV link. Redrawn when the theme or the width changes.
 */
export default function StatsChart({
  points,
  days,
  csv,
  children,
}: {
  points: string;
  days: number;
  csv?: ReactNode;
  children?: ReactNode;
}) {
  const series = useMemo(() => JSON.parse(points) as Point[], [points]);
  const chart = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const [dark, setDark] = useState(false);

  useEffect(() => {
    setDark(isDark());
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const host = chart.current;
    if (!host) return;
    let plot: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let cancelled = false;
    (async () => {
      try {
        const { default: UPlot } = await import('uplot');
        if (cancelled) return;
        const colours = COLOURS[dark ? 'dark' : 'light'];
        const text = getComputedStyle(host).color;
        const grid = dark ? 'rgba(148, 163, 184, 0.18)' : 'rgba(100, 116, 139, 0.18)';
        const axis = {
          stroke: text,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          font: '12px ui-sans-serif, system-ui, sans-serif',
        };
        const data: uPlot.AlignedData = [
          series.map(([day]) => Date.parse(`${day}T00:00:00Z`) / 1000),
          ...SERIES.map(({ key }) => series.map((point) => point[COLUMN[key]])),
        ];
        const options: uPlot.Options = {
          width: Math.max(240, host.clientWidth),
          height: HEIGHT,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
          axes: [axis, { ...axis, incrs: COUNT_STEPS, size: 56 }],
          series: [
            {},
            ...SERIES.map(({ key, label }) => ({ label, stroke: colours[key], width: 2, points: { show: series.length <= 31, size: 4 } })),
          ],
        };
        host.replaceChildren();
        plot = new UPlot(options, data, host);
        resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(240, host.clientWidth), height: HEIGHT }));
        resize.observe(host);
        setReady(true);
      } catch {
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [series, dark]);

  const colours = COLOURS[dark ? 'dark' : 'light'];
  return (
    <div>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Chart legend">
        {SERIES.map(({ key, label }) => (
          <li key={key} className="flex items-center gap-2">
            <svg className="inline-block h-0.5 w-4" viewBox="0 0 16 2" preserveAspectRatio="none" aria-hidden="true">
              <rect width="16" height="2" rx="1" fill={colours[key]} />
            </svg>
            {label}
          </li>
        ))}
      </ul>
      {!failed && (
        <div className="relative mt-3 min-h-60">
          {!ready && <div className="absolute inset-0 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" aria-hidden="true" />}
          <div
            ref={chart}
            role="img"
            aria-label={T.chartLabel(days)}
            className="text-slate-600 dark:text-slate-400"
            data-testid="stats-chart"
            data-ready={ready ? 'true' : undefined}
            data-points={points}
          />
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className="btn-secondary"
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? T.HIDE_TABLE : T.SHOW_TABLE}
        </button>
        {csv}
      </div>
      {showTable || failed ? (
        <div id={tableId} className="mt-4">
          <TableFrame label={T.caption(days)}>{children}</TableFrame>
        </div>
      ) : (
        <div id={tableId} className="sr-only">
          {children}
        </div>
      )}
    </div>
  );
}
