//! `kit::pg`: a server starts, answers, stops, and leaves nothing behind.
//! Needs a PostgreSQL installation: behind the `pg` feature, which
//! `cargo test --workspace` leaves off (CI's PostgreSQL step turns it on).
#![cfg(feature = "pg")]

use kit::pg::{PgError, Server, alive};
use std::sync::Arc;

#[test]
fn a_server_answers_then_stops_leaving_no_process_and_no_directory() {
    let server = Server::start().expect("a server");
    assert_eq!(
        server.psql("postgres", "SELECT 40 + 2").unwrap().trim(),
        "42"
    );
    let processes = server.processes();
    // The postmaster and its background workers at least.
    assert!(processes.len() > 1, "{processes:?}");
    let dir = server.socket_dir().to_owned();
    println!(
        "initdb {:?}, start {:?}",
        server.initdb_took(),
        server.started_in()
    );
    let stopped_in = server.stop();
    println!("stop {stopped_in:?}");
    assert!(!server.is_running());
    let left: Vec<_> = processes.iter().filter(|&&p| alive(p)).collect();
    assert!(left.is_empty(), "still running after the stop: {left:?}");
    drop(server);
    assert!(!dir.exists(), "{} left behind", dir.display());
}

#[test]
fn a_stopped_server_starts_again_with_what_was_committed() {
    let server = Server::start().expect("a server");
    server
        .psql(
            "postgres",
            "CREATE TABLE kept(n BIGINT); INSERT INTO kept VALUES (7)",
        )
        .unwrap();
    server.stop();
    assert!(server.psql("postgres", "SELECT 1").is_err());
    let took = server.start_again().expect("started again");
    println!("started again (crash recovery) in {took:?}");
    assert_eq!(
        server
            .psql("postgres", "SELECT n FROM kept")
            .unwrap()
            .trim(),
        "7"
    );
}

#[test]
fn the_tests_of_a_binary_share_one_server_until_the_last_lets_go() {
    let a = Server::shared().expect("a server");
    let b = Server::shared().expect("the same server");
    assert!(Arc::ptr_eq(&a, &b));
    let processes = a.processes();
    drop(a);
    assert!(b.is_running(), "stopped while a test still holds it");
    drop(b);
    let left: Vec<_> = processes.iter().filter(|&&p| alive(p)).collect();
    assert!(left.is_empty(), "the last drop left {left:?} running");
}

#[test]
fn the_url_reaches_the_server_through_its_socket() {
    let server = Server::start().expect("a server");
    let url = server.url("postgres");
    assert!(url.starts_with("postgresql://postgres@%2F"), "{url}");
    assert_eq!(
        server
            .psql("postgres", "SHOW listen_addresses")
            .unwrap()
            .trim(),
        "",
        "a Unix socket only, no TCP port"
    );
}

#[test]
fn a_missing_installation_says_how_to_install_it() {
    let e = PgError::NotInstalled("no initdb".into());
    assert!(e.to_string().contains("apt-get install postgresql"), "{e}");
}
