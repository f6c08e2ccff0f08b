-- Organisation names are unique per owner, not across all customers: a taken name must never tell one customer
-- that another organisation of that name exists. Organisations an operator creates (`tooldex keys create --org`,
-- no owner) keep unique names among themselves, so the CLI can find them by name.
drop index organisations_name_lower;
create unique index organisations_owner_name on organisations (created_by, lower(name)) where created_by is not null;
create unique index organisations_operator_name on organisations (lower(name)) where created_by is null;
