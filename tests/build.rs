//! Marks a build whose tests may use PostgreSQL (`FOMENTO_TEST_POSTGRES_URL` set): a test that needs it alone is
//! reported *ignored* without it, never counted as passed.

fn main() {
    println!("cargo::rerun-if-env-changed=FOMENTO_TEST_POSTGRES_URL");
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    if std::env::var("FOMENTO_TEST_POSTGRES_URL").is_ok_and(|u| !u.trim().is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
}
