-- A trade between players is two decisions at one event: the mover's, and the partner's accepting it rather
-- than declining. Judged decisions are keyed by their seat too.
ALTER TABLE judged_decisions DROP CONSTRAINT judged_decisions_pkey;
ALTER TABLE judged_decisions ADD PRIMARY KEY (game_id, seq, seat);
