-- Sandbox (owned by src/sandbox): a session's network switch for its run steps ('on' or 'off'; installs always fetch),
-- kept until a later call changes it.
alter table sandbox_sessions add column network text not null default 'on';
