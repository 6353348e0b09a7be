-- The visitor's language (issue 54): the form sends the locale of the page it was sent from, « fr » or
-- « en » only, so the agency knows which language to answer in. Rows from before, and rows an operator
-- writes without it, are French (the site's default language).
alter table public.contact_submissions
  add column locale text not null default 'fr'
  constraint contact_submissions_locale_check check (locale in ('fr', 'en'));

grant insert (locale) on public.contact_submissions to anon, authenticated;

-- The claims hand the notification the language too (their grants are kept by « create or replace »).
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
      'message', claimed.message, 'package', claimed.package, 'locale', claimed.locale));
  end if;
  select notification_status into current_status from public.contact_submissions where id = submission_id;
  return jsonb_build_object('outcome', coalesce(current_status, 'not_found'));
end
$$;

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
    returning c.id, c.name, c.email, c.phone, c.message, c.package, c.locale
  )
  select coalesce(jsonb_agg(to_jsonb(taken)), '[]'::jsonb) into claimed from taken;
  return claimed;
end
$$;
