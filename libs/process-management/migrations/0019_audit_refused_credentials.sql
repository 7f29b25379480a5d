-- A write refused before any credential was accepted (401) is recorded too: with no credential
-- presented at all its `credential` is NULL (the check still allows only 'key' and 'jwt' otherwise).
alter table fw_admin_audit alter column credential drop not null;
