-- Auth (owned by src/auth): users, organisations, memberships, dashboard sessions, invites, API keys,
-- per-key daily usage, shared rate-limit counters and login throttling. Secrets are stored only as hashes.
create table users (
  id            text primary key,
  email         text not null,
  password_hash text not null,
  created_at    timestamptz not null default now()
);
create unique index users_email_lower on users (lower(email));

create table organisations (
  id         text primary key,
  name       text not null,
  created_by text,
  created_at timestamptz not null default now()
);
create unique index organisations_name_lower on organisations (lower(name));

create table memberships (
  org_id     text not null references organisations (id) on delete cascade,
  user_id    text not null references users (id) on delete cascade,
  role       text not null default 'member',
  created_at timestamptz not null default now(),
  primary key (org_id, user_id)
);
create index memberships_user on memberships (user_id);

create table auth_sessions (
  token_hash text primary key,
  user_id    text not null references users (id) on delete cascade,
  csrf_token text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index auth_sessions_user on auth_sessions (user_id);

create table invites (
  token_hash text primary key,
  id         text not null unique,
  org_id     text not null references organisations (id) on delete cascade,
  email      text not null,
  created_by text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at    timestamptz,
  used_by    text
);

create table api_keys (
  id           text primary key,
  org_id       text not null references organisations (id) on delete cascade,
  name         text not null,
  prefix       text not null,
  key_hash     text not null unique,
  created_by   text not null,
  created_at   timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
create index api_keys_org on api_keys (org_id, created_at);

create table api_key_usage (
  key_id    text not null references api_keys (id) on delete cascade,
  day       date not null,
  requests  bigint not null default 0,
  test_runs bigint not null default 0,
  primary key (key_id, day)
);

-- Fixed-window counters shared by every instance over one database (the HTTP rate limiter's store).
create table rate_limit_counters (
  bucket   text primary key,
  hits     integer not null,
  reset_at timestamptz not null
);
create index rate_limit_counters_reset on rate_limit_counters (reset_at);

-- Failed sign-ins per email and per client address; a bucket over its budget is refused until reset_at.
create table login_failures (
  bucket   text primary key,
  failures integer not null,
  reset_at timestamptz not null
);
