/*
 * PostgREST's "schema cache" as the REST layer reads it: which public tables exist and their columns.
 * Its own module so that the database (which builds it) and the query grammar (which checks names
 * against it) both depend on it rather than on each other.
 */
export type ColumnInfo = { name: string; type: string }
/** The public tables and their columns. */
export type SchemaCache = Map<string, Map<string, ColumnInfo>>
