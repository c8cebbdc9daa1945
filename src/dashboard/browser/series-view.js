import uPlot from './vendor/uplot.js';
import { epochDayOf, isoDateOf, periodStartDays } from './dates.js';
import { element, uniqueId } from './dom.js';
import { describeQuery } from './query.js';
import { seriesLabel } from './reports.js';
import { renderTable } from './table.js';

const CHART_HEIGHT = 200;
/** Colours of at least 4.5:1 (lines, 3:1 would do) on the white background. */
const INK = '#1f2328';
const LINE = '#1d4ed8';
const FILL = 'rgba(29, 78, 216, 0.12)';
const GRID = '#d0d7de';
const FONT = '12px system-ui, sans-serif';

function chartOptions(label, width) {
  const axis = { stroke: INK, font: FONT, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID, width: 1 } };
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    // The x values are the periods' local dates at UTC midnight: read in UTC, ticks show those dates wherever the browser is.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
    axes: [axis, { ...axis, size: 60 }],
    series: [{}, { label, stroke: LINE, width: 2, fill: FILL }],
  };
}

/** What a screen reader says for a chart: its span and range of values; the table holds every number. */
function chartName(label, query, dates, values) {
  const span =
    dates.length === 1 ? `the period starting ${dates[0]}` : `${dates.length} periods from ${dates[0]} to ${dates.at(-1)}`;
  const range = `lowest ${Math.min(...values)}, highest ${Math.max(...values)}`;
  return `${label} by ${query.period}, ${span}: ${range}. The numbers are in the table.`;
}

/** One series as a line chart, sized to its box whenever the box changes (a phone turned, a window resized). */
function seriesChart(label, query, dates, xs, values) {
  const titleId = uniqueId('chart-title');
  const holder = element('div', { class: 'chart-canvas', role: 'img', 'aria-label': chartName(label, query, dates, values) });
  const plot = new uPlot(chartOptions(label, 300), [xs, values], holder);
  const resizing = new ResizeObserver(([entry]) => {
    const width = Math.floor(entry.contentRect.width);
    if (width > 0 && width !== plot.width) plot.setSize({ width, height: CHART_HEIGHT });
  });
  resizing.observe(holder);
  const node = element('figure', { class: 'chart', 'aria-labelledby': titleId }, [element('figcaption', { id: titleId }, [label]), holder]);
  return {
    node,
    destroy: () => {
      resizing.disconnect();
      plot.destroy();
    },
  };
}

/** Why the last periods of the range are missing, when some have not begun. */
function notBegunNote(count, period) {
  const periods = count === 1 ? `The last ${period}` : `The last ${count} ${period}s`;
  return element('p', { class: 'hint not-begun' }, [
    `${periods} of the range ${count === 1 ? 'has' : 'have'} not begun yet in the account's time zone, so ${count === 1 ? 'it is' : 'they are'} left out.`,
  ]);
}

/**
 * A series resource: a chart per series and the table of the numbers behind them, one row per period
 * starting on the local date shown. A period that has not begun at `now` (the server's time, server-clock.js:
 * the account's day can be behind the server's, whose today ends the default range) is left out: drawn as
 * zero, it would look like an outage.
 */
export function seriesView(report, answer, query, now = Date.now()) {
  const names = Object.keys(answer);
  const allKeys = Object.keys(answer[names[0]] ?? {})
    .map(Number)
    .sort((a, b) => a - b);
  const keys = allKeys.filter((key) => key * 1000 <= now);
  const days = periodStartDays(keys, query.period, epochDayOf(query.start));
  const dates = days.map(isoDateOf);
  const xs = days.map((day) => day * 86_400);
  const valuesOf = (name) => keys.map((key) => answer[name][key]);
  const charts = keys.length === 0 ? [] : names.map((name) => seriesChart(seriesLabel(name), query, dates, xs, valuesOf(name)));

  const columns = [
    { name: 'period_start', label: 'Period starting' },
    ...names.map((name) => ({ name, label: seriesLabel(name), numeric: true })),
  ];
  const rows = keys.map((key, index) => [dates[index], ...names.map((name) => answer[name][key])]);
  const table = renderTable({ title: `${report.title}: ${describeQuery(query)}`, columns, rows });
  const numbers = element('details', { class: 'numbers' }, [element('summary', {}, ['The numbers']), table]);

  return {
    node: element('div', {}, [
      ...(keys.length < allKeys.length ? [notBegunNote(allKeys.length - keys.length, query.period)] : []),
      element('div', { class: 'charts' }, charts.map((chart) => chart.node)),
      numbers,
    ]),
    csv: { columns: columns.map((column) => column.name), rows },
    destroy: () => charts.forEach((chart) => chart.destroy()),
  };
}
