/** Disjoint sets of the ids `0..size-1` (union-find with path compression): which ids have been made one. */
export class UnionFind {
  private readonly parent: Int32Array;

  constructor(size: number) {
    this.parent = Int32Array.from({ length: size }, (_, index) => index);
  }

  /** The id that stands for the set of `id`. */
  find(id: number): number {
    let root = id;
    while (this.parent[root] !== root) root = this.parent[root] ?? root;
    for (let next = id; next !== root; ) {
      const up = this.parent[next] ?? root;
      this.parent[next] = root;
      next = up;
    }
    return root;
  }

  isRoot(id: number): boolean {
    return this.parent[id] === id;
  }

  /** b's set made one with a's, a's root standing for both. */
  join(a: number, b: number): void {
    this.parent[this.find(b)] = this.find(a);
  }
}
