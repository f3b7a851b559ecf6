//! The FFO files of `ffo/problems/` read completely and consistently.

use std::path::PathBuf;

fn problem_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems").join(name)
}

#[test]
fn ffo_40_to_79_read_completely() {
    for (file, first) in [("ffo_40_59.txt", 40), ("ffo_60_79.txt", 60)] {
        let path = problem_file(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let problems = ffo::parse_file(&text).unwrap();
        assert_eq!(problems.len(), 20);
        for (i, p) in problems.iter().enumerate() {
            assert_eq!(p.number, Some(first + i as u32));
            assert!(p.score.is_some() && !p.best_moves.is_empty());
            let legal = p.position.legal_moves();
            assert!(p.best_moves.iter().all(|m| legal.contains(m)), "#{:?}: best move not legal", p.number);
            let empties = p.position.board().empty_count();
            assert!((20..=36).contains(&empties), "#{:?} has {empties} empties", p.number);
        }
    }
}
