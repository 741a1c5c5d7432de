//! A total order on finite scores, so they can key ordered sets (NaN never occurs: scores
//! are sums and ratios of finite counts).

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ordered(pub f64);

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
