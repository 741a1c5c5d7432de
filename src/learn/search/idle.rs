//! Idle conjuncts: `C ⊓ D` that covers exactly the examples `C` covers changes nothing yet,
//! so searches keep it out of their trees (it is still tested and may be a solution).

use crate::concept::Concept;

/// `child` is `parent ⊓ D` for some extra conjuncts `D` (both in normal form).
pub fn extends_conjunction(parent: &Concept, child: &Concept) -> bool {
    let Concept::And(parts) = child else {
        return false;
    };
    match parent {
        Concept::Top => true,
        Concept::And(parent_parts) => {
            parent_parts.len() < parts.len() && parent_parts.iter().all(|p| parts.contains(p))
        }
        other => parts.contains(other),
    }
}
