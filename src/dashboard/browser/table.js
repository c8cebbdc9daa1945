import { element, uniqueId } from './dom.js';

/**
 * A table as data: `columns` ({ name, label, numeric, bar, shown }) and `rows` of values. The page renders
 * it, and the CSV download writes the very same values, so the file holds the numbers and codes the page
 * shows (a text that would start a formula after an apostrophe). A column's `shown(value)` is how the page
 * writes a value (a place's name beside its code); a cell given as an array of texts and nodes is shown
 * as they are (a period's date with a note). Rows may come in `groups` ({ heading, rows }) instead, each
 * under a heading row of its own, so that what the rows share (their country) is written once.
 */

/** The number, then its bar in a track of its own beside it: a bar drawn under the digits hides them. */
function barCell(value, largest) {
  const bar = element('span', { class: 'bar' });
  // A style property, not a style attribute: the page's Content-Security-Policy allows no inline styles.
  bar.style.inlineSize = `${largest > 0 ? (100 * value) / largest : 0}%`;
  const track = element('span', { class: 'bar-track', 'aria-hidden': 'true' }, [bar]);
  return element('td', { class: 'numeric with-bar' }, [element('span', { class: 'value' }, [String(value)]), track]);
}

/**
 * A table with its title, column headers and row headers (the first column), in a region that scrolls
 * on its own and takes the keyboard focus, so a wide or long table is readable at any width. The title
 * stands above the region rather than in a caption, which would scroll out of sight with the columns.
 * Each column has a `col` named after it (`column-visits`), so tables of the same columns can be given
 * the same widths.
 */
export function renderTable({ title, columns, rows, groups = [{ rows }] }) {
  const titleId = uniqueId('table-title');
  const allRows = groups.flatMap((group) => group.rows);
  const largest = columns.map((column, index) => (column.bar ? Math.max(0, ...allRows.map((row) => row[index])) : 0));
  const colgroup = element(
    'colgroup',
    {},
    columns.map((column) => element('col', { class: `column-${column.name}` })),
  );
  const head = element('thead', {}, [
    element(
      'tr',
      {},
      columns.map((column) => element('th', { scope: 'col', class: column.numeric ? 'numeric' : undefined }, [column.label])),
    ),
  ]);
  const rowOf = (row) =>
    element(
      'tr',
      {},
      row.map((value, index) => {
        const column = columns[index];
        const shown = Array.isArray(value) ? value : [column.shown ? column.shown(value) : String(value)];
        if (index === 0) return element('th', { scope: 'row' }, shown);
        if (column.bar) return barCell(value, largest[index]);
        return element('td', { class: column.numeric ? 'numeric' : undefined }, shown);
      }),
    );
  const bodies = groups.map(({ heading, rows: groupRows }) => {
    const headingRow =
      heading === undefined
        ? []
        : [element('tr', { class: 'group-heading' }, [element('th', { scope: 'rowgroup', colspan: String(columns.length) }, [heading])])];
    return element('tbody', { class: heading === undefined ? undefined : 'grouped' }, [...headingRow, ...groupRows.map(rowOf)]);
  });
  const table = element('table', { 'aria-labelledby': titleId }, [colgroup, head, ...bodies]);
  return element('div', { class: 'table-block' }, [
    element('p', { class: 'table-title', id: titleId }, [title]),
    element('div', { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-labelledby': titleId }, [table]),
  ]);
}

/** How a cell that a spreadsheet would run as a formula begins (OWASP, "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. A text that
 * would start a formula (form item names come from the imported calls) is written after an apostrophe,
 * which a spreadsheet shows as text; a number is written as it is.
 */
function csvField(value) {
  const raw = String(value);
  const text = FORMULA_START.test(raw) && !Number.isFinite(Number(raw)) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of `columns` (names) and `rows`, lines ending in CRLF. */
export function csvText({ columns, rows }) {
  return [columns, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
