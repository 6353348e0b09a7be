-- Retention of contact messages, enforced by the database. The privacy policy (« Finalité et durée de
-- conservation ») promises: « Elles sont conservées trois ans au plus après notre dernier échange, puis
-- supprimées. » The site keeps no record of the replies the agency sends by email, so the last message
-- an address sent stands for "our last exchange": once an address's most recent message is older than
-- the retention period, every message of that address is deleted (addresses compared as lower(email),
-- so « Camille@Example.fr » and « camille@example.fr » are one person). A message exactly as old as the
-- period is kept; one older by any amount goes (docs/decisions.md). Runs daily under pg_cron, as
-- Supabase projects schedule work in the database; `npm run messages:purge` runs it by hand.

-- The period, in Postgres interval syntax. tests/unit/retention-policy.test.ts checks that the privacy
-- policy states the same default.
insert into private.settings (key, value) values ('contact_retention_period', '3 years')
on conflict (key) do nothing;

-- One row per run, so an operator can see that the purge runs and what it removed: counts only, no
-- address or text (the point is to forget them).
create table private.contact_purge_runs (
  id bigint generated always as identity primary key,
  ran_at timestamptz not null default now(),
  messages_deleted integer not null,
  addresses_deleted integer not null,
  retention interval not null
);
alter table private.contact_purge_runs enable row level security;
revoke all on private.contact_purge_runs from public, anon, authenticated;

-- SECURITY DEFINER: the service role may not touch private.* itself; the function reads the period
-- and writes the run record for it. Returns {"messages_deleted", "addresses_deleted", "retention"}.
create or replace function public.purge_expired_contact_submissions() returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  retention interval := coalesce(
    (select value from private.settings where key = 'contact_retention_period'),
    '3 years'
  )::interval;
  -- Calendar arithmetic in the session's time zone (UTC on Supabase): three years before 2029-03-01
  -- 10:00 is 2026-03-01 10:00.
  cutoff timestamptz := now() - retention;
  messages integer;
  addresses integer;
begin
  -- A zero or negative period would delete every message at once: refuse it rather than obey a typo.
  if retention <= interval '0' then
    raise exception 'contact_retention_period must be positive, got %', retention;
  end if;
  with expired as (
    select lower(email) as address
    from public.contact_submissions
    group by lower(email)
    having max(created_at) < cutoff
  ),
  deleted as (
    delete from public.contact_submissions as message
    using expired
    where lower(message.email) = expired.address
    returning expired.address
  )
  select count(*), count(distinct address) into messages, addresses from deleted;
  insert into private.contact_purge_runs (messages_deleted, addresses_deleted, retention)
  values (messages, addresses, retention);
  return jsonb_build_object(
    'messages_deleted', messages,
    'addresses_deleted', addresses,
    'retention', retention::text
  );
end
$$;

-- Supabase grants EXECUTE on new public functions to the API roles by default: only the service role
-- (scripts, and pg_cron as postgres) may run a deletion.
revoke execute on function public.purge_expired_contact_submissions() from public, anon, authenticated;
grant execute on function public.purge_expired_contact_submissions() to service_role;

-- Daily at 03:17 UTC (pg_cron's time zone by default), away from the top of the hour other jobs take.
-- A hosted project lists pg_cron among its available extensions; the local Supabase twin has no
-- extension but a `cron` schema of its own with the same table and functions (bootstrap.sql), so the
-- same statements schedule it on both. Anywhere else the migration says how to schedule it.
do $$
begin
  if to_regnamespace('cron') is null
     and exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron;
    exception when others then
      -- e.g. a server with the package installed but not in shared_preload_libraries.
      raise notice 'pg_cron is installed but could not be enabled: %', sqlerrm;
    end;
  end if;
  if to_regnamespace('cron') is not null then
    perform cron.schedule(
      'purge-expired-contact-submissions',
      '17 3 * * *',
      'select public.purge_expired_contact_submissions()'
    );
  else
    raise notice '%', 'pg_cron is not available: run "select public.purge_expired_contact_submissions()" '
      || 'daily with the scheduler you have (as the service role, e.g. `npm run messages:purge` from a daily job).';
  end if;
end
$$;
