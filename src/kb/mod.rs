//! Loading knowledge-base files into an Oxigraph store.
