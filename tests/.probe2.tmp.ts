import { createJwtKit } from '../supabase/local/jwt.ts'
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET } from '../supabase/local/defaults.ts'
const kit = createJwtKit(LOCAL_JWT_SECRET)
for (let i = 0; i < 200; i++) await kit.verify(LOCAL_ANON_KEY)
let t = performance.now()
for (let i = 0; i < 2000; i++) await kit.verify(LOCAL_ANON_KEY)
console.log('jose verify ms', ((performance.now() - t) / 2000).toFixed(3))
