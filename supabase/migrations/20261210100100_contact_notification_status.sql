-- What the agency was told about each message, kept by the database so the inbox can say it and a
-- failed notification is tried again. Before this, a failed delivery only cleared notified_at: the
-- visitor saw success (the message is stored), nobody was told, and nothing retried.
--
-- notification_status, one of:
--   never_asked      the form never called send-contact-email (e.g. the visitor's browser closed first);
--   sending          a call has claimed the message and is delivering it (notification_claimed_at);
--   sent             delivered, at notified_at;
--   delivery_failed  the last attempt failed: notification_error says why (technical, for the
--                    administrator; never sent to visitors), notification_next_attempt_at when the
--                    schedule tries again (null: it gave up).
-- notification_attempts counts the attempts; last_resend_at is when an administrator last asked for a
-- resend (at most once a minute per message). Only the functions below write these columns: visitors
-- may insert message columns only and admins may update is_read only (earlier migrations' grants).

alter table public.contact_submissions
  add column notification_status text not null default 'never_asked',
  add column notification_error text,
  add column notification_attempts integer not null default 0,
  add column notification_next_attempt_at timestamptz,
  add column notification_claimed_at timestamptz,
  add column last_resend_at timestamptz;

-- Messages notified before this; those still without notified_at are not known to have been asked.
update public.contact_submissions set notification_status = 'sent' where notified_at is not null;

alter table public.contact_submissions
  add constraint contact_submissions_notification_status_check
    check (notification_status in ('never_asked', 'sending', 'sent', 'delivery_failed')),
  add constraint contact_submissions_notification_sent_check
    check ((notification_status = 'sent') = (notified_at is not null)),
  add constraint contact_submissions_notification_claim_check
    check ((notification_status = 'sending') = (notification_claimed_at is not null)),
  add constraint contact_submissions_notification_error_check
    check ((notification_status = 'delivery_failed') = (notification_error is not null)
           and char_length(notification_error) <= 300),
  add constraint contact_submissions_notification_next_attempt_check
    check (notification_next_attempt_at is null or notification_status = 'delivery_failed'),
  add constraint contact_submissions_notification_attempts_check check (notification_attempts >= 0);

comment on column public.contact_submissions.notified_at is
  'When send-contact-email delivered the notification of this message; null until then.';
comment on column public.contact_submissions.notification_status is
  'never_asked, sending, sent or delivery_failed (see the migration 20261210100100).';
comment on column public.contact_submissions.notification_error is
  'Why the last delivery failed (technical; for administrators only).';

-- The retry sweep's query and the inbox's « Non notifiées » filter.
create index contact_submissions_notification_due_idx on public.contact_submissions (notification_next_attempt_at)
  where notification_status = 'delivery_failed';
create index contact_submissions_unnotified_idx on public.contact_submissions (created_at desc)
  where notified_at is null;

-- The backoff, stated once: after the 1st, 2nd and 3rd failed attempts the next comes 1, 5 and 30
-- minutes later; after the 4th the schedule gives up (null), and only an administrator's resend tries.
create or replace function private.contact_notification_retry_delay(attempts integer) returns interval
language sql immutable parallel safe set search_path = ''
as $$
  select (array[interval '1 minute', interval '5 minutes', interval '30 minutes'])[attempts]
$$;

-- A claim older than this is an interrupted call (the function's SMTP timeouts end any delivery
-- within a minute, Supabase Edge ends a call within minutes): the sweep and a resend may take it over.
create or replace function private.contact_notification_lease() returns interval
language sql immutable parallel safe set search_path = ''
as $$ select interval '10 minutes' $$;

/*
 * Claims one message for delivery: of concurrent calls, one update finds it claimable. The form's call
 * (resend false) claims only a message never asked; a resend (checked by the function below first)
 * also takes a failed one or an interrupted claim. Returns {outcome: 'claimed', message: {…}} or
 * {outcome: 'not_found' | 'sending' | 'sent' | 'delivery_failed' | 'never_asked'}.
 */
create or replace function public.claim_contact_notification(submission_id uuid, resend boolean default false)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  claimed public.contact_submissions;
  current_status text;
begin
  update public.contact_submissions
     set notification_status = 'sending', notification_claimed_at = now(), notification_error = null,
         notification_next_attempt_at = null, notification_attempts = notification_attempts + 1
   where id = submission_id
     and (notification_status = 'never_asked'
          or (resend and notification_status = 'delivery_failed')
          or (resend and notification_status = 'sending'
              and notification_claimed_at < now() - private.contact_notification_lease()))
  returning * into claimed;
  if found then
    return jsonb_build_object('outcome', 'claimed', 'message', jsonb_build_object(
      'id', claimed.id, 'name', claimed.name, 'email', claimed.email, 'phone', claimed.phone,
      'message', claimed.message, 'package', claimed.package));
  end if;
  select notification_status into current_status from public.contact_submissions where id = submission_id;
  return jsonb_build_object('outcome', coalesce(current_status, 'not_found'));
end
$$;

/*
 * Claims the failed notifications whose next attempt is due, and interrupted claims, at most
 * max_count (the rest wait for the next run). Rows another run holds are skipped, never waited for.
 * Returns a JSON array of the claimed messages.
 */
create or replace function public.claim_due_contact_notifications(max_count integer default 10)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  claimed jsonb;
begin
  with due as (
    select id from public.contact_submissions
     where (notification_status = 'delivery_failed' and notification_next_attempt_at <= now())
        or (notification_status = 'sending'
            and notification_claimed_at < now() - private.contact_notification_lease())
     order by coalesce(notification_next_attempt_at, notification_claimed_at)
     limit greatest(max_count, 0)
     for update skip locked
  ), taken as (
    update public.contact_submissions c
       set notification_status = 'sending', notification_claimed_at = now(), notification_error = null,
           notification_next_attempt_at = null, notification_attempts = c.notification_attempts + 1
      from due where c.id = due.id
    returning c.id, c.name, c.email, c.phone, c.message, c.package
  )
  select coalesce(jsonb_agg(to_jsonb(taken)), '[]'::jsonb) into claimed from taken;
  return claimed;
end
$$;

/*
 * What became of a claimed delivery: delivery_error null = sent; otherwise failed, with the reason
 * and the next attempt per the backoff. Only a message still claimed ('sending') is changed.
 * Returns {status, next_attempt_at} or null when the message is gone or no longer claimed.
 */
create or replace function public.record_contact_notification(submission_id uuid, delivery_error text default null)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  result jsonb;
  reason text := left(coalesce(nullif(btrim(delivery_error), ''), 'unknown error'), 300);
begin
  update public.contact_submissions
     set notification_status = case when delivery_error is null then 'sent' else 'delivery_failed' end,
         notified_at = case when delivery_error is null then now() end,
         notification_claimed_at = null,
         notification_error = case when delivery_error is null then null else reason end,
         notification_next_attempt_at = case
           when delivery_error is null then null
           else now() + private.contact_notification_retry_delay(notification_attempts)
         end
   where id = submission_id and notification_status = 'sending'
  returning jsonb_build_object('status', notification_status, 'next_attempt_at', notification_next_attempt_at)
  into result;
  return result;
end
$$;

/*
 * An administrator asks for a message's notification to be sent again (send-contact-email calls this
 * with the administrator's own token, then claims and delivers). At most once a minute per message,
 * decided here under the row's lock, so two concurrent requests cannot both pass. Errors, answered by
 * PostgREST with their status: 42501 not an administrator (403), PT404 no such message (e.g. purged
 * meanwhile), PT409 already sent or being sent, PT429 asked less than a minute ago (detail: seconds
 * left).
 */
create or replace function public.request_contact_notification_resend(submission_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  target record;
begin
  if not coalesce(public.has_role(auth.uid(), 'admin'), false) then
    raise exception using errcode = '42501', message = 'Only an administrator may resend a notification';
  end if;
  select notification_status, notification_claimed_at, last_resend_at into target
    from public.contact_submissions where id = submission_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'No such message', hint = 'It may have been deleted';
  end if;
  if target.notification_status = 'sent' then
    raise exception using errcode = 'PT409', message = 'Already notified', detail = 'sent';
  end if;
  if target.notification_status = 'sending'
     and target.notification_claimed_at >= now() - private.contact_notification_lease() then
    raise exception using errcode = 'PT409', message = 'The notification is being sent', detail = 'sending';
  end if;
  if target.last_resend_at > now() - interval '1 minute' then
    raise exception using
      errcode = 'PT429',
      message = 'A resend of this notification was asked less than a minute ago',
      detail = ceil(extract(epoch from target.last_resend_at + interval '1 minute' - now()))::text;
  end if;
  update public.contact_submissions set last_resend_at = now() where id = submission_id;
end
$$;

-- The public schema's default privileges hand every new function to every API role: take them back.
revoke all on function private.contact_notification_retry_delay(integer), private.contact_notification_lease()
  from public, anon, authenticated;
revoke all on function public.claim_contact_notification(uuid, boolean),
  public.claim_due_contact_notifications(integer),
  public.record_contact_notification(uuid, text),
  public.request_contact_notification_resend(uuid)
  from public, anon, authenticated, service_role;
grant execute on function public.claim_contact_notification(uuid, boolean),
  public.claim_due_contact_notifications(integer),
  public.record_contact_notification(uuid, text)
  to service_role;
grant execute on function public.request_contact_notification_resend(uuid) to authenticated;

/*
 * The schedule, as Supabase projects do it (guides/functions/schedule-functions): pg_cron runs, every
 * 5 minutes, a pg_net POST of {"retry": "due"} to the function with the service-role key, both read
 * from Vault when the job runs (secrets project_url and service_role_key). The apikey header is for
 * gateways that ask for one (the local twin's); Supabase's functions gateway ignores it. Where the
 * extensions or the secrets are missing, the notice says what an operator must do.
 */
do $schedule$
declare
  missing text[] := '{}';
  job text := $job$
    select net.http_post(
      url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url')
             || '/functions/v1/send-contact-email',
      headers := jsonb_build_object(
        'Content-Type', 'application/json',
        'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key'),
        'apikey', (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')
      ),
      body := '{"retry": "due"}'::jsonb,
      timeout_milliseconds := 30000
    ) as request_id
  $job$;
begin
  -- Supabase ships both extensions: enable them where the server has them and they are not there yet
  -- (the local twin has neither extension but the `cron`, `net` and `vault` schemas of its own,
  -- bootstrap.sql). A server that lists pg_cron without preloading it refuses: reported as missing.
  begin
    if to_regnamespace('cron') is null and exists (select 1 from pg_available_extensions where name = 'pg_cron') then
      create extension if not exists pg_cron;
    end if;
    if to_regnamespace('net') is null and exists (select 1 from pg_available_extensions where name = 'pg_net') then
      create extension if not exists pg_net with schema extensions;
    end if;
  exception when others then
    raise notice 'Could not enable pg_cron/pg_net: %', sqlerrm;
  end;
  -- By name: pg_cron's signature has taken `name` and `text` for the job's name across versions.
  if not exists (select 1 from pg_proc where pronamespace = to_regnamespace('cron') and proname = 'schedule') then
    missing := missing || 'the pg_cron extension'::text;
  end if;
  if not exists (select 1 from pg_proc where pronamespace = to_regnamespace('net') and proname = 'http_post') then
    missing := missing || 'the pg_net extension'::text;
  end if;
  if cardinality(missing) > 0 then
    raise notice using message = format(
      'Failed contact notifications will not be retried on a schedule, for want of %s. Enable pg_cron and pg_net '
      '(Dashboard > Database > Extensions), then run this migration''s cron.schedule(''retry-contact-notifications'', '
      '''*/5 * * * *'', …) again (docs/supabase.md).', array_to_string(missing, ' and '));
    return;
  end if;
  perform cron.schedule('retry-contact-notifications', '*/5 * * * *', job);
  if to_regclass('vault.decrypted_secrets') is null then
    raise notice 'Scheduled retry-contact-notifications, but Vault is missing: the job reads project_url and '
      'service_role_key from vault.decrypted_secrets.';
  elsif (select count(distinct name) from vault.decrypted_secrets
          where name in ('project_url', 'service_role_key')) < 2 then
    raise notice 'Scheduled retry-contact-notifications. Store its secrets once (docs/supabase.md): '
      'select vault.create_secret(''https://<project-ref>.supabase.co'', ''project_url''); '
      'select vault.create_secret(''<service role key>'', ''service_role_key'');';
  end if;
end
$schedule$;
