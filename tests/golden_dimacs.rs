//! The DIMACS files in `cnf/` are what the current encoder writes for the
//! embedded examples. Regenerate them with `SUDOLAB_BLESS=1 cargo test --release --test integration golden_dimacs`.

use sudolab::{Cnf, Encoding, encode};

fn slug(label: &str) -> String {
    label
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

#[test]
fn golden_dimacs_files_are_current() {
    let dir = format!("{}/cnf", env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("SUDOLAB_BLESS").is_some();
    let mut checked = 0;
    for (i, p) in sudolab::Puzzle::examples().iter().enumerate() {
        let name = slug(p.label.as_deref().unwrap_or("puzzle"));
        let mut encs = vec![Encoding::Min];
        if i == 0 {
            encs.extend([Encoding::Max, Encoding::LoMin]);
        }
        for enc in encs {
            let path = format!("{dir}/{name}.{enc}.cnf");
            let cnf = encode(p, enc).unwrap();
            let bytes = cnf.to_dimacs_bytes();
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &bytes).unwrap();
            }
            let stored = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(
                stored == bytes,
                "{path} is stale: rerun with SUDOLAB_BLESS=1"
            );
            let text = String::from_utf8(stored).unwrap();
            let back = Cnf::read_dimacs(&text, 9).unwrap();
            assert_eq!(back.num_clauses(), cnf.num_clauses());
            if enc == Encoding::Max {
                assert_eq!(back.num_clauses(), 11988 + p.givens());
            }
            if enc == Encoding::LoMin {
                assert_eq!(back.num_clauses(), 8829 + p.givens());
            }
            assert!(text.contains("p cnf 729 "));
            checked += 1;
        }
    }
    assert_eq!(checked, 13);
}
