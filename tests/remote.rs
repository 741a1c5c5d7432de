//! SPARQL endpoints over HTTP: scripted mock endpoints on 127.0.0.1 (always) and the CI servers
//! of `.ci/servers/up.sh` (skipped visibly without them, failing in CI): one test binary, a
//! module per topic (`tests/remote/<name>.rs`). Modules run in one process: graphs and files
//! they write are named by module.

mod common;

// `#[path]`: a crate root's `mod x;` is looked for beside it, in tests/, not in tests/remote/.

#[path = "remote/remote_comunica.rs"]
mod remote_comunica;
#[path = "remote/remote_deadline.rs"]
mod remote_deadline;
#[path = "remote/remote_differential.rs"]
mod remote_differential;
#[cfg(feature = "cli")]
#[path = "remote/remote_enrich.rs"]
mod remote_enrich;
#[path = "remote/remote_faults.rs"]
mod remote_faults;
#[cfg(feature = "cli")]
#[path = "remote/remote_problem_queries.rs"]
mod remote_problem_queries;
