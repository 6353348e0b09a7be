/**
 * A least-recently-used cache bounded by the bytes its entries cost, not by their number: 500
 * entries of 3.9 MB each are 2 GB (issue #20). The caller states each entry's cost; an entry
 * costing more than `maxEntryBytes` is not kept at all.
 */
export class ByteBoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>()
  private total = 0
  readonly maxBytes: number
  readonly maxEntryBytes: number

  constructor(maxBytes: number, maxEntryBytes: number) {
    this.maxBytes = maxBytes
    this.maxEntryBytes = maxEntryBytes
  }

  get bytes(): number {
    return this.total
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  set(key: string, value: V, bytes: number): void {
    const previous = this.entries.get(key)
    if (previous) {
      this.entries.delete(key)
      this.total -= previous.bytes
    }
    if (bytes > this.maxEntryBytes) return
    while (this.total + bytes > this.maxBytes && this.entries.size > 0) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, { value: V; bytes: number }]
      this.entries.delete(oldestKey)
      this.total -= oldest.bytes
    }
    this.entries.set(key, { value, bytes })
    this.total += bytes
  }
}
