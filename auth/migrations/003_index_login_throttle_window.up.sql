-- Lets each login attempt find a few expired throttle rows to delete without scanning the table.
CREATE INDEX login_throttle_window_start_idx ON login_throttle (window_start);
