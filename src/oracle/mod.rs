//! The membership oracle.
