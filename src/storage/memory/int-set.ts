const INITIAL_SLOTS = 8;
/** The set grows when more than three slots in four are taken. */
const MAX_LOAD = 0.75;
const GOLDEN_RATIO_32 = 0x9e3779b1;

/**
 * A set of unsigned 32-bit integers in one typed array (open addressing, value + 1 in a taken slot):
 * about 5-11 bytes an element outside the JavaScript heap, where a `Set` of numbers keeps a heap table
 * the garbage collector walks.
 */
export class IntSet {
  private slots = new Uint32Array(INITIAL_SLOTS);
  private count = 0;

  add(value: number): void {
    const slot = this.slotOf(value);
    if (this.slots[slot] !== 0) return;
    if (this.count + 1 > this.slots.length * MAX_LOAD) {
      this.grow();
      this.slots[this.slotOf(value)] = value + 1;
    } else {
      this.slots[slot] = value + 1;
    }
    this.count += 1;
  }

  forEach(visit: (value: number) => void): void {
    for (const taken of this.slots) if (taken !== 0) visit(taken - 1);
  }

  /** The slot holding `value`, or the free slot where it would go. */
  private slotOf(value: number): number {
    const mask = this.slots.length - 1;
    let slot = (Math.imul(value, GOLDEN_RATIO_32) >>> 0) & mask;
    while (this.slots[slot] !== 0 && this.slots[slot] !== value + 1) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const previous = this.slots;
    this.slots = new Uint32Array(previous.length * 2);
    for (const taken of previous) if (taken !== 0) this.slots[this.slotOf(taken - 1)] = taken;
  }
}
