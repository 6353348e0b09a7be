-- Seed for `supabase db reset` (Supabase CLI). Intentionally empty: contact messages are personal
-- data, so no sample ones are committed. Create the first admin with `npm run admin:create`.
select 1;
