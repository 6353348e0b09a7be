import { createContactSchema } from '../supabase/functions/_shared/contact-schema.ts'
const r = createContactSchema({ variant: 'page' }).safeParse({ name: '-1', email: 'a@a.aa', phone: '{}', message: '\u000e𐀀𐀀𐀀𐀀\u000e', package: '' })
console.log(JSON.stringify(r.error?.issues ?? r.data))
