/**
 * A maximum flow (Dinic's algorithm) over a small network given edge by edge: the mirror's planner routes
 * each region's calls to the days its callers call on with it, a few hundred nodes per month.
 */
export class FlowNetwork {
  private readonly heads: number[][];
  private readonly to: number[] = [];
  private readonly capacity: number[] = [];
  private readonly level: Int32Array;
  private readonly next: Int32Array;

  constructor(readonly nodes: number) {
    this.heads = Array.from({ length: nodes }, () => []);
    this.level = new Int32Array(nodes);
    this.next = new Int32Array(nodes);
  }

  /** An edge from `from` to `to` of `capacity`; its index, to read its flow once the flow is found. */
  add(from: number, to: number, capacity: number): number {
    const edge = this.to.length;
    this.to.push(to, from);
    this.capacity.push(capacity, 0);
    this.heads[from]?.push(edge);
    this.heads[to]?.push(edge + 1);
    return edge;
  }

  /** The flow through an edge that `add` returned. */
  flowOf(edge: number): number {
    return this.capacity[edge + 1] ?? 0;
  }

  /** Takes an edge out of the network, and the flow through it with it. */
  close(edge: number): void {
    this.capacity[edge] = 0;
    this.capacity[edge + 1] = 0;
  }

  /** Sends as much as the network carries from `source` to `sink`, and says how much. */
  maximise(source: number, sink: number): number {
    let total = 0;
    while (this.levelled(source, sink)) {
      this.next.fill(0);
      for (let sent = this.push(source, sink, Number.POSITIVE_INFINITY); sent > 0; sent = this.push(source, sink, Number.POSITIVE_INFINITY)) total += sent;
    }
    return total;
  }

  private levelled(source: number, sink: number): boolean {
    this.level.fill(-1);
    this.level[source] = 0;
    const queue = [source];
    for (let at = 0; at < queue.length; at += 1) {
      const node = queue[at] ?? 0;
      for (const edge of this.heads[node] ?? []) {
        const to = this.to[edge] ?? 0;
        if ((this.capacity[edge] ?? 0) > 0 && this.level[to] === -1) {
          this.level[to] = (this.level[node] ?? 0) + 1;
          queue.push(to);
        }
      }
    }
    return this.level[sink] !== -1;
  }

  private push(node: number, sink: number, limit: number): number {
    if (node === sink) return limit;
    const edges = this.heads[node] ?? [];
    for (; (this.next[node] ?? 0) < edges.length; this.next[node] = (this.next[node] ?? 0) + 1) {
      const edge = edges[this.next[node] ?? 0] ?? 0;
      const to = this.to[edge] ?? 0;
      if ((this.capacity[edge] ?? 0) <= 0 || this.level[to] !== (this.level[node] ?? 0) + 1) continue;
      const sent = this.push(to, sink, Math.min(limit, this.capacity[edge] ?? 0));
      if (sent > 0) {
        this.capacity[edge] = (this.capacity[edge] ?? 0) - sent;
        this.capacity[edge ^ 1] = (this.capacity[edge ^ 1] ?? 0) + sent;
        return sent;
      }
    }
    return 0;
  }
}
