-- Login attempts per normalized email (existing or not), so the throttle holds across instances.
-- failures counts attempts since window_start that were not followed by a successful login.
CREATE TABLE login_throttle (
    email        TEXT PRIMARY KEY,
    failures     INTEGER NOT NULL,
    window_start TIMESTAMPTZ NOT NULL
);
