// Supabase Edge entry point. The logic lives in handler.ts so the local server can run it in Node.
import handleSendContactEmail from './handler.ts'

Deno.serve(handleSendContactEmail)
