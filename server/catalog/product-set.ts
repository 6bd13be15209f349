/**
 * A set of listing positions (0 .. size - 1) as a bitset: the listing's filter counts intersect a few of
 * these per request instead of asking PostgreSQL to scan and unnest thousands of rows per filter
 * (server/catalog/facet-index.ts).
 */
export class ProductSet {
  readonly words: Uint32Array;

  constructor(
    readonly size: number,
    words?: Uint32Array,
  ) {
    this.words = words ?? new Uint32Array(Math.ceil(size / 32));
  }

  static full(size: number): ProductSet {
    const set = new ProductSet(size);
    set.words.fill(0xffffffff);
    const spare = set.words.length * 32 - size;
    if (spare > 0) set.words[set.words.length - 1] = 0xffffffff >>> spare;
    return set;
  }

  add(position: number): void {
    const index = position >>> 5;
    this.words[index] = this.words[index]! | (1 << (position & 31));
  }

  has(position: number): boolean {
    return (this.words[position >>> 5]! & (1 << (position & 31))) !== 0;
  }

  /** Members of this set and of `other`, as a new set. */
  and(other: ProductSet): ProductSet {
    const words = new Uint32Array(this.words.length);
    for (let i = 0; i < words.length; i++) words[i] = this.words[i]! & other.words[i]!;
    return new ProductSet(this.size, words);
  }

  /** Members of either, as a new set. */
  or(other: ProductSet): ProductSet {
    const words = new Uint32Array(this.words.length);
    for (let i = 0; i < words.length; i++) words[i] = this.words[i]! | other.words[i]!;
    return new ProductSet(this.size, words);
  }

  /** Every position that is not a member, as a new set. */
  complement(): ProductSet {
    const rest = ProductSet.full(this.size);
    for (let i = 0; i < rest.words.length; i++) rest.words[i] = rest.words[i]! & ~this.words[i]!;
    return rest;
  }

  count(): number {
    let total = 0;
    for (const word of this.words) total += bitCount(word);
    return total;
  }

  /** How many members this set shares with `other`, without building the intersection. */
  countShared(other: ProductSet): number {
    let total = 0;
    for (let i = 0; i < this.words.length; i++) total += bitCount(this.words[i]! & other.words[i]!);
    return total;
  }

  /** Calls `visit` with each member, in order. */
  forEach(visit: (position: number) => void): void {
    for (let i = 0; i < this.words.length; i++) {
      let word = this.words[i]!;
      while (word !== 0) {
        const lowest = word & -word;
        visit(i * 32 + 31 - Math.clz32(lowest));
        word ^= lowest;
      }
    }
  }
}

/** Set bits of a 32-bit word (SWAR popcount). */
function bitCount(word: number): number {
  let n = word - ((word >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Every member of every set (none: the empty set). */
export function unionOf(size: number, sets: readonly ProductSet[]): ProductSet {
  return sets.reduce((union, set) => union.or(set), new ProductSet(size));
}

/** Members of every set (none: every position). */
export function intersectionOf(size: number, sets: readonly ProductSet[]): ProductSet {
  if (sets.length === 0) return ProductSet.full(size);
  return sets.slice(1).reduce((shared, set) => shared.and(set), sets[0]!);
}
