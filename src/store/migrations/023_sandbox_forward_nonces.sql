-- Sandbox (owned by src/sandbox): the nonce of every forwarded call an instance accepted, kept for the signature window
-- (pruned after it), so a captured call cannot be replayed — not even to an instance that restarted in between.
create table sandbox_forward_nonces (
  nonce    text primary key,
  seen_at  timestamptz not null default now()
);
create index sandbox_forward_nonces_seen_at on sandbox_forward_nonces (seen_at);
