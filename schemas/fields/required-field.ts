import { defineField, type FieldDefinition } from 'sanity'

/** A field the editor must fill before publishing: Sanity's `rule.required()`, written once. */
export function requiredField<const T extends FieldDefinition>(field: T): T {
  return defineField({ ...field, validation: (rule) => rule.required() } as FieldDefinition) as T
}
