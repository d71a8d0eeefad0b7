-- When a documentary was requested, to the millisecond (the events' `requested_at`): `requested_at` is a
-- DateTime, whole seconds on 18.16, and the API's cancel, which repeats the request from this read model,
-- wrote it cut to the second, so `elapsed_ms` of the cancel was up to 999 ms too large and went back at
-- the processor's own cancel. Rows written before this column read it from `requested_at`.
ALTER TABLE documentaries ADD COLUMN requested_at_ms UInt64 DEFAULT toUInt64(toUnixTimestamp(requested_at)) * 1000 AFTER requested_at;
