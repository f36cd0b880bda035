//! The fuzz targets' corpus and every crash they found (`fuzz/corpus/`, `fuzz/artifacts/`), run through the same
//! checks as ordinary tests: a crash once fixed stays fixed, without the nightly fuzzing build.

#[path = "../../fuzz/checks.rs"]
mod checks;

#[test]
fn the_fuzz_corpus_and_its_crashes_pass_their_checks() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut ran = 0;
    for (target, check) in checks::CHECKS {
        for dir in ["corpus", "artifacts"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let bytes = std::fs::read(entry.path()).expect("a corpus file");
                let outcome = std::panic::catch_unwind(|| check(&bytes));
                assert!(outcome.is_ok(), "{target}: {} fails its check", entry.path().display());
                ran += 1;
            }
        }
    }
    assert!(
        ran >= checks::CHECKS.len(),
        "every target has a seed at least: {ran} files run"
    );
}
