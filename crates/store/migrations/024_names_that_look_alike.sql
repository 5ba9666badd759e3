-- Names that look alike are one name (`almanac_core::fold_name`: NFKC, Unicode's default-ignorable code
-- points removed, letters outside ASCII read as their confusable prototypes, UTS #39). The identities keyed
-- by the older fold are keyed again or merged (`rekey_players`, in Rust), and the games with a name outside
-- ASCII (the only names whose fold changed) lose their fingerprint, so that `serve` derives it again.
SELECT 1;
