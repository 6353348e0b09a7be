import { Badge, Box, Card, Flex, Spinner, Stack, Text } from '@sanity/ui'
import { useEffect, useState } from 'react'
import { useClient, useSchema } from 'sanity'
import { IntentLink } from 'sanity/router'
import { pendingTranslations, type PendingDocument } from './pending-translations'

/**
 * « Traductions à revoir »: every stale or missing English field of every document (drafts as the
 * editors see them), grouped by document, the oldest French change first, each a link that opens the
 * document at that field. Read in one query; the statuses are computed here, from the content.
 */
export function TranslationsOverview() {
  const client = useClient({ apiVersion: '2025-02-19' })
  const schema = useSchema()
  const [documents, setDocuments] = useState<PendingDocument[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const types = schema.getTypeNames().filter((name) => schema.get(name)?.type?.name === 'document')
    const subscription = client.observable.fetch('*[_type in $types]', { types }, { perspective: 'drafts' }).subscribe({
      next: (result: Record<string, unknown>[]) => setDocuments(pendingTranslations(result, schema)),
      error: (reason: Error) => setError(reason.message),
    })
    return () => subscription.unsubscribe()
  }, [client, schema])

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
                    <Badge tone={field.state === 'missing' ? 'critical' : 'caution'}>{field.label}</Badge>
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

function Message({ tone, text }: { tone: 'positive' | 'critical'; text: string }) {
  return (
    <Box padding={4}>
      <Card tone={tone} padding={4} radius={2}>
        <Text>{text}</Text>
      </Card>
    </Box>
  )
}
