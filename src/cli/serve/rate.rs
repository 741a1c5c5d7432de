//! `--rate-limit N`: a token bucket per client (a token's name, else an address). A client
//! may send a burst of N requests, then N a second; past that it is told, with
//! `Retry-After`, when the next one will be accepted.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Buckets kept before the idle, full ones are dropped.
const PRUNE_AT: usize = 10_000;

struct Bucket {
    /// Requests the client may still send now (fractions refill over time).
    allowance: f64,
    last: Instant,
}

pub struct RateLimiter {
    per_second: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl RateLimiter {
    pub fn new(per_second: u32) -> Self {
        RateLimiter {
            per_second: f64::from(per_second),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `client`'s bucket: `Ok` if it may go on, else the wait
    /// until it may (for `Retry-After`).
    pub fn take(&self, client: &str) -> Result<(), Duration> {
        self.take_at(client, Instant::now())
    }

    fn take_at(&self, client: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= PRUNE_AT {
            let full = self.per_second;
            let rate = self.per_second;
            buckets.retain(|_, b| {
                b.allowance + now.duration_since(b.last).as_secs_f64() * rate < full
            });
        }
        let bucket = buckets.entry(client.to_owned()).or_insert(Bucket {
            allowance: self.per_second,
            last: now,
        });
        let refill = now.duration_since(bucket.last).as_secs_f64() * self.per_second;
        bucket.allowance = (bucket.allowance + refill).min(self.per_second);
        bucket.last = now;
        if bucket.allowance >= 1.0 {
            bucket.allowance -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.allowance) / self.per_second,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_n_then_n_a_second_per_client() {
        let limiter = RateLimiter::new(2);
        let t0 = Instant::now();
        assert!(limiter.take_at("a", t0).is_ok());
        assert!(limiter.take_at("a", t0).is_ok());
        let wait = limiter.take_at("a", t0).expect_err("past the burst");
        assert!(
            wait > Duration::from_millis(400) && wait <= Duration::from_millis(500),
            "{wait:?}"
        );
        // Another client has its own bucket.
        assert!(limiter.take_at("b", t0).is_ok());
        // Half a second refills one request, not more.
        let t1 = t0 + Duration::from_millis(500);
        assert!(limiter.take_at("a", t1).is_ok());
        assert!(limiter.take_at("a", t1).is_err());
        // A long pause refills the burst only.
        let t2 = t1 + Duration::from_secs(60);
        assert!(limiter.take_at("a", t2).is_ok());
        assert!(limiter.take_at("a", t2).is_ok());
        assert!(limiter.take_at("a", t2).is_err());
    }
}
