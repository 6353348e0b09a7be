// The twins' well-known local settings in one entry point (`@plume/twins/defaults`): what a site
// needs to reach them without configuration. Plain constants, safe in a browser bundle.
export * from './content-lake/content-lake-settings.ts'
export * from './supabase/supabase-cli-settings.ts'
