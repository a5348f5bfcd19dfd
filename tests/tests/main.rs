//! The end-to-end tests, one binary: each file is a module (linking the whole workspace once,
//! not once per file, is most of what a test run costs on two cores).

mod common;

mod any_system;
mod archive;
mod audit_about;
mod board;
mod browser;
mod cli_errors;
mod cli_healing;
mod cli_injury;
mod combat;
mod disputes;
mod export;
mod fifth_system;
mod first_session;
mod fixture_ledgers;
mod fold_properties;
mod gm_only;
mod hostile;
mod page;
mod readme;
mod roster;
mod rulings;
mod savage_worlds;
mod snapshots_cli;
mod snapshots_prop;
mod stored_format;
mod sync_files;
mod sync_network;
mod sync_private;
mod verify;
mod witch_iron;
mod wrath_glory;
