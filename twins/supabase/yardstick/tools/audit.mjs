// After the suite, the rows that show whether writes PostgREST refuses or rolls back were committed.
// Read through the proxy (service_role), written to out/audit.json for classify.mjs.
import { writeFileSync } from 'node:fs'
const [base, outFile] = process.argv.slice(2)
const get = async (path) => {
  const response = await fetch(base + path)
  return { status: response.status, body: await response.json() }
}
const audit = {
  users: await get('/users?select=username,status&order=username'),
  channels: await get('/channels?select=id,slug&order=id'),
  messages: await get('/messages?select=id,message,channel_id&order=id'),
}
writeFileSync(outFile, JSON.stringify(audit, null, 2))
