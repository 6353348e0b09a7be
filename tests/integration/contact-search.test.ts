import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchFilter } from '@/lib/admin/inbox-api'
import { foldForSearch } from '@/lib/admin/search-folding'
import { targets, type Sql } from './database-targets'

/*
 * The inbox's search ignores accents and case (migration contact_search): the database folds each
 * message into search_text, the inbox folds the term the same way (lib/admin/search-folding.ts). The
 * two must agree on every character, or a term would miss a message it names. On PGlite and, in CI,
 * PostgreSQL 15.
 */

/**
 * Every code point of the Basic Multilingual Plane a text column can hold (no NUL, no surrogate), each
 * on its own line: a line break is a starter, so NFD never reorders marks across it (two engines' Unicode
 * versions may rank a mark assigned since differently; no text puts such marks side by side).
 */
const BMP = Array.from({ length: 0xffff }, (_, index) => index + 1)
  .filter((codePoint) => codePoint < 0xd800 || codePoint > 0xdfff)
  .map((codePoint) => String.fromCodePoint(codePoint))
  .join('\n')

describe.each(targets)('accent- and case-insensitive search on $name', (target) => {
  let db: Sql
  beforeAll(async () => {
    db = await target.open()
    await db.query(
      `insert into public.contact_submissions (name, email, message) values
         ('Zoé Lefèvre', 'zoe@example.fr', 'Une fenêtre sur l’agence, cœur de métier.'),
         ('CHLOÉ DURAND', 'Chloe.Durand@Example.fr', 'Bonjour, rédaction d’un site en Œuvre.'),
         ('Łukasz Straße', 'lukasz@example.pl', 'Besoin d’une stratégie pour 2027 !')`,
    )
  })
  afterAll(() => db.close())

  it('folds as the browser does, on every character of the BMP', async () => {
    const [{ folded }] = await db.query<{ folded: string }>('select private.fold_for_search($1) as folded', [BMP])
    const expected = foldForSearch(BMP)
    const sql = folded.split('\n')
    const js = expected.split('\n')
    const differing = js.flatMap((line, index) =>
      line === sql[index] ? [] : [`U+${BMP.split('\n')[index].codePointAt(0)!.toString(16)}: ${line} ≠ ${sql[index]}`],
    )
    expect(differing).toEqual([])
    expect(sql).toHaveLength(js.length)
  })

  /** The names the inbox's filter finds, run as the ILIKE PostgREST makes of it. */
  const found = async (term: string) => {
    const pattern = /^search_text\.ilike\."\*(.*)\*"$/s.exec(searchFilter(term))![1].replace(/\\(["\\])/g, '$1')
    const rows = await db.query<{ name: string }>(
      `select name from public.contact_submissions where search_text ilike $1 order by name`,
      [`%${pattern}%`],
    )
    return rows.map((row) => row.name)
  }

  it('finds « fenêtre » by FENETRE, fenetre and fenêtre, and by its name without accents', async () => {
    for (const term of ['FENETRE', 'fenetre', 'fenêtre', 'FENÊTRE'])
      expect(await found(term), term).toEqual(['Zoé Lefèvre'])
    expect(await found('zoe lefevre')).toEqual(['Zoé Lefèvre'])
    expect(await found('chloé')).toEqual(['CHLOÉ DURAND'])
    expect(await found('CHLOE.DURAND@EXAMPLE')).toEqual(['CHLOÉ DURAND'])
  })

  it('spells ligatures and letters without a decomposable accent, and reads apostrophes alike', async () => {
    expect(await found('coeur')).toEqual(['Zoé Lefèvre'])
    expect(await found('oeuvre')).toEqual(['CHLOÉ DURAND'])
    expect(await found('lukasz strasse')).toEqual(['Łukasz Straße'])
    expect(await found("l'agence")).toEqual(['Zoé Lefèvre'])
    expect(await found('redaction d’un')).toEqual(['CHLOÉ DURAND'])
  })

  it('takes % and _ literally, and never matches across two fields', async () => {
    expect(await found('%')).toEqual([])
    expect(await found('_')).toEqual([])
    expect(await found('lefevre zoe@')).toEqual([])
  })

  it('keeps search_text in step when a message is changed', async () => {
    await db.query(
      `update public.contact_submissions set message = 'Un AUTRE message, très différent.' where email = 'lukasz@example.pl'`,
    )
    expect(await found('tres different')).toEqual(['Łukasz Straße'])
    expect(await found('strategie')).toEqual([])
  })
})
