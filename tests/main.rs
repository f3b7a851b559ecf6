//! The integration tests: one module per file of this folder, each driving the
//! `sente` binary over pipes or on its command line, as a GUI, an arena or a user
//! would. One crate, so that one test binary is built (and linked with the release
//! profile's fat LTO) instead of one per file. One file's tests:
//! `cargo test --release -p sente --test integration arena::`.

mod common;

mod architecture;
mod arena;
mod arena_files;
mod arena_report;
mod bad_input;
mod busy_loops;
mod chaosclock;
mod cli;
mod compliance;
mod fuzz_cases;
mod fuzz_conversation;
mod gnu_parallel;
mod gnugo;
mod go_analysis;
mod go_endings;
mod go_homework;
mod go_tactics;
mod gtp_go;
mod gtp_othello;
mod katago_analysis;
mod nboard;
mod othello_book;
mod othello_openings;
mod phantom_arena;
mod phantom_protocol;
mod phantom_referee;
mod phantom_referee_browser;
mod phantom_ugi;
mod readme;
mod referee_support;
mod referee_webdriver;
mod resume;
mod shards;
mod toy;
mod train_go;
mod train_teacher;
mod ugi;
mod ugi_client;
mod ugi_setup;
