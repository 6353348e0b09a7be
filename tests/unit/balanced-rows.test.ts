import { describe, expect, it } from 'vitest'
import { balancedRows, centredRowStarts } from '@/lib/balanced-rows'

describe('balancedRows', () => {
  it('spreads the seven client logos without leaving one alone', () => {
    expect(balancedRows(7, 3)).toEqual([3, 2, 2])
    expect(balancedRows(7, 4)).toEqual([4, 3])
    expect(balancedRows(7, 7)).toEqual([7])
  })

  it('never leaves an item alone on a row, for any count, with three or more a row', () => {
    for (let count = 2; count <= 40; count++) {
      for (let perRow = 3; perRow <= 8; perRow++) {
        const rows = balancedRows(count, perRow)
        expect(rows.reduce((sum, length) => sum + length, 0)).toBe(count)
        expect(Math.max(...rows)).toBeLessThanOrEqual(perRow)
        expect(Math.min(...rows), `${count} items, ${perRow} a row: ${rows.join(' + ')}`).toBeGreaterThanOrEqual(2)
        expect(rows.length).toBe(Math.ceil(count / perRow))
      }
    }
  })
})

describe('centredRowStarts', () => {
  it('starts each row where it is centred in a grid of two columns per item', () => {
    // 6 columns: a full row from column 1, rows of two from column 2 (columns 2–5 of 1–6).
    expect(centredRowStarts(7, 3)).toEqual([1, 'auto', 'auto', 2, 'auto', 2, 'auto'])
    expect(centredRowStarts(7, 4)).toEqual([1, 'auto', 'auto', 'auto', 2, 'auto', 'auto'])
    expect(centredRowStarts(3, 7)).toEqual([5, 'auto', 'auto'])
  })
})
