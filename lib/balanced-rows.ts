/**
 * Row lengths for `count` items laid out at most `perRow` a row, as evenly as possible, longer rows
 * first: 7 at most 3 a row gives [3, 2, 2] where filling rows in turn gives [3, 3, 1]. With three or
 * more a row, no row of two or more items ever ends with an item on its own.
 */
export function balancedRows(count: number, perRow: number): number[] {
  if (count <= 0) return []
  const rows = Math.ceil(count / perRow)
  const shortest = Math.floor(count / rows)
  const longer = count % rows
  return Array.from({ length: rows }, (_, row) => shortest + (row < longer ? 1 : 0))
}

/**
 * Where each item starts in a grid of 2 × perRow columns in which every item spans two: the first
 * item of a row at the column that centres that row, the others 'auto' (right after it).
 */
export function centredRowStarts(count: number, perRow: number): (number | 'auto')[] {
  return balancedRows(count, perRow).flatMap((length) => [
    perRow - length + 1,
    ...Array<'auto'>(length - 1).fill('auto'),
  ])
}
