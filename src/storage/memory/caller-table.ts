import type { Region } from '../../domain/caller-region';
import { TextTable } from './text-table';
import { Uint32Column } from './uint32-column';

/**
 * Every caller seen, each with an id and its region, placed once when the caller first calls: a day's
 * rollup then counts distinct callers and regions by small integers.
 */
export class CallerTable {
  private readonly numbers = new TextTable();
  private readonly regionIndexes = new Uint32Column();
  private readonly regionIndexByName = new Map<Region, number>();
  private readonly regionNames: Region[] = [];

  constructor(private readonly placeCaller: (caller: string) => Region) {}

  get size(): number {
    return this.numbers.size;
  }

  intern(caller: string): number {
    const known = this.numbers.size;
    const id = this.numbers.intern(caller);
    if (id === known) this.regionIndexes.push(this.regionIndexOf(this.placeCaller(caller)));
    return id;
  }

  regionIndexOfCaller(id: number): number {
    return this.regionIndexes.get(id);
  }

  regionName(regionIndex: number): Region {
    return this.regionNames[regionIndex] as Region;
  }

  private regionIndexOf(region: Region): number {
    let index = this.regionIndexByName.get(region);
    if (index === undefined) {
      index = this.regionNames.push(region) - 1;
      this.regionIndexByName.set(region, index);
    }
    return index;
  }
}
