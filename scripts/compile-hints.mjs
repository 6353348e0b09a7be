// Run by `npm run build` after `next build`: marks the chunks every prerendered page loads at once
// for eager background compilation in Chrome (see lib/compile-hints.mjs for why).
import { addCompileHints } from './lib/compile-hints.mjs'

const distDir = process.env.NEXT_DIST_DIR || '.next'
const changed = addCompileHints(distDir)
console.log(`[build] compile hints added to ${changed.length} first-load chunks in ${distDir}`)
