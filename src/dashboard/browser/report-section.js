import { element, uniqueId } from './dom.js';
import { queryFileName } from './query.js';
import { hasPeriod } from './reports.js';
import { csvText } from './table.js';

/**
 * One report's place on the page: its heading, what it shows, a CSV link and its body, which holds the
 * report's view, or the reason it could not be shown, in words.
 */
export function reportSection(report) {
  const titleId = uniqueId('report-title');
  const body = element('div', { class: 'report-body' });
  const download = element('a', { class: 'download', hidden: true }, [
    'Download CSV',
    element('span', { class: 'visually-hidden' }, [` of ${report.title.toLowerCase()}`]),
  ]);
  const node = element('section', { class: 'report panel', id: `report-${report.id}`, 'aria-labelledby': titleId }, [
    element('div', { class: 'report-header' }, [element('h3', { id: titleId }, [report.title]), download]),
    element('p', { class: 'hint' }, [report.about]),
    body,
  ]);

  let current = { destroy: () => {} };
  let csvAddress;

  const clear = () => {
    current.destroy();
    current = { destroy: () => {} };
    body.replaceChildren();
    download.hidden = true;
    download.removeAttribute('href');
    if (csvAddress !== undefined) URL.revokeObjectURL(csvAddress);
    csvAddress = undefined;
  };

  return {
    node,
    /** `view` is what a view module returns: its node, its CSV table, and how to let go of its charts. */
    show(view, query) {
      clear();
      current = view;
      body.append(view.node);
      csvAddress = URL.createObjectURL(new Blob([csvText(view.csv)], { type: 'text/csv;charset=utf-8' }));
      download.href = csvAddress;
      download.download = `${report.id}-${queryFileName(query, hasPeriod(report))}.csv`;
      download.hidden = false;
    },
    showError(message) {
      clear();
      body.append(element('p', { class: 'error' }, [message]));
    },
    clear,
  };
}
