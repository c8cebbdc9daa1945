/** A report as it last came, with the entity tag to ask whether it changed. */
export interface KeptReport {
  readonly etag: string;
  /** The body as text: parsed afresh on each use, so no caller can change what the next one gets. */
  readonly body: string;
}

/** The last report of each request, the least recently used dropped past `capacity`; 0 keeps none. */
export class KeptReports {
  private readonly reports = new Map<string, KeptReport>();

  constructor(private readonly capacity: number) {}

  get(key: string): KeptReport | undefined {
    const report = this.reports.get(key);
    if (report !== undefined) {
      // A Map iterates in insertion order: inserting it again makes it the most recently used.
      this.reports.delete(key);
      this.reports.set(key, report);
    }
    return report;
  }

  set(key: string, report: KeptReport): void {
    if (this.capacity === 0) return;
    this.reports.delete(key);
    this.reports.set(key, report);
    for (const oldest of this.reports.keys()) {
      if (this.reports.size <= this.capacity) break;
      this.reports.delete(oldest);
    }
  }
}
