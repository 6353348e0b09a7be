-- The database asks for each message's notification, not the visitor's tab. Before this, the form
-- inserted its message and then called send-contact-email from the browser: a tab closed, a network
-- lost or a blocker at that moment left the message « never asked », and nothing tried again.
--
-- Supabase's documented way (guides/database/webhooks, and the retry schedule of the migration
-- 20261210100100): an AFTER INSERT trigger queues, through pg_net, a POST {"id": "<uuid>"} to the
-- function with the service-role key, both read from Vault (secrets project_url and
-- service_role_key). pg_net sends it once the insert has committed, so a message rolled back is never
-- announced. The function now answers only the database, the schedule and an administrator's resend
-- (claim_contact_notification is the service role's alone): a visitor's call is refused.
--
-- Which inserts: those of the API's visitor roles (anon, authenticated), i.e. what the form sends;
-- notification_requested_at records it. Rows the service role or an operator writes (an import, a
-- restore, a test's fixtures) keep the state they are written with; an administrator's resend sends them.
--
-- Never at the expense of the message: a missing pg_net or Vault secret, or any error while queueing,
-- is a warning in the database's log and the message is stored « never asked ». The retry schedule
-- then takes it (below), as it takes a call pg_net made that never reached the function.

alter table public.contact_submissions add column notification_requested_at timestamptz;

comment on column public.contact_submissions.notification_requested_at is
  'When the database asked for this message''s notification (a visitor''s insert, migration 20261220100000); '
  'null for rows an operator wrote.';

-- One function, two moments: before the insert it marks a visitor's message (NEW can change only
-- then); after it, the row being valid, it queues the call.
create or replace function private.request_contact_notification() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  project_url text;
  service_key text;
begin
  if tg_when = 'BEFORE' then
    new.notification_requested_at := case
      when coalesce(auth.role(), '') in ('anon', 'authenticated') then now()
    end;
    return new;
  end if;
  if new.notification_requested_at is null then
    return null;
  end if;
  begin
    select max(decrypted_secret) filter (where name = 'project_url'),
           max(decrypted_secret) filter (where name = 'service_role_key')
      into project_url, service_key
      from vault.decrypted_secrets where name in ('project_url', 'service_role_key');
    if project_url is null or service_key is null then
      raise warning 'contact message % stored, its notification not asked: Vault lacks project_url or '
        'service_role_key (docs/supabase.md); the retry schedule will send it', new.id;
      return null;
    end if;
    perform net.http_post(
      url := project_url || '/functions/v1/send-contact-email',
      headers := jsonb_build_object(
        'Content-Type', 'application/json',
        'Authorization', 'Bearer ' || service_key,
        'apikey', service_key
      ),
      body := jsonb_build_object('id', new.id),
      timeout_milliseconds := 30000
    );
  exception when others then
    raise warning 'contact message % stored, its notification not asked (%): the retry schedule will send it',
      new.id, sqlerrm;
  end;
  return null;
end
$$;

revoke all on function private.request_contact_notification() from public, anon, authenticated, service_role;

create trigger contact_submissions_mark_notification
before insert on public.contact_submissions
for each row execute function private.request_contact_notification();

create trigger contact_submissions_request_notification
after insert on public.contact_submissions
for each row execute function private.request_contact_notification();

/*
 * The schedule's sweep also takes the visitors' messages whose notification was asked but never came,
 * once the webhook has had its chance (2 minutes: pg_net sends within seconds, and its call times out
 * after 30 s) and for a day: older ones wait for an administrator's resend rather than reaching the
 * agency days late all at once. Rows an operator wrote are not the sweep's (no request recorded).
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
        or (notification_status = 'never_asked'
            and notification_requested_at < now() - interval '2 minutes'
            and notification_requested_at > now() - interval '1 day')
     order by coalesce(notification_next_attempt_at, notification_claimed_at, notification_requested_at)
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

revoke all on function public.claim_due_contact_notifications(integer) from public, anon, authenticated;
grant execute on function public.claim_due_contact_notifications(integer) to service_role;

-- The sweep's new query: never-asked messages by request.
create index contact_submissions_never_asked_idx on public.contact_submissions (notification_requested_at)
  where notification_status = 'never_asked' and notification_requested_at is not null;
