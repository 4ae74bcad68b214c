-- Every click rewrites its link's row (clicks, last_clicked_at), and a new link is clicked most soon
-- after it is made, while its page is still full. A full page makes each such update a new row version
-- on another page, with a new entry in each of the table's three indexes; leaving a tenth of each page
-- free keeps the new version on its page (a heap-only tuple) and the indexes untouched. It applies to
-- pages written from now on; existing rows keep their pages until PostgreSQL rewrites them.
ALTER TABLE urls SET (fillfactor = 90);
