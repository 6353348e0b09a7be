import { Text } from '@sanity/ui'
import { diffWordsWithSpace } from 'diff'

/**
 * The French since the English was written: removed words struck through on red, added ones on green,
 * the rest as it reads. Words, not characters: an editor sees « 990 € » became « 1 090 € », not digits.
 */
export function FrenchDifference({ before, after }: { before: string; after: string }) {
  return (
    <Text size={1} data-testid="french-difference" style={{ whiteSpace: 'pre-wrap', lineHeight: 1.6 }}>
      {diffWordsWithSpace(before, after).map((part, index) =>
        part.removed ? (
          <del key={index} title="Supprimé" style={{ background: '#fde2e1', color: '#8a1c14' }}>
            {part.value}
          </del>
        ) : part.added ? (
          <ins key={index} title="Ajouté" style={{ background: '#dcf5e3', color: '#135c2b', textDecoration: 'none' }}>
            {part.value}
          </ins>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </Text>
  )
}
