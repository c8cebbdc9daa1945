import { ratios, readPeriodTotals } from '../series/period-totals';
import { countSeries, ratioSeries, seriesBodySchema } from '../series/representation';
import type { SeriesDefinition } from '../series/series-report';

export const VOLUME_PATH = '/volume/:start/:end/:period/:phone';

/** Call volume's JSON body, the series below. */
export const volumeBodySchema = seriesBodySchema('CallVolumeReport', {
  calls: countSeries('Calls'),
  call_minutes: ratioSeries('Minutes of those calls (duration_seconds / 60)'),
  transfers: countSeries('Transfers made during those calls'),
  transfer_minutes: ratioSeries('Minutes spent in those transfers (transfer_seconds / 60)'),
});

const MS_PER_MINUTE = 60_000;

/** Call volume (specification.md §2.4): calls, their minutes, transfers and the minutes spent in them. */
export const volumeSeries: SeriesDefinition = async (source) => {
  const periods = await readPeriodTotals(source);
  return [
    ['calls', periods.calls],
    ['call_minutes', ratios(periods.durationMs, MS_PER_MINUTE)],
    ['transfers', periods.transfers],
    ['transfer_minutes', ratios(periods.transferMs, MS_PER_MINUTE)],
  ];
};
