-- The request that wrote a message (platform/request_id.rs): the sender's log lines name
-- it, so one request's lines include the SMS and emails it caused.
ALTER TABLE sms_outbox ADD COLUMN request_id TEXT;
ALTER TABLE email_outbox ADD COLUMN request_id TEXT;
