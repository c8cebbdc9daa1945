import uPlot from './vendor/uplot.js';
import { DAY_SECONDS, epochDayOf, isoDateOf, nextPeriodDay, periodStartDays } from './dates.js';
import { element, uniqueId } from './dom.js';
import { describeQuery } from './query.js';
import { seriesLabel } from './reports.js';
import { renderTable } from './table.js';

const CHART_HEIGHT = 200;
/** Colours of at least 4.5:1 (lines, 3:1 would do) on the white background. */
const INK = '#1f2328';
const LINE = '#1d4ed8';
const FILL = 'rgba(29, 78, 216, 0.12)';
/** The period not over yet: the same blue, dashed, its area lighter, its point hollow. */
const SO_FAR_FILL = 'rgba(29, 78, 216, 0.05)';
const SO_FAR_DASH = [6, 4];
const GRID = '#d0d7de';
const PAPER = '#ffffff';
const FONT = '12px system-ui, sans-serif';

/**
 * The chart's series: the periods that are over as a solid line, and, when the last period is not over
 * yet (`soFar`), the segment to it dashed, ending in a hollow point, so that a day half gone does not read
 * as a fall. The values of a series are null where it draws nothing.
 */
function chartOptions(label, width, soFar, onCursor) {
  const axis = { stroke: INK, font: FONT, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID, width: 1 } };
  const series = [{}, { label, stroke: LINE, width: 2, fill: FILL }];
  if (soFar) {
    series.push({
      label: `${label} so far`,
      stroke: LINE,
      width: 2,
      dash: SO_FAR_DASH,
      fill: SO_FAR_FILL,
      // Only the last point, the period not over yet, is marked.
      points: { show: true, size: 8, width: 2, stroke: LINE, fill: PAPER, filter: (u) => [u.data[0].length - 1] },
    });
  }
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    // The x values are the periods' local dates at UTC midnight: read in UTC, ticks show those dates wherever the browser is.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
    axes: [axis, { ...axis, size: 60 }],
    series,
    // The period under the pointer, or null once it leaves the chart.
    hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
  };
}

/** What a screen reader says for a chart: its span and range of values; the table holds every number. */
function chartName(label, query, dates, values, soFar) {
  const span =
    dates.length === 1 ? `the period starting ${dates[0]}` : `${dates.length} periods from ${dates[0]} to ${dates.at(-1)}`;
  const range = `lowest ${Math.min(...values)}, highest ${Math.max(...values)}`;
  const note = soFar ? ` The last ${query.period} is not over yet: its number is the one so far.` : '';
  return `${label} by ${query.period}, ${span}: ${range}.${note} The numbers are in the table.`;
}

/** A period's date as the page writes it, with "(so far)" for the one not over yet. */
const periodText = (date, soFar) => (soFar ? `${date} (so far)` : date);

/**
 * One series as a line chart, sized to its box whenever the box changes (a phone turned, a window
 * resized), with the value of the period under the pointer written below it.
 */
function seriesChart(label, query, dates, xs, values, soFar) {
  const titleId = uniqueId('chart-title');
  const holder = element('div', { class: 'chart-canvas', role: 'img', 'aria-label': chartName(label, query, dates, values, soFar) });
  const idle = `Point at a ${query.period} for its value.`;
  const readout = element('p', { class: 'chart-readout idle' }, [idle]);
  const showValue = (index) => {
    const text = index === null ? idle : `${periodText(dates[index], soFar && index === dates.length - 1)}: ${values[index]}`;
    if (readout.textContent === text) return;
    readout.textContent = text;
    readout.classList.toggle('idle', index === null);
  };
  const last = values.length - 1;
  const data = soFar
    ? [xs, values.map((value, index) => (index < last ? value : null)), values.map((value, index) => (index >= last - 1 ? value : null))]
    : [xs, values];
  const plot = new uPlot(chartOptions(label, 300, soFar, showValue), data, holder);
  const resizing = new ResizeObserver(([entry]) => {
    const width = Math.floor(entry.contentRect.width);
    if (width > 0 && width !== plot.width) plot.setSize({ width, height: CHART_HEIGHT });
  });
  resizing.observe(holder);
  const node = element('figure', { class: 'chart', 'aria-labelledby': titleId }, [
    element('figcaption', { id: titleId }, [label]),
    holder,
    readout,
  ]);
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
 * Why the last period's numbers are lower than they will be: it is not over yet. With periods left out
 * (notBegunNote), it is the last shown rather than the range's, which the note above says has not begun.
 */
function soFarNote(period, date, leftOut) {
  const which = leftOut ? `The last ${period} shown` : `The last ${period} of the range`;
  return element('p', { class: 'hint so-far' }, [
    `${which}, starting ${date}, is not over yet in the account's time zone: its numbers are those so far, dashed in the charts and marked "(so far)" in the table.`,
  ]);
}

/**
 * Whether the last period shown is not over at `now`: it began (the periods not begun are left out) and
 * its end is still ahead. It ends where the next period starts, or where the range ends (the API counts
 * no call after the range's last day). The next period's key tells that instant exactly when the API
 * gave one; otherwise it is the local midnight `endDay`, at the UTC offset of the period's own start (the
 * API names no time zone), which is an hour off only when the clock changed within the period.
 */
function lastIsUnfinished(keys, allKeys, days, query, now) {
  if (keys.length === 0) return false;
  const last = keys.length - 1;
  const nextKey = allKeys[keys.length];
  if (nextKey !== undefined) return now < nextKey * 1000;
  const offset = days[last] * DAY_SECONDS - keys[last];
  const endDay = Math.min(nextPeriodDay(days[last], query.period), epochDayOf(query.end) + 1);
  return now < (endDay * DAY_SECONDS - offset) * 1000;
}

/**
 * A series resource: a chart per series and the table of the numbers behind them, one row per period
 * starting on the local date shown. A period that has not begun at `now` (the server's time, server-clock.js:
 * the account's day can be behind the server's, whose today ends the default range) is left out: drawn as
 * zero, it would look like an outage. The period still under way at `now` is shown and marked as such:
 * its numbers are those so far.
 */
export function seriesView(report, answer, query, now = Date.now()) {
  const names = Object.keys(answer);
  const allKeys = Object.keys(answer[names[0]] ?? {})
    .map(Number)
    .sort((a, b) => a - b);
  const keys = allKeys.filter((key) => key * 1000 <= now);
  const days = periodStartDays(keys, query.period, epochDayOf(query.start));
  const dates = days.map(isoDateOf);
  const xs = days.map((day) => day * DAY_SECONDS);
  const soFar = lastIsUnfinished(keys, allKeys, days, query, now);
  const valuesOf = (name) => keys.map((key) => answer[name][key]);
  const charts = keys.length === 0 ? [] : names.map((name) => seriesChart(seriesLabel(name), query, dates, xs, valuesOf(name), soFar));

  const columns = [
    { name: 'period_start', label: 'Period starting' },
    ...names.map((name) => ({ name, label: seriesLabel(name), numeric: true })),
  ];
  const rows = keys.map((key, index) => [dates[index], ...names.map((name) => answer[name][key])]);
  // The table says which period is not over; the CSV keeps the API's dates alone.
  const shownRows = rows.map((row, index) => (soFar && index === rows.length - 1 ? [soFarCell(row[0]), ...row.slice(1)] : row));
  const table = renderTable({ title: `${report.title}: ${describeQuery(query)}`, columns, rows: shownRows });
  const numbers = element('details', { class: 'numbers' }, [element('summary', {}, ['The numbers']), table]);

  return {
    node: element('div', {}, [
      ...(keys.length < allKeys.length ? [notBegunNote(allKeys.length - keys.length, query.period)] : []),
      ...(soFar ? [soFarNote(query.period, dates.at(-1), keys.length < allKeys.length)] : []),
      element('div', { class: 'charts' }, charts.map((chart) => chart.node)),
      numbers,
    ]),
    csv: { columns: columns.map((column) => column.name), rows },
    destroy: () => charts.forEach((chart) => chart.destroy()),
  };
}

/** The date of the period not over yet, as its row's header: the date, then "(so far)" apart. */
const soFarCell = (date) => [date, element('span', { class: 'so-far-mark' }, [' (so far)'])];
