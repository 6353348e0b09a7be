import { Badge, Box, Button, Card, Checkbox, Flex, Grid, Stack, Text } from '@sanity/ui'
import { useEffect, useRef, useState } from 'react'
import { ObjectInputMember, set, setIfMissing, useFormValue, type ObjectInputProps } from 'sanity'
import {
  altImageReplaced,
  englishSourceFor,
  plainText,
  STATE_LABELS,
  translationStatus,
  type LocaleValue,
} from '../../lib/i18n/translation-status'
import { frenchDate } from '../../supabase/functions/_shared/french-date'
import { FrenchDifference } from './french-difference'

// In Paris time, as everywhere the agency reads a date (the inbox, the emails), whatever the browser's zone.
const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' })
const formatDate = (iso: string | undefined) => (iso ? frenchDate(dateFormat, new Date(iso)) : undefined)

/** The fields this editor marked current in this tab (« <document id>:<path> »): an input drawn again keeps saying so. */
const MARKED_HERE = new Set<string>()

/**
 * A bilingual field (French, then English) with its translation status: under the English, « Anglais à
 * revoir » with the date the French changed and what changed in it since the English was written, and
 * the two ways out (edit the English, or mark it current when the French change kept the meaning);
 * under the French, while an editor types, « L'anglais sera à revoir » with a « Correction mineure »
 * choice that keeps the English current. The status itself is read from the content
 * (lib/i18n/translation-status.ts): this input only records, when an editor writes the English, the
 * French it was written from.
 */
export function LocaleInput(props: ObjectInputProps) {
  const { members, onChange, focusPath, schemaType, path } = props
  const value = props.value as LocaleValue | undefined
  const status = translationStatus(value)
  const documentUpdatedAt = useFormValue(['_updatedAt']) as string | undefined
  const [minorEdit, setMinorEdit] = useState(false)
  const [frenchEditedHere, setFrenchEditedHere] = useState(false)
  // « Marquer l'anglais à jour » writes the mark to the draft, like any edit: it says so while the draft
  // holds it, also once the form has been drawn again (the pages that show the document, listed above it,
  // remount it). Published (or discarded), the document has no draft: the notice has said its piece.
  const formId = String(useFormValue(['_id']) ?? '')
  const inDraft = formId.startsWith('drafts.')
  const markKey = `${formId.replace(/^drafts\./, '')}:${path.join('.')}`
  const [, markedNow] = useState(0)
  const markedHere = inDraft && MARKED_HERE.has(markKey)
  useEffect(() => {
    if (!inDraft) MARKED_HERE.delete(markKey)
  }, [inDraft, markKey])
  const focused = focusPath[0]
  const previous = useRef({ fr: plainText(value?.fr), en: plainText(value?.en) })
  // An image's alternative text (this field is `alt` beside an `asset`): the image it describes.
  const assetRef = useFormValue([...path.slice(0, -1), 'asset', '_ref']) as string | undefined
  const describesAsset = (ref: string | undefined) => onChange([setIfMissing({}), set(ref, ['forAsset'])])
  const imageReplaced = altImageReplaced(value, assetRef)
  const previousAsset = useRef(assetRef)
  useEffect(() => {
    const before = previousAsset.current
    previousAsset.current = assetRef
    // The image replaced here: the text described the one before, unless recorded already.
    if (path.at(-1) === 'alt' && before && assetRef && before !== assetRef && value?.forAsset === undefined)
      describesAsset(before)
    // Only the asset matters; the recorded value is read as it is now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [assetRef])

  // The editor's own keystrokes (focus in that language) record what the English now follows: writing
  // the English, or correcting the French with « Correction mineure » ticked. A change from elsewhere
  // (another editor, Presentation, the API) records nothing, and so marks the English.
  useEffect(() => {
    const fr = plainText(value?.fr)
    const en = plainText(value?.en)
    const before = previous.current
    previous.current = { fr, en }
    const recordSource = () => onChange([setIfMissing({}, ['enSource']), set(englishSourceFor(value), ['enSource'])])
    const sourceOutdated = status.state !== 'current' || value?.enSource?.fr === undefined
    if (en !== before.en && focused === 'en' && en.trim() && sourceOutdated) recordSource()
    if (fr !== before.fr && focused === 'fr') {
      setFrenchEditedHere(true)
      // Rewritten in French after the image changed: it describes this image now.
      if (imageReplaced) describesAsset(assetRef)
      if (minorEdit && en.trim()) recordSource()
      // Written before the status existed: the English followed the French as it was until now.
      else if (en.trim() && value?.enSource?.fr === undefined) onChange(set({ fr: before.fr }, ['enSource']))
    }
    // Only the values matter: onChange and the status are derived from them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value?.fr, value?.en])

  const member = (name: string) => {
    const found = members.find((candidate) => candidate.kind === 'field' && candidate.name === name)
    return found ? (
      <ObjectInputMember
        member={found}
        renderAnnotation={props.renderAnnotation}
        renderBlock={props.renderBlock}
        renderInlineBlock={props.renderInlineBlock}
        renderField={props.renderField}
        renderInput={props.renderInput}
        renderItem={props.renderItem}
        renderPreview={props.renderPreview}
      />
    ) : null
  }
  const columns = (schemaType.options as { columns?: number } | undefined)?.columns ?? 1
  const markCurrent = () => onChange([setIfMissing({}, ['enSource']), set(englishSourceFor(value), ['enSource'])])

  const imageNotice = imageReplaced && (
    <Card tone="caution" padding={3} radius={2} border data-testid="alt-image-replaced">
      <Stack gap={3}>
        <Flex>
          <Badge tone="caution">Français et anglais {STATE_LABELS.stale}</Badge>
        </Flex>
        <Text size={1}>L’image a été remplacée : ce texte décrit peut-être l’ancienne.</Text>
        <Flex>
          <Button
            tone="primary"
            fontSize={1}
            padding={2}
            text="Le texte décrit la nouvelle image"
            onClick={() => describesAsset(assetRef)}
          />
        </Flex>
      </Stack>
    </Card>
  )

  return (
    <Grid gridTemplateColumns={[1, 1, columns]} gap={4}>
      {imageNotice && <Box style={{ gridColumn: '1 / -1' }}>{imageNotice}</Box>}
      <Stack gap={2}>
        {member('fr')}
        {frenchEditedHere && status.state === 'stale' && !imageReplaced && (
          <Card tone="caution" padding={2} radius={2} data-testid="french-notice">
            <Stack gap={2}>
              <Text size={1}>L’anglais sera à revoir.</Text>
              <Flex align="center" gap={2}>
                <Checkbox
                  id={`${props.id}-minor`}
                  checked={minorEdit}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked
                    setMinorEdit(checked)
                    if (checked) markCurrent()
                  }}
                />
                <Text size={1}>
                  <label htmlFor={`${props.id}-minor`}>Correction mineure (l’anglais reste à jour)</label>
                </Text>
              </Flex>
            </Stack>
          </Card>
        )}
      </Stack>
      <Stack gap={2}>
        {member('en')}
        {status.state === 'stale' && !imageReplaced && (
          <Card tone="caution" padding={3} radius={2} border data-testid="english-stale">
            <Stack gap={3}>
              <Stack gap={2}>
                <Flex>
                  <Badge tone="caution">Anglais {STATE_LABELS.stale}</Badge>
                </Flex>
                <Text size={1} muted>
                  {status.writtenAt
                    ? `Le français a changé depuis le ${formatDate(status.writtenAt)}, quand l’anglais a été écrit`
                    : 'Le français a changé depuis que l’anglais a été écrit'}
                  {documentUpdatedAt ? ` (dernière modification le ${formatDate(documentUpdatedAt)})` : ''}.
                </Text>
              </Stack>
              <Box>
                <Text size={1} weight="semibold">
                  Ce qui a changé en français :
                </Text>
                <Box marginTop={2}>
                  <FrenchDifference before={status.sourceFr ?? ''} after={status.fr} />
                </Box>
              </Box>
              <Flex gap={2} wrap="wrap">
                <Button
                  mode="ghost"
                  fontSize={1}
                  padding={2}
                  text="Modifier l’anglais"
                  onClick={() => props.onPathFocus(['en'])}
                />
                <Button
                  tone="primary"
                  fontSize={1}
                  padding={2}
                  text="Marquer l’anglais à jour"
                  onClick={() => {
                    markCurrent()
                    MARKED_HERE.add(markKey)
                    markedNow((count) => count + 1)
                  }}
                />
              </Flex>
            </Stack>
          </Card>
        )}
        {markedHere && status.state === 'current' && (
          <Card tone="positive" padding={2} radius={2} data-testid="english-marked">
            <Text size={1}>
              Anglais marqué à jour dans le brouillon : le site le saura quand vous publierez le document.
            </Text>
          </Card>
        )}
        {status.state === 'missing' && (
          <Flex data-testid="english-missing">
            <Badge tone="critical">Anglais {STATE_LABELS.missing}</Badge>
          </Flex>
        )}
      </Stack>
    </Grid>
  )
}
