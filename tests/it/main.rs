//! Fomento's integration tests: one binary. Each test starts the real application on a random port with its own
//! fresh database and speaks HTTP to it, on SQLite and, when `FOMENTO_TEST_POSTGRES_URL` is set, on PostgreSQL.

mod acceptance;
mod access;
mod audit;
mod configuration;
mod conventions;
mod dashboard;
mod deadline_flags;
mod doors;
mod exports;
mod facts;
mod faults;
mod fco_acts;
mod fco_guards;
mod financings;
mod fuzz_corpus;
mod graphql_http;
mod helpers;
mod imports;
mod l10n;
mod lifecycle;
mod lifecycle_support;
mod limits;
mod operations;
mod processes;
mod reports;
mod roles;
mod rules;
mod s3;
mod schema;
mod sessions;
mod sockets;
mod storage;
mod timeline;
mod walk;
mod webhooks;
