import { applyPatch, type RawPatch } from 'mendoza'

/*
 * Mendoza effects (https://github.com/sanity-io/mendoza), the patches the Content Lake attaches to a
 * transaction for each document it touched: `apply` turns the document before into the one after,
 * `revert` the other way. The Studio's history replays them with the `mendoza` package and keeps
 * who wrote each part of a value (a string's unchanged characters keep their author), so they are
 * edits of the parts that changed, not whole values. The package only applies patches: the encoder is
 * here, and every patch it makes is applied with the package before it is kept; one whose result
 * differs is replaced by the whole value, which is always right.
 *
 * Effects are computed on documents without `_rev`, as the hosted API's are: the Studio strips `_rev`
 * before replaying them, and a field's index in a patch counts the sorted keys of the value it edits.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }
export type EffectPair = { apply: RawPatch; revert: RawPatch }

// Opcodes, in the order of the `mendoza` package's patcher (internal-patcher.ts, OPS).
const VALUE = 0
const PUSH_FIELD_COPY = 10
const PUSH_FIELD_BLANK = 11
const PUSH_ELEMENT_COPY = 12
const PUSH_ELEMENT_BLANK = 13
const RETURN_INTO_OBJECT_SAME_KEY_POP = 15
const RETURN_INTO_ARRAY_POP = 16
const OBJECT_SET_FIELD_VALUE = 17
const OBJECT_DELETE_FIELD = 19
const ARRAY_APPEND_VALUE = 20
const ARRAY_APPEND_SLICE = 21
const STRING_APPEND_STRING = 22
const STRING_APPEND_SLICE = 23

/** Below this many characters in common, a changed string is written whole: slices would cost more than they keep. */
const MIN_COMMON_CHARACTERS = 4

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, index) => jsonEqual(item, b[index]))
  }
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
}

/** A document as its effects see it: without `_rev`. */
export function withoutRev(doc: Record<string, unknown> | null): JsonObject | null {
  if (!doc) return null
  const { _rev: _ignored, ...rest } = doc
  return rest as JsonObject
}

/** The effects of one transaction on one document (null: the document did not exist, or no longer does). */
export function documentEffects(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): EffectPair {
  const left = withoutRev(before)
  const right = withoutRev(after)
  return { apply: checkedPatch(left, right), revert: checkedPatch(right, left) }
}

/** A patch from `left` to `right`, kept only if the `mendoza` package, applying it, gives `right`. */
export function checkedPatch(left: Json, right: Json): RawPatch {
  if (!isObject(left) || !isObject(right)) return [VALUE, right]
  const ops: RawPatch = []
  objectEdits(left, right, ops)
  try {
    if (jsonEqual(applyPatch(left, ops) as Json, right)) return ops
  } catch {
    // a patch the package cannot apply is replaced below, like one that gives another value
  }
  return [VALUE, right]
}

/** Edits the object on top of the output (a copy of `left`, the input on top) into `right`. */
function objectEdits(left: JsonObject, right: JsonObject, ops: RawPatch) {
  const keys = Object.keys(left).sort() // the patcher's field indexes count the input's sorted keys
  const indexOf = new Map(keys.map((key, index) => [key, index]))
  keys.forEach((key, index) => {
    if (!Object.hasOwn(right, key)) ops.push(OBJECT_DELETE_FIELD, index)
  })
  for (const key of Object.keys(right)) {
    const index = indexOf.get(key)
    const value = right[key]
    if (index === undefined) ops.push(OBJECT_SET_FIELD_VALUE, value, key)
    else if (!jsonEqual(left[key], value) && !editInPlace(left[key], value, index, 'field', ops))
      ops.push(OBJECT_SET_FIELD_VALUE, value, key)
  }
}

/**
 * Edits a field or an element that changed without being replaced: an object field by field, an
 * array from slices of the old one, a string from the characters it kept. False when the value is
 * better written whole (another type, or a string with too little in common).
 */
function editInPlace(left: Json, right: Json, index: number, at: 'field' | 'element', ops: RawPatch): boolean {
  const field = at === 'field'
  if (isObject(left) && isObject(right)) {
    ops.push(field ? PUSH_FIELD_COPY : PUSH_ELEMENT_COPY, index)
    objectEdits(left, right, ops)
  } else if (Array.isArray(left) && Array.isArray(right) && right.length > 0) {
    // (a blank that nothing is appended to stays null: an empty array is written whole)
    ops.push(field ? PUSH_FIELD_BLANK : PUSH_ELEMENT_BLANK, index)
    arrayBuild(left, right, ops)
  } else if (typeof left === 'string' && typeof right === 'string') {
    const split = stringSplit(left, right)
    if (split.prefix + split.suffix < MIN_COMMON_CHARACTERS) return false
    ops.push(field ? PUSH_FIELD_BLANK : PUSH_ELEMENT_BLANK, index)
    stringBuild(left, right, split, ops)
  } else return false
  ops.push(field ? RETURN_INTO_OBJECT_SAME_KEY_POP : RETURN_INTO_ARRAY_POP)
  return true
}

/**
 * Builds `right` into an empty array from `left`: elements found unchanged are copied as slices of
 * `left` (matched by `_key` when they have one, by position otherwise), changed ones are edited in
 * place, new ones are written whole.
 */
function arrayBuild(left: Json[], right: Json[], ops: RawPatch) {
  const byKey = new Map<string, number>()
  left.forEach((item, index) => {
    if (isObject(item) && typeof item._key === 'string' && !byKey.has(item._key)) byKey.set(item._key, index)
  })
  let prefix = 0
  while (prefix < left.length && prefix < right.length && jsonEqual(left[prefix], right[prefix])) prefix++
  let suffix = 0
  const room = Math.min(left.length, right.length) - prefix
  while (suffix < room && jsonEqual(left[left.length - 1 - suffix], right[right.length - 1 - suffix])) suffix++

  let run: [number, number] | null = null
  const flush = () => {
    if (run) ops.push(ARRAY_APPEND_SLICE, run[0], run[1])
    run = null
  }
  right.forEach((item, index) => {
    let match = -1
    if (index < prefix) match = index
    else if (index >= right.length - suffix) match = left.length - (right.length - index)
    else if (isObject(item) && typeof item._key === 'string') match = byKey.get(item._key) ?? -1
    else if (index < left.length - suffix) match = index
    if (match >= 0 && jsonEqual(left[match], item)) {
      if (run && run[1] === match) run[1]++
      else {
        flush()
        run = [match, match + 1]
      }
      return
    }
    flush()
    if (match < 0 || !editInPlace(left[match], item, match, 'element', ops)) ops.push(ARRAY_APPEND_VALUE, item)
  })
  flush()
}

type StringSplit = { prefix: number; suffix: number }

/** The UTF-16 lengths of the common prefix and suffix, never splitting a surrogate pair. */
function stringSplit(left: string, right: string): StringSplit {
  const shorter = Math.min(left.length, right.length)
  let prefix = 0
  while (prefix < shorter && left.charCodeAt(prefix) === right.charCodeAt(prefix)) prefix++
  if (prefix > 0 && isHighSurrogate(left.charCodeAt(prefix - 1))) prefix--
  let suffix = 0
  while (
    suffix < shorter - prefix &&
    left.charCodeAt(left.length - 1 - suffix) === right.charCodeAt(right.length - 1 - suffix)
  )
    suffix++
  if (suffix > 0 && isLowSurrogate(left.charCodeAt(left.length - suffix))) suffix--
  return { prefix, suffix }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** Builds `right` into an empty string from slices of `left`, whose offsets mendoza counts in UTF-8 bytes. */
function stringBuild(left: string, right: string, { prefix, suffix }: StringSplit, ops: RawPatch) {
  const leftBytes = utf8Length(left)
  if (prefix > 0) ops.push(STRING_APPEND_SLICE, 0, utf8Length(left.slice(0, prefix)))
  const middle = right.slice(prefix, right.length - suffix)
  if (middle) ops.push(STRING_APPEND_STRING, middle)
  if (suffix > 0) ops.push(STRING_APPEND_SLICE, leftBytes - utf8Length(left.slice(left.length - suffix)), leftBytes)
}

/** UTF-8 length as mendoza counts it: by code point, a lone surrogate as three bytes. */
function utf8Length(text: string): number {
  let bytes = 0
  for (const character of text) {
    const code = character.codePointAt(0) as number
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  return bytes
}

/** `[0, null]`: the effect that deletes a document (apply) or that a creation reverts to (revert). */
export const isDeletePatch = (patch: RawPatch) => patch.length === 2 && patch[0] === VALUE && patch[1] === null
