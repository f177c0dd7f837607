//! Graph checks on a schedule: connected groups, and groups separated by 100% results.

use std::collections::VecDeque;

/// Reachability from `start` in a graph given by an adjacency matrix.
fn reachable(adj: &[Vec<bool>], start: usize) -> Vec<bool> {
    let mut seen = vec![false; adj.len()];
    let mut queue = VecDeque::from([start]);
    seen[start] = true;
    while let Some(i) = queue.pop_front() {
        for (j, &edge) in adj[i].iter().enumerate() {
            if edge && !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    seen
}

/// Connected components of an undirected graph, ordered by smallest member.
pub(crate) fn components(adj: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let mut assigned = vec![false; n];
    let mut out = Vec::new();
    for i in 0..n {
        if !assigned[i] {
            let seen = reachable(adj, i);
            let comp: Vec<usize> = (0..n).filter(|&j| seen[j]).collect();
            for &j in &comp {
                assigned[j] = true;
            }
            out.push(comp);
        }
    }
    out
}

/// Strongly connected components of a directed graph, in topological order (sources first).
pub(super) fn strong_groups(adj: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let reach: Vec<Vec<bool>> = (0..n).map(|i| reachable(adj, i)).collect();
    let mut assigned = vec![false; n];
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in 0..n {
        if !assigned[i] {
            let group: Vec<usize> = (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
            for &j in &group {
                assigned[j] = true;
            }
            let reach_count = reach[i].iter().filter(|&&x| x).count();
            groups.push((reach_count, group));
        }
    }
    // A group reaching another reaches strictly more players, so this is a topological order.
    groups.sort_by(|x, y| y.0.cmp(&x.0).then(x.1[0].cmp(&y.1[0])));
    groups.into_iter().map(|(_, g)| g).collect()
}
