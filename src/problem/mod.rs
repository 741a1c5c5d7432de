//! Learning problems and their file formats.
