import { useEffect, useId, useRef, useState } from 'react';
import type uPlot from 'uplot';
// uPlot's few layout rules (cursor and overlay positions); the page's CSS carries them.
import 'uplot/dist/uPlot.min.css';
import { activityDay, type ActivityDay } from '../admin-users';
import { TableFrame } from '../../components/islands/TableFrame';
import { ACTIVITY_SERIES, AdminActivityTexts as T } from './texts';

type SeriesKey = (typeof ACTIVITY_SERIES)[number]['key'];

/** Line colours, light and dark (each at least 3:1 against its card). */
const COLOURS: Record<'light' | 'dark', Record<SeriesKey, string>> = {
  light: { users: '#3b55d9', posts: '#047857', comments: '#b45309', likes: '#be123c' },
  dark: { users: '#a5b4fc', posts: '#34d399', comments: '#fbbf24', likes: '#fb7185' },
};
const HEIGHT = 240;
/** Whole-number steps for the counts' axis. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000];

const isDark = () => document.documentElement.classList.contains('dark');

/**
 * The admin dashboard's activity chart: new users, posts, comments and likes per
 * day over the last 30 days. uPlot draws it on a canvas once the island is visible (its code is
 * loaded only then); the same figures are a real table, visually hidden until 'Show as table',
 * and the totals are a sentence, so nothing depends on seeing the canvas. Redrawn when the theme
 * or the width changes.
 */
export default function AdminDashboardActivityChart({ days }: { days: ActivityDay[] }) {
  const chart = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const [dark, setDark] = useState(false);

  const totals = Object.fromEntries(ACTIVITY_SERIES.map(({ key }) => [key, days.reduce((sum, day) => sum + (day[key] ?? 0), 0)])) as Record<
    SeriesKey,
    number
  >;

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
          days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
          ...ACTIVITY_SERIES.map(({ key }) => days.map((day) => day[key] ?? 0)),
        ];
        const options: uPlot.Options = {
          width: Math.max(240, host.clientWidth),
          height: HEIGHT,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
          axes: [axis, { ...axis, incrs: COUNT_STEPS, size: 48 }],
          series: [
            {},
            ...ACTIVITY_SERIES.map(({ key, label }) => ({ label, stroke: colours[key], width: 2, points: { show: true, size: 4 } })),
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
  }, [days, dark]);

  const colours = COLOURS[dark ? 'dark' : 'light'];
  const table = (
    <table className="w-full min-w-[30rem] text-left text-sm [overflow-wrap:break-word]">
      <caption className="sr-only">{T.CAPTION}</caption>
      <thead>
        <tr className="border-b border-slate-200 dark:border-slate-800">
          <th scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
            Date
          </th>
          {ACTIVITY_SERIES.map(({ key, label }) => (
            <th key={key} scope="col" className="whitespace-nowrap px-3 py-2 text-right font-semibold">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {days.map((day) => (
          <tr key={day.date} className="border-b border-slate-100 dark:border-slate-800/60">
            <th scope="row" className="whitespace-nowrap px-3 py-1.5 font-normal">
              <time dateTime={day.date}>{activityDay(day.date)}</time>
            </th>
            {ACTIVITY_SERIES.map(({ key }) => (
              <td key={key} className="px-3 py-1.5 text-right tabular-nums">
                {day[key] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" className="whitespace-nowrap px-3 py-2 font-semibold">
            Total
          </th>
          {ACTIVITY_SERIES.map(({ key }) => (
            <td key={key} className="px-3 py-2 text-right font-semibold tabular-nums">
              {totals[key]}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="activity-totals">
        {T.totals(totals.users, totals.posts, totals.comments, totals.likes)}
      </p>
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Chart legend">
        {ACTIVITY_SERIES.map(({ key, label }) => (
          <li key={key} className="flex items-center gap-2">
            <svg className="inline-block h-0.5 w-4" viewBox="0 0 16 2" preserveAspectRatio="none" aria-hidden="true">
              <rect width="16" height="2" rx="1" fill={colours[key]} />
            </svg>
            {label}
          </li>
        ))}
      </ul>
      {!failed && (
        // min-h-60: HEIGHT (240 px) as a class, since style-src allows no style attribute in the page's HTML.
        <div className="relative mt-3 min-h-60">
          {!ready && (
            <div
              className="absolute inset-0 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800"
              aria-hidden="true"
              data-testid="activity-skeleton"
            />
          )}
          <div
            ref={chart}
            role="img"
            aria-label={T.CHART_LABEL}
            className="text-slate-600 dark:text-slate-400"
            data-testid="activity-chart"
          />
        </div>
      )}
      <button
        type="button"
        className="btn-secondary mt-3"
        aria-expanded={showTable}
        aria-controls={tableId}
        onClick={() => setShowTable((shown) => !shown)}
      >
        {showTable ? T.HIDE_TABLE : T.SHOW_TABLE}
      </button>
      {/* Shown, it is every table's narrow-screen form (TableFrame: a named region that scrolls sideways on a phone); hidden, it is still read by screen readers. */}
      {showTable || failed ? (
        <div id={tableId} className="mt-4">
          <TableFrame label={T.CAPTION}>{table}</TableFrame>
        </div>
      ) : (
        <div id={tableId} className="sr-only">
          {table}
        </div>
      )}
    </div>
  );
}
