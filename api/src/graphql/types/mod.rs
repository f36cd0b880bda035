//! The public object types of the graph.

pub mod enums;
pub mod financing;
pub mod objects;
