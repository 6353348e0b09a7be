import { Badge, Box, Card, Flex, Spinner, Stack, Text } from '@sanity/ui'
import { IntentLink } from 'sanity/router'
import { pendingFieldCount } from './pending-translations'
import { usePendingTranslations } from './use-pending-translations'

/**
 * « Traductions à revoir »: every English field that needs an editor (stale or missing in the draft as
 * editors see it, or fixed in a draft not yet published: « à publier »), grouped by document, the
 * oldest French change first, each a link that opens the document at that field. The statuses are
 * computed here, from the content, and follow it live.
 */
export function TranslationsOverview() {
  const { documents, error } = usePendingTranslations()

  if (error) return <Message tone="critical" text={`Impossible de lire les traductions : ${error}`} />
  if (!documents)
    return (
      <Flex padding={4} justify="center">
        <Spinner muted />
      </Flex>
    )
  if (documents.length === 0) return <Message tone="positive" text="Toutes les traductions sont à jour." />
  return (
    <Stack gap={4} padding={4} data-testid="translations-overview">
      {documents.map((document) => (
        <Card key={document.id} padding={3} radius={2} border data-testid={`pending-${document.id}`}>
          <Stack gap={3}>
            <Flex align="center" gap={2}>
              <Text weight="semibold">{document.title}</Text>
              <Text size={1} muted>
                {document.typeTitle}
              </Text>
            </Flex>
            <Stack as="ul" gap={2}>
              {document.fields.map((field) => (
                <Box as="li" key={field.pathString}>
                  <Flex align="center" gap={2}>
                    <Badge tone={TONES[field.state]}>{field.label}</Badge>
                    <Text size={1}>
                      <IntentLink
                        intent="edit"
                        params={{ id: document.id, type: document.type, path: field.pathString }}
                      >
                        {field.title}
                      </IntentLink>
                    </Text>
                  </Flex>
                </Box>
              ))}
            </Stack>
          </Stack>
        </Card>
      ))}
    </Stack>
  )
}

const TONES = { missing: 'critical', stale: 'caution', unpublished: 'primary' } as const

/** The structure item's count: how many English fields need an editor (none: nothing shown). */
export function PendingTranslationsCount() {
  const { documents } = usePendingTranslations()
  const count = documents ? pendingFieldCount(documents) : 0
  if (count === 0) return null
  return (
    <Badge tone="caution" fontSize={0} data-testid="translations-count" aria-label={`${count} à revoir`}>
      {count}
    </Badge>
  )
}

function Message({ tone, text }: { tone: 'positive' | 'critical'; text: string }) {
  return (
    <Box padding={4}>
      <Card tone={tone} padding={4} radius={2}>
        <Text>{text}</Text>
      </Card>
    </Box>
  )
}
