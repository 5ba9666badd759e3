-- Names are compared as people read them (`almanac_core::normalise_name`: Unicode's composed form, no
-- invisible characters, spaces trimmed and collapsed). The identities keyed by the older fold are keyed again
-- or merged (`rekey_players`, in Rust), and the games whose players' names change under it lose their
-- fingerprint, so that `serve` derives it again (the same game typed two ways is then one game).
SELECT 1;
