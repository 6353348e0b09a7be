-- Roles of signed-in users (spec §7.3, §7.4): an admin reads and manages the contact messages.

create type public.app_role as enum ('admin', 'user');

create table public.user_roles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.app_role not null,
  created_at timestamptz not null default now(),
  constraint user_roles_user_id_role_key unique (user_id, role)
);

alter table public.user_roles enable row level security;
revoke all on public.user_roles from anon, authenticated;
grant select on public.user_roles to authenticated;
grant all on public.user_roles to service_role;

create policy "Users can read their own roles"
on public.user_roles for select to authenticated
using (user_id = (select auth.uid()));

-- SECURITY DEFINER so policies can consult user_roles whatever the caller may read; the empty
-- search_path means every name is qualified and nothing can be shadowed.
create or replace function public.has_role(_user_id uuid, _role public.app_role) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.user_roles where user_id = _user_id and role = _role)
$$;

revoke execute on function public.has_role(uuid, public.app_role) from public, anon;
grant execute on function public.has_role(uuid, public.app_role) to authenticated, service_role;

-- Admins read, mark read/unread and delete messages.
grant select, delete on public.contact_submissions to authenticated;
grant update (is_read) on public.contact_submissions to authenticated;

create policy "Admins can read messages"
on public.contact_submissions for select to authenticated
using ((select public.has_role((select auth.uid()), 'admin')));

create policy "Admins can update messages"
on public.contact_submissions for update to authenticated
using ((select public.has_role((select auth.uid()), 'admin')))
with check ((select public.has_role((select auth.uid()), 'admin')));

create policy "Admins can delete messages"
on public.contact_submissions for delete to authenticated
using ((select public.has_role((select auth.uid()), 'admin')));
