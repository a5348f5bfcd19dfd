//! The rules crates' tests against the texts' examples, one binary: each file is a module.

mod common;

mod archive;
mod healing_examples;
mod healing_properties;
mod injury_examples;
mod ruling_order;
