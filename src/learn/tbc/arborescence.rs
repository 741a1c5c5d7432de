//! Chu–Liu–Edmonds: the maximum-weight spanning arborescence of a digraph from a root.
//!
//! Used for the TAN feature tree: nodes are the features plus a virtual root standing for
//! "only the target as parent". Recursive contraction, `O(V·E)`; deterministic (ties go to
//! the lower-numbered source, then the earlier edge).

/// A weighted edge `from → to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub weight: f64,
}

/// The parent of every node in a maximum arborescence rooted at `root` (`None` for the root),
/// or `None` when some node cannot be reached from the root.
pub fn maximum_arborescence(
    nodes: usize,
    root: usize,
    edges: &[Edge],
) -> Option<Vec<Option<usize>>> {
    let indexed: Vec<Indexed> = edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.from != e.to && e.to != root && e.weight.is_finite())
        .map(|(id, e)| (e.from, e.to, e.weight, id))
        .collect();
    let chosen = solve(nodes, root, &indexed)?;
    let mut parent = vec![None; nodes];
    for id in chosen {
        parent[edges[id].to] = Some(edges[id].from);
    }
    Some(parent)
}

/// An edge of [`solve`]: `(from, to, weight, id)`.
type Indexed = (usize, usize, f64, usize);

/// Returns the ids of the chosen original edges. Edges are `(from, to, weight, id)`.
fn solve(nodes: usize, root: usize, edges: &[Indexed]) -> Option<Vec<usize>> {
    let best = best_incoming(nodes, root, edges)?;
    let Some(cycle) = find_cycle(nodes, root, edges, &best) else {
        return Some(
            (0..nodes)
                .filter(|&v| v != root)
                .filter_map(|v| best[v].map(|k| edges[k].3))
                .collect(),
        );
    };
    solve_contracted(nodes, root, edges, &best, &cycle)
}

/// The best incoming edge of each node but the root (an index into `edges`; ties to the
/// lower-numbered source, then the earlier edge), or `None` when a node has none.
fn best_incoming(nodes: usize, root: usize, edges: &[Indexed]) -> Option<Vec<Option<usize>>> {
    let mut best: Vec<Option<usize>> = vec![None; nodes];
    for (k, &(u, v, w, _)) in edges.iter().enumerate() {
        if v == root || u == v {
            continue;
        }
        let better = match best[v] {
            None => true,
            Some(b) => {
                let (bu, _, bw, _) = edges[b];
                w > bw || (w == bw && u < bu)
            }
        };
        if better {
            best[v] = Some(k);
        }
    }
    if (0..nodes).any(|v| v != root && best[v].is_none()) {
        return None;
    }
    Some(best)
}

/// A cycle among the `best` edges (its nodes in path order), if there is one.
fn find_cycle(
    nodes: usize,
    root: usize,
    edges: &[Indexed],
    best: &[Option<usize>],
) -> Option<Vec<usize>> {
    let mut cycle: Option<Vec<usize>> = None;
    let mut state = vec![0u8; nodes]; // 0 new, 1 on current path, 2 done
    for start in 0..nodes {
        if state[start] != 0 {
            continue;
        }
        let mut path = Vec::new();
        let mut v = start;
        while v != root && state[v] == 0 {
            state[v] = 1;
            path.push(v);
            v = edges[best[v].unwrap_or(0)].0;
        }
        if v != root && state[v] == 1 {
            let pos = path.iter().position(|&p| p == v).unwrap_or(0);
            cycle = Some(path[pos..].to_vec());
        }
        for p in path {
            state[p] = 2;
        }
        if cycle.is_some() {
            break;
        }
    }
    cycle
}

/// Contracts `cycle` into one node, solves the smaller graph and expands the answer: the
/// edge chosen into the cycle replaces the cycle's own best edge into that node.
fn solve_contracted(
    nodes: usize,
    root: usize,
    edges: &[Indexed],
    best: &[Option<usize>],
    cycle: &[usize],
) -> Option<Vec<usize>> {
    // Contract the cycle into one new node; renumber the others compactly.
    let mut cycle_of = vec![usize::MAX; nodes];
    for &v in cycle {
        cycle_of[v] = 0;
    }
    let mut new_id = vec![0usize; nodes];
    let mut next = 0;
    for v in 0..nodes {
        if cycle_of[v] != 0 {
            new_id[v] = next;
            next += 1;
        }
    }
    let c = next;
    for &v in cycle {
        new_id[v] = c;
    }
    let in_weight = |v: usize| best[v].map_or(0.0, |k| edges[k].2);
    let mut contracted = Vec::new();
    // For each contracted edge, the original edge (index into `edges`).
    let mut origin = Vec::new();
    for (k, &(u, v, w, _)) in edges.iter().enumerate() {
        let (cu, cv) = (cycle_of[u] == 0, cycle_of[v] == 0);
        if cu && cv {
            continue;
        }
        let w = if cv { w - in_weight(v) } else { w };
        contracted.push((new_id[u], new_id[v], w, contracted.len()));
        origin.push(k);
    }
    let chosen = solve(c + 1, new_id[root], &contracted)?;
    let mut result = Vec::new();
    let mut entered = None;
    for k in chosen {
        let e = origin[k];
        if cycle_of[edges[e].1] == 0 {
            entered = Some(edges[e].1);
        }
        result.push(edges[e].3);
    }
    for &v in cycle {
        if Some(v) != entered
            && let Some(k) = best[v]
        {
            result.push(edges[k].3);
        }
    }
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(from: usize, to: usize, weight: f64) -> Edge {
        Edge { from, to, weight }
    }

    #[test]
    fn contracts_a_cycle() {
        // Root 0. Best incoming edges 2→1 (10) and 1→2 (9) form the cycle {1, 2}; entering
        // it from the root costs 5 − 10 = −5 at node 1 or 1 − 9 = −8 at node 2, so the tree
        // is 0→1, 1→2, and 2→3 (8) beats 0→3 (2) and 1→3 (1). Total 5 + 9 + 8 = 22.
        let edges = [
            e(0, 1, 5.0),
            e(0, 2, 1.0),
            e(0, 3, 2.0),
            e(1, 2, 9.0),
            e(2, 1, 10.0),
            e(1, 3, 1.0),
            e(2, 3, 8.0),
            e(3, 1, 3.0),
        ];
        let parent = maximum_arborescence(4, 0, &edges).expect("spanning");
        assert_eq!(parent, vec![None, Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn nested_cycle_and_unreachable() {
        // Cycle 1→2→3→1 (all 10) plus entries 0→1 (1), 0→2 (4), 0→3 (2): entering at node 2
        // keeps 2→3, 3→1 and loses 1→2: 4 + 10 + 10 = 24 (entering at 1: 21, at 3: 22).
        let edges = [
            e(1, 2, 10.0),
            e(2, 3, 10.0),
            e(3, 1, 10.0),
            e(0, 1, 1.0),
            e(0, 2, 4.0),
            e(0, 3, 2.0),
        ];
        let parent = maximum_arborescence(4, 0, &edges).expect("spanning");
        assert_eq!(parent, vec![None, Some(3), Some(0), Some(2)]);
        // Node 2 has no incoming edge at all.
        assert!(maximum_arborescence(3, 0, &[e(0, 1, 1.0)]).is_none());
    }
}
