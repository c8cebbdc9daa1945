/**
 * Plain JavaScript for a worker thread's source (the pattern worker's, a worker handler's): it defines
 * `toLowestPriority()`, by which the thread takes the lowest priority, so that the event loop, on the same
 * cores, comes first. On Linux a thread's niceness is its own (setpriority(2) on its id); elsewhere there
 * is no thread's own id to name, and the worker keeps the process's priority. When the cores are free, a
 * thread at the lowest priority still has all of them (docs/performance-costs.md, "A long answer on the
 * pattern worker"). The source calls it when its work begins: a worker handler once its module is loaded,
 * since the load has SURVEY_HANDLER_TIMEOUT_SECONDS to finish in, which a busy machine would otherwise
 * spend on every other thread first.
 */
export const LOWEST_PRIORITY_SOURCE = `
function toLowestPriority() {
  try {
    require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), 19);
  } catch {
    // Not Linux: the process's priority.
  }
}
`;
