import { evaluate, parse, type ExprNode } from 'groq-js'
import { loadSeedDataset } from './seed-dataset'

export type QueryParams = { locale?: string; slug?: string }

const parsed = new Map<string, ExprNode>()

/** groq-js folds parameters in at parse time, so the tree is cached per query and parameter set. */
function parseOnce(query: string, params: QueryParams): ExprNode {
  const key = `${JSON.stringify(params)}\u0000${query}`
  let tree = parsed.get(key)
  if (!tree) {
    tree = parse(query, { params })
    parsed.set(key, tree)
  }
  return tree
}

/** Evaluates a GROQ query over the bundled seed dataset, as the Content Lake would. */
export async function querySeed(query: string, params: QueryParams = {}): Promise<unknown> {
  const result = await evaluate(parseOnce(query, params), { dataset: loadSeedDataset(), params })
  return result.get()
}
