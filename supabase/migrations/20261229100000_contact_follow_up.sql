-- The inbox keeps the site's promise, « Réponse sous 24h » (the contact page): each message has a
-- follow-up state an administrator moves it through, the database keeps who moved it and when, and
-- computes what the inbox shows of the promise (docs/supabase.md, « Suivi des messages »).
--
-- follow_up, one of:
--   new          nobody has dealt with it yet (every message starts here);
--   in_progress  an administrator is on it;
--   answered     answered, at answered_at (kept if the message is then archived);
--   archived     out of the default list (answered or not: spam, a duplicate, done).
-- Administrators change follow_up only (and is_read, as before); a trigger writes answered_at,
-- follow_up_changed_at and follow_up_changed_by from it, so nobody can backdate an answer.

alter table public.contact_submissions
  add column follow_up text not null default 'new',
  add column answered_at timestamptz,
  add column follow_up_changed_at timestamptz,
  add column follow_up_changed_by uuid references auth.users (id) on delete set null;

alter table public.contact_submissions
  add constraint contact_submissions_follow_up_check
    check (follow_up in ('new', 'in_progress', 'answered', 'archived')),
  add constraint contact_submissions_answered_at_check
    check ((follow_up = 'answered' and answered_at is not null)
           or (follow_up in ('new', 'in_progress') and answered_at is null)
           or follow_up = 'archived');

comment on column public.contact_submissions.follow_up is
  'new, in_progress, answered or archived (migration 20261229100000); administrators change it.';
comment on column public.contact_submissions.answered_at is
  'When an administrator marked the message answered; kept when it is archived, cleared when undone.';
comment on column public.contact_submissions.follow_up_changed_by is
  'The administrator who last changed follow_up (null: the service role or an operator).';

/*
 * Before an update that changes follow_up: when and by whom; answered_at set on « answered » (kept
 * when coming back from « archived », or as the service role wrote it, e.g. an import), cleared on
 * « new » or « in_progress » (an undone answer), kept on « archived ». A message dealt with is read.
 */
create or replace function private.track_contact_follow_up() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.follow_up is not distinct from old.follow_up then
    return new;
  end if;
  new.follow_up_changed_at := now();
  new.follow_up_changed_by := auth.uid();
  if new.follow_up = 'answered' then
    new.answered_at := case
      when new.answered_at is distinct from old.answered_at then new.answered_at
      else coalesce(old.answered_at, now())
    end;
  elsif new.follow_up in ('new', 'in_progress') then
    new.answered_at := null;
  end if;
  if new.follow_up <> 'new' then
    new.is_read := true;
  end if;
  return new;
end
$$;

revoke all on function private.track_contact_follow_up() from public, anon, authenticated, service_role;

create trigger contact_submissions_track_follow_up
before update of follow_up on public.contact_submissions
for each row execute function private.track_contact_follow_up();

-- Row security already lets administrators alone update (migration 20261122100100); the column grant
-- adds follow_up to what they may write. Visitors still insert message columns only.
grant update (follow_up) on public.contact_submissions to authenticated;

-- What waits for an answer: the « À répondre » filter (oldest first), the header's count, the reminder.
create index contact_submissions_waiting_idx on public.contact_submissions (created_at)
  where follow_up in ('new', 'in_progress');
-- The overview's last 30 days of answers.
create index contact_submissions_answered_idx on public.contact_submissions (created_at)
  where answered_at is not null;

/*
 * The inbox's overview, for administrators only (others get 42501): messages per week (weeks starting
 * Monday in Paris, the last `weeks` of them, this one included) by language and by package (the four
 * most chosen over the period by name, the rest together, and none: the contact page); over the last
 * 30 days the median time to the answer and the share answered within 24 hours; and how many messages
 * wait for an answer for more than 24 hours. The share counts the messages of the last 30 days whose
 * 24 hours are over or that are answered; one archived without an answer (spam, a duplicate) is left
 * out, as nobody was owed one (docs/decisions.md).
 */
create or replace function public.contact_inbox_overview(weeks integer default 12) returns jsonb
language plpgsql stable security invoker set search_path = ''
as $$
declare
  this_week date := date_trunc('week', now() at time zone 'Europe/Paris')::date;
  first_week date;
  since timestamptz;
  result jsonb;
begin
  if coalesce(auth.role(), '') <> 'service_role' and not coalesce(public.has_role(auth.uid(), 'admin'), false) then
    raise exception 'the inbox overview is for administrators' using errcode = '42501';
  end if;
  weeks := least(greatest(coalesce(weeks, 12), 1), 52);
  first_week := this_week - (weeks - 1) * 7;
  since := first_week::timestamp at time zone 'Europe/Paris';
  with recent as (
    select date_trunc('week', created_at at time zone 'Europe/Paris')::date as week, package, locale
      from public.contact_submissions
     where created_at >= since
  ), top_packages as (
    select package from recent where package is not null
     group by package order by count(*) desc, package limit 4
  ), labelled as (
    select week, locale,
           case when package is null then null
                when package in (select package from top_packages) then package
                else '' end as package
      from recent
  ), by_week as (
    select week, count(*) as total,
           count(*) filter (where locale = 'fr') as fr,
           count(*) filter (where locale = 'en') as en
      from labelled group by week
  ), by_package as (
    select week, jsonb_object_agg(coalesce(package, '-'), n) as packages
      from (select week, package, count(*) as n from labelled group by week, package) counted
     group by week
  ), answers as (
    select count(*) filter (where answered_at is not null) as answered,
           count(*) filter (where answered_at is not null and answered_at - created_at <= interval '24 hours')
             as within_24h,
           count(*) filter (where answered_at is not null or created_at <= now() - interval '24 hours')
             as owed,
           percentile_cont(0.5) within group (order by extract(epoch from answered_at - created_at))
             filter (where answered_at is not null) as median_seconds
      from public.contact_submissions
     where created_at >= now() - interval '30 days'
       and (answered_at is not null or follow_up <> 'archived')
  )
  select jsonb_build_object(
    'weeks', (
      select jsonb_agg(jsonb_build_object(
               'week', series.week,
               'total', coalesce(by_week.total, 0),
               'fr', coalesce(by_week.fr, 0),
               'en', coalesce(by_week.en, 0),
               'packages', coalesce(by_package.packages, '{}'::jsonb)
             ) order by series.week)
        from (select generate_series(first_week, this_week, interval '7 days')::date as week) series
        left join by_week using (week)
        left join by_package using (week)
    ),
    'packages', (select coalesce(jsonb_agg(package), '[]'::jsonb) from top_packages),
    'answers', (
      select jsonb_build_object(
               'answered', answered,
               'within_24h', within_24h,
               'owed', owed,
               'median_seconds', round(median_seconds)
             )
        from answers
    ),
    'overdue', (
      select count(*) from public.contact_submissions
       where follow_up in ('new', 'in_progress') and created_at < now() - interval '24 hours'
    )
  ) into result;
  return result;
end
$$;

revoke execute on function public.contact_inbox_overview(integer) from public, anon;
grant execute on function public.contact_inbox_overview(integer) to authenticated, service_role;

/*
 * The morning reminder: at 8:00 in Paris, when messages have waited over 24 hours for an answer, one
 * email lists them (send-contact-email, `{"reminder": "due"}`); none when nothing waits. pg_cron runs
 * in UTC, and 8:00 in Paris is 6:00 or 7:00 UTC by season: the job asks every 10 minutes of both hours
 * and this function answers « due » only within Paris's 8 o'clock hour, once a day (a failed delivery
 * gives the day back, release_contact_reminder, and the next run tries again). The record keeps
 * counts, never an address or a text.
 */
create table private.contact_reminders (
  paris_date date primary key,
  claimed_at timestamptz not null default now(),
  messages integer not null
);
alter table private.contact_reminders enable row level security;
revoke all on private.contact_reminders from public, anon, authenticated;

/** The waiting messages when a reminder is due at `at` (default now), claimed for that day; else why not. */
create or replace function public.claim_contact_reminder(at timestamptz default now()) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  local timestamp := at at time zone 'Europe/Paris';
  waiting integer;
  listed jsonb;
begin
  if extract(hour from local) <> 8 then
    return jsonb_build_object('outcome', 'not_due');
  end if;
  select count(*) into waiting from public.contact_submissions
   where follow_up in ('new', 'in_progress') and created_at < at - interval '24 hours';
  if waiting = 0 then
    return jsonb_build_object('outcome', 'nothing_waits');
  end if;
  insert into private.contact_reminders (paris_date, messages) values (local::date, waiting)
  on conflict (paris_date) do nothing;
  if not found then
    return jsonb_build_object('outcome', 'already_sent');
  end if;
  select jsonb_agg(to_jsonb(oldest) order by oldest.created_at) into listed
    from (select id, name, email, package, locale, created_at from public.contact_submissions
           where follow_up in ('new', 'in_progress') and created_at < at - interval '24 hours'
           order by created_at limit 20) oldest;
  return jsonb_build_object('outcome', 'claimed', 'day', local::date, 'total', waiting, 'messages', listed);
end
$$;

/** A reminder that could not be delivered: its day is free again for the next run. */
create or replace function public.release_contact_reminder(day date) returns void
language sql volatile security definer set search_path = ''
as $$ delete from private.contact_reminders where paris_date = day $$;

revoke all on function public.claim_contact_reminder(timestamptz), public.release_contact_reminder(date)
  from public, anon, authenticated;
grant execute on function public.claim_contact_reminder(timestamptz), public.release_contact_reminder(date)
  to service_role;

-- One way for the database's jobs to call send-contact-email: pg_net POSTs `body` with the project URL
-- and the service-role key read from Vault when the job runs (the retry job of the migration
-- 20261210100100 wrote it out; it now calls this too). plpgsql, so that the function can be created
-- before pg_net exists; it answers pg_net's request id.
create or replace function private.request_contact_email(body jsonb) returns bigint
language plpgsql volatile set search_path = ''
as $$
declare
  service_key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
begin
  return net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url')
           || '/functions/v1/send-contact-email',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || service_key,
      'apikey', service_key
    ),
    body := body,
    timeout_milliseconds := 30000
  );
end
$$;

revoke all on function private.request_contact_email(jsonb) from public, anon, authenticated, service_role;

-- The schedules: the morning reminder, and the retry job rewritten to call the function above. Where
-- pg_cron or pg_net is missing, the notice says what to run.
do $schedule$
begin
  if not exists (select 1 from pg_proc where pronamespace = to_regnamespace('cron') and proname = 'schedule')
     or not exists (select 1 from pg_proc where pronamespace = to_regnamespace('net') and proname = 'http_post') then
    raise notice 'The morning reminder is not scheduled, for want of pg_cron and pg_net: enable them, then run '
      'this migration''s cron.schedule(''contact-morning-reminder'', ''*/10 6,7 * * *'', …) (docs/supabase.md).';
    return;
  end if;
  perform cron.schedule('contact-morning-reminder', '*/10 6,7 * * *',
    $job$select private.request_contact_email('{"reminder": "due"}') as request_id$job$);
  perform cron.schedule('retry-contact-notifications', '*/5 * * * *',
    $job$select private.request_contact_email('{"retry": "due"}') as request_id$job$);
end
$schedule$;

/*
 * Retention (migration 20261210100000) counted an address's last message as « our last exchange »,
 * as the site kept no record of the replies. It now keeps when a message was answered: the last
 * exchange is the later of the last message and the last answer.
 */
create or replace function public.purge_expired_contact_submissions() returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  retention interval := coalesce(
    (select value from private.settings where key = 'contact_retention_period'),
    '3 years'
  )::interval;
  cutoff timestamptz := now() - retention;
  messages integer;
  addresses integer;
begin
  if retention <= interval '0' then
    raise exception 'contact_retention_period must be positive, got %', retention;
  end if;
  with expired as (
    select lower(email) as address
    from public.contact_submissions
    group by lower(email)
    having greatest(max(created_at), max(answered_at)) < cutoff
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
